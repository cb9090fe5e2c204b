// A memo with a bound: a Map that empties itself when full. For values that are cheap to recompute and asked for
// again and again (a term's hits, a word's correction, a decoded card, a summary's one-line form): no eviction
// bookkeeping on the hot path, and memory never grows past `max` entries whatever the queries are.

export class BoundedMap<K, V> extends Map<K, V> {
  constructor(private readonly max: number) {
    super();
  }

  /** Stores `value` under `key`, emptying the map first when it holds `max` entries; returns `value`. */
  remember(key: K, value: V): V {
    if (this.size >= this.max) this.clear();
    this.set(key, value);
    return value;
  }
}
