// Signals that came while the CLI was loading, before `serve` listened: the entry (src/cli/index.ts, which may
// import nothing) notes them on a global, and serve takes them once its own listeners are on, acting on each as on
// a signal during its start-up (SIGHUP: reload once serving; SIGTERM/SIGINT: stop, saying so).

const KEY = Symbol.for('api-catalog.early-signals');

interface EarlySignals {
  signals: NodeJS.Signals[];
  listeners: Array<[NodeJS.Signals, () => void]>;
}

/**
 * The noted signals of these kinds, in the order they came, with the entry's listeners for them removed (so the
 * caller's own listeners act on later ones). Empty when serve runs without the entry (a test, an embedding).
 */
export function takeEarlySignals(kinds: readonly NodeJS.Signals[]): NodeJS.Signals[] {
  const early = (globalThis as Record<symbol, unknown>)[KEY] as EarlySignals | undefined;
  if (early === undefined) return [];
  for (const [signal, listener] of early.listeners) if (kinds.includes(signal)) process.off(signal, listener);
  early.listeners = early.listeners.filter(([signal]) => !kinds.includes(signal));
  const taken = early.signals.filter((s) => kinds.includes(s));
  early.signals = early.signals.filter((s) => !kinds.includes(s));
  return taken;
}

/** Hands the signals that came while the CLI loaded to the listeners now on (serve's), as if they came now. */
export function replayEarlySignals(kinds: readonly NodeJS.Signals[]): void {
  for (const signal of takeEarlySignals(kinds)) process.emit(signal, signal);
}
