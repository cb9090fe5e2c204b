// JSON pointers and safe object helpers. Spec keys are data: `__proto__`, `constructor` and `prototype` are read
// with Object.hasOwn and written with defineProperty, so no spec can reach Object.prototype (RELIABILITY D18).

/** A plain (non-array) object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Own property of a spec object, or undefined (never an inherited one). */
export function own(obj: unknown, key: string): unknown {
  return isObject(obj) && Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** Sets an own, enumerable property even when `key` is `__proto__`. */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Escapes one reference token (RFC 6901). */
export function escapePointer(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Unescapes one reference token (RFC 6901): `~1` is `/`, then `~0` is `~`. */
export function unescapePointer(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** `#/a/b` for the given tokens. */
export function pointer(...tokens: Array<string | number>): string {
  return '#' + tokens.map((t) => '/' + escapePointer(String(t))).join('');
}

/** Resolves a local `#/...` pointer (percent-decoded, RFC 6901), or undefined when it points nowhere. */
export function getPointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let frag = ref.slice(1);
  try {
    frag = decodeURIComponent(frag);
  } catch {
    return undefined;
  }
  if (frag === '') return doc;
  if (!frag.startsWith('/')) return undefined;
  let node: unknown = doc;
  for (const raw of frag.slice(1).split('/')) {
    const token = unescapePointer(raw);
    if (Array.isArray(node)) {
      if (!/^(0|[1-9]\d*)$/.test(token)) return undefined;
      node = node[Number(token)];
    } else if (isObject(node)) {
      if (!Object.hasOwn(node, token)) return undefined;
      node = node[token];
    } else return undefined;
    if (node === undefined) return undefined;
  }
  return node;
}
