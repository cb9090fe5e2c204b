// The JSON Schema type of a JSON value, and whether a list of declared types allows it: what the importer reads a
// spec's example against (importer/example-types.ts) and execution reads an argument against (execution/
// discriminator.ts). Imports nothing.

/** The JSON Schema type name of a JSON value (`integer` for a whole number, `null`, `array`). */
export function jsonTypeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** Whether declared `types` allow a value of JSON type `t` (an integer is a number too). */
export function typesAllow(types: readonly unknown[], t: string): boolean {
  return types.includes(t) || (t === 'integer' && types.includes('number'));
}
