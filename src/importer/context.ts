// What building one document's operations shares: the document, its kind, the schema converter and the
// diagnostics list every step adds to; and one operation as found under `paths`, before it is built. No I/O.
import type { Diagnostic, HttpMethod } from '../types.js';
import type { SpecKind } from './load.js';
import type { SchemaConverter } from './schema.js';

export interface BuildContext {
  doc: Record<string, unknown>;
  kind: SpecKind;
  conv: SchemaConverter;
  diagnostics: Diagnostic[];
  /** For URL specs: relative server URLs resolve against it. */
  baseUrl?: string;
}

export interface RawOperation {
  path: string;
  method: HttpMethod;
  op: Record<string, unknown>;
  pathItem: Record<string, unknown>;
  /** JSON pointer of the operation object. */
  at: string;
}

/** Records a warning diagnostic at a JSON pointer of the document. */
export function warn(ctx: BuildContext, code: string, at: string, message: string): void {
  ctx.diagnostics.push({ level: 'warning', code, pointer: at, message });
}
