// A multipart file field's example: its placeholder, neither text nor a made-up file. A field whose schema marks file
// content (a format, media type or encoding: src/schema/refs.ts isBinarySchema, as execution's files.ts reads it), or
// an array of them, holds `<KEY>` in the example built at import (examples.ts buildExamples), even where the spec
// gives text there: text goes as a text
// field, which an API wanting a file (an ASP.NET `IFormFile`) refuses, and an invented file (before, a `data:` URL of
// "hello") was sent as if it were the user's. describe labels the field `file (a data: URL, or {base64, filename,
// contentType})`, which says what to put there; execute_tool refuses the placeholder.
import type { Operation } from '../types.js';
import { isPlaceholder, placeholderFor } from '../schema/placeholders.js';
import { isBinarySchema, resolveRef } from '../schema/refs.js';
import { isObject, own, setOwn } from './pointer.js';

type Schema = Record<string, unknown>;

/**
 * A file field's example: a string that is no `data:` URL becomes the field's placeholder (`key`'s; each item of an
 * array of files the array's); undefined when nothing changes.
 */
function asFilePart(value: unknown, schema: unknown, root: Schema, key: string): unknown {
  const s = isObject(schema) ? resolveRef(root, schema) : undefined;
  if (isBinarySchema(root, s)) {
    const min = s?.minLength;
    const minLength = typeof min === 'number' ? min : undefined;
    return typeof value === 'string' && !value.startsWith('data:') && !isPlaceholder(value, key, minLength) ? placeholderFor(key, minLength) : undefined;
  }
  if (s === undefined || !Array.isArray(value) || !isObject(s.items) || !isBinarySchema(root, s.items)) return undefined;
  const items = value.map((v) => asFilePart(v, s.items, root, key));
  return items.some((v) => v !== undefined) ? items.map((v, i) => v ?? value[i]) : undefined;
}

/** A whole multipart body's object with its file fields' placeholders (asFilePart); undefined when nothing changes. */
function filePartsOf(value: unknown, props: unknown, root: Schema): Record<string, unknown> | undefined {
  if (!isObject(value) || !isObject(props)) return undefined;
  const body: Record<string, unknown> = { ...value };
  let changed = false;
  for (const key of Object.keys(value)) {
    const file = asFilePart(value[key], own(props, key), root, key);
    if (file !== undefined) setOwn(body, key, file);
    changed ||= file !== undefined;
  }
  return changed ? body : undefined;
}

/**
 * `args` with each file field of a multipart body (a part whose schema marks file content, or an array of them) its
 * placeholder, not text; else undefined. Other bodies keep theirs: an octet-stream example of the spec's is the file's
 * bytes (one the importer invents is already the body's placeholder).
 */
export function filePartArgs(op: Operation, args: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!(op.requestBody?.mediaTypes[0] ?? '').toLowerCase().startsWith('multipart/')) return undefined;
  const root = op.inputSchema as Schema;
  const out: Record<string, unknown> = { ...args };
  let changed = false;
  for (const b of op.bindings) {
    if (b.in !== 'body' || !Object.hasOwn(args, b.arg)) continue;
    // each argument is a part; of a whole body, each property of its object (execution's multipartFileFields)
    const schema = own(op.inputSchema.properties, b.arg);
    const file = op.requestBody?.mode === 'properties' ? asFilePart(args[b.arg], schema, root, b.arg) : filePartsOf(args[b.arg], isObject(schema) ? resolveRef(root, schema)?.properties : undefined, root);
    if (file !== undefined) setOwn(out, b.arg, file);
    changed ||= file !== undefined;
  }
  return changed ? out : undefined;
}
