// Files in request bodies. The forms an agent passes a file in: a `data:` URL (`data:image/png;base64,iVBOR…`, an
// optional `;filename=` parameter names it) or a file object `{ base64 | text, filename?, contentType? }`. Where:
// - a multipart property the schema marks binary (`format: binary` or `byte`, `contentMediaType`, `contentEncoding`,
//   also on an array's items): any data: URL or file object;
// - another multipart string property (RFC 7578 lets any part be a file; Stripe declares its upload as a bare
//   `type: string`): only the explicit forms, a file object or a base64 data: URL with a well-formed media type;
// - an octet-stream (or other binary media type) body: a data: URL or a file object gives the bytes.
// Every other string is sent as the text it is, never reinterpreted by its shape (no base64 sniffing).
// validate.ts widens those arguments of the input schema to accept the file object (fileInputSchema): the catalog
// keeps the API description's schema, so no re-import is needed.
import { AppError } from '../errors.js';
import type { JsonSchema, Operation } from '../types.js';
import { primitiveText } from './encode.js';
import { isBinarySchema, resolveRef } from '../schema/refs.js';
import { bodyMediaKind } from './media-kind.js';

type Schema = Record<string, unknown>;

/** The file object an agent may pass for a file argument (beside a `data:` URL). */
export const FILE_OBJECT_SCHEMA: Schema = {
  type: 'object',
  description: 'a file: its bytes as base64 (or its text), and optionally its file name and media type',
  properties: {
    base64: { type: 'string', description: 'the file content, base64-encoded' },
    text: { type: 'string', description: 'the file content as text (sent as UTF-8)' },
    filename: { type: 'string', description: 'the file name sent with it, e.g. "report.pdf"' },
    contentType: { type: 'string', description: 'the media type, e.g. "application/pdf"' },
  },
  anyOf: [{ required: ['base64'] }, { required: ['text'] }],
  additionalProperties: false,
};


/**
 * How a body property can be a file: `marked` when its schema marks it binary (any `data:` URL or file object is a
 * file), else `plain` for a string property with no enum or const (RFC 7578 lets any part be a file, and specs such as
 * Stripe's declare the upload as a bare `type: string`): only the explicit forms, a file object or a base64 `data:`
 * URL with a well-formed media type, are a file there. `items`: the property is an array of such values. Undefined:
 * never a file (numbers, objects, enums).
 */
interface FileField {
  marked: boolean;
  items: boolean;
}

function plainString(s: Schema): boolean {
  if (s.enum !== undefined || s.const !== undefined || s.format !== undefined) return false;
  const types = Array.isArray(s.type) ? (s.type as unknown[]) : s.type === undefined ? undefined : [s.type];
  return types === undefined ? s.properties === undefined && s.items === undefined : types.includes('string');
}

function fileField(root: Schema, schema: JsonSchema | undefined): FileField | undefined {
  if (isBinarySchema(root, schema)) return { marked: true, items: false };
  const s = resolveRef(root, schema);
  if (s === undefined) return undefined;
  const items = s.items !== null && typeof s.items === 'object' ? resolveRef(root, s.items as Schema) : undefined;
  if (items !== undefined && (s.type === 'array' || s.type === undefined)) {
    if (isBinarySchema(root, items)) return { marked: true, items: true };
    return plainString(items) ? { marked: false, items: true } : undefined;
  }
  return plainString(s) ? { marked: false, items: false } : undefined;
}

/** The wire names of a multipart body's properties that can be file parts, each `true` when its schema marks it binary. */
export function multipartFileFields(op: Operation): Map<string, boolean> {
  const out = new Map<string, boolean>();
  if (op.requestBody === undefined || bodyMediaKind(op) !== 'multipart') return out;
  const root = op.inputSchema as Schema;
  if (op.requestBody.mode === 'properties') {
    for (const b of op.bindings) {
      const f = b.in === 'body' ? fileField(root, op.inputSchema.properties[b.arg]) : undefined;
      if (f !== undefined) out.set(b.name, f.marked);
    }
    return out;
  }
  const whole = op.bindings.find((x) => x.in === 'body');
  const props = whole !== undefined ? resolveRef(root, op.inputSchema.properties[whole.arg])?.properties : undefined;
  if (props !== null && typeof props === 'object') {
    for (const [k, sub] of Object.entries(props as Record<string, JsonSchema>)) {
      const f = fileField(root, sub);
      if (f !== undefined) out.set(k, f.marked);
    }
  }
  return out;
}

function widen(schema: JsonSchema | undefined, items: boolean): JsonSchema {
  if (!items) return { anyOf: [schema ?? {}, FILE_OBJECT_SCHEMA] };
  const s = schema as Schema;
  return { ...s, items: { anyOf: [s.items as JsonSchema, FILE_OBJECT_SCHEMA] } };
}

/**
 * The input schema validation uses: the operation's, with each argument that can be a file also accepting the file
 * object (a multipart body's string and binary properties, an octet-stream body). The same object when nothing is
 * widened. The catalog itself keeps the API description's schema.
 */
export function fileInputSchema(op: Operation): Operation['inputSchema'] {
  const kind = op.requestBody !== undefined ? bodyMediaKind(op) : undefined;
  if (kind === undefined) return op.inputSchema;
  const root = op.inputSchema as Schema;
  const props: Record<string, JsonSchema> = Object.create(null) as Record<string, JsonSchema>;
  Object.assign(props, op.inputSchema.properties);
  let changed = false;
  for (const b of op.bindings) {
    if (b.in !== 'body') continue;
    const schema = op.inputSchema.properties[b.arg];
    if (kind === 'binary') {
      if (op.requestBody?.mode !== 'whole') continue;
      props[b.arg] = widen(schema, false);
      changed = true;
    } else if (op.requestBody?.mode === 'properties') {
      const f = fileField(root, schema);
      if (f === undefined) continue;
      props[b.arg] = widen(schema, f.items);
      changed = true;
    } else {
      const s = schema !== null && typeof schema === 'object' && typeof (schema as Schema).$ref !== 'string' ? (schema as Schema) : undefined;
      const inner = s?.properties;
      if (inner === null || typeof inner !== 'object') continue;
      const widened: Record<string, JsonSchema> = {};
      for (const [name, sub] of Object.entries(inner as Record<string, JsonSchema>)) {
        const f = fileField(root, sub);
        widened[name] = f !== undefined ? widen(sub, f.items) : sub;
        changed ||= f !== undefined;
      }
      props[b.arg] = { ...s, properties: widened };
    }
  }
  return changed ? { ...op.inputSchema, properties: props } : op.inputSchema;
}

function badFile(pointer: string, message: string, expected: string): AppError {
  return new AppError('INVALID_ARGUMENTS', `file argument ${pointer || '(body)'}: ${message}`, {
    details: { errors: [{ path: pointer, message, expected, suggestion: 'pass the file as data:<media type>;base64,<base64> or as {"base64": "…", "filename": "…", "contentType": "…"}' }] },
  });
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

function base64Bytes(text: string, pointer: string): Buffer {
  const compact = text.replace(/\s+/g, '');
  if (!BASE64.test(compact)) throw badFile(pointer, 'the base64 content has characters outside the base64 alphabet', 'base64 text (A-Z a-z 0-9 + / =)');
  return Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64');
}

const DATA_URL = /^data:([^;,]*)((?:;[^;,=]+=[^;,]*)*)(;base64)?,/;

/**
 * A file passed as a `data:` URL (`data:image/png;base64,iVBOR...`): its bytes, content type and (from a `;filename=`
 * or `;name=` parameter) file name; undefined when the string is not a data: URL. A payload that is not valid
 * percent-encoding or base64 is INVALID_ARGUMENTS at `pointer`.
 */
export function parseDataUrl(s: string, pointer = ''): { contentType: string; bytes: Buffer; filename?: string } | undefined {
  const m = DATA_URL.exec(s);
  if (m === null) return undefined;
  const payload = s.slice(m[0].length);
  let bytes: Buffer;
  if (m[3]) bytes = base64Bytes(payload, pointer);
  else {
    try {
      bytes = Buffer.from(decodeURIComponent(payload), 'utf8');
    } catch {
      throw badFile(pointer, 'the data: URL is not valid percent-encoding (a "%" must start an escape such as %25)', 'data:<media type>,<percent-encoded text> or data:<media type>;base64,<base64>');
    }
  }
  let filename: string | undefined;
  for (const param of (m[2] ?? '').split(';').slice(1)) {
    const [k = '', v = ''] = param.split('=');
    if (k.trim().toLowerCase() !== 'filename' && k.trim().toLowerCase() !== 'name') continue;
    try {
      filename = decodeURIComponent(v);
    } catch {
      filename = v;
    }
  }
  return { contentType: m[1] || 'application/octet-stream', bytes, ...(filename !== undefined && filename !== '' ? { filename } : {}) };
}

/** A file object `{ base64, filename?, contentType? }` or `{ text, filename?, contentType? }`, else undefined. */
function fileObject(v: unknown, pointer: string): { bytes: Buffer; filename?: string; contentType?: string } | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  if (!Object.keys(o).every((k) => ['base64', 'text', 'filename', 'contentType'].includes(k))) return undefined;
  const bytes = typeof o.base64 === 'string' ? base64Bytes(o.base64, `${pointer}/base64`) : typeof o.text === 'string' ? Buffer.from(o.text, 'utf8') : undefined;
  if (bytes === undefined) return undefined;
  return {
    bytes,
    ...(typeof o.filename === 'string' ? { filename: o.filename } : {}),
    ...(typeof o.contentType === 'string' ? { contentType: o.contentType } : {}),
  };
}

// RFC 9110 §8.3.1 media type: `type/subtype *( OWS ";" OWS token "=" ( token / quoted-string ) )`, printable ASCII
// only. Anything else (CR/LF above all) would end the part's Content-Type line and let the argument add headers.
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const QUOTED_STRING = '"(?:[\\t !#-\\[\\]-~]|\\\\[\\t -~])*"';
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(?:[ \\t]*;[ \\t]*${TOKEN}=(?:${TOKEN}|${QUOTED_STRING}))*$`);

/** Refuses a file part's content type (from the argument) that is not one well-formed media type. */
function assertMediaType(contentType: string, pointer: string): void {
  if (MEDIA_TYPE.test(contentType)) return;
  const shown = contentType.length > 80 ? `${JSON.stringify(contentType.slice(0, 80))}…` : JSON.stringify(contentType);
  const rule = 'a content type must be type/subtype with optional ;name=value parameters, e.g. "image/png" or "text/plain; charset=utf-8", with no CR, LF or other control characters';
  throw new AppError('INVALID_ARGUMENTS', `file argument ${pointer}: content type ${shown} is not a media type; ${rule}`, {
    details: { errors: [{ path: pointer, message: rule, expected: 'a media type, e.g. "image/png"' }] },
  });
}

function quoteParam(s: string): string {
  return s.replace(/["\\\r\n]/g, (c) => (c === '"' ? '%22' : c === '\\' ? '\\\\' : ''));
}

/**
 * A file argument's value as a file: a file object, or a `data:` URL; undefined for anything else. Where the schema
 * does not mark the argument binary (`marked` false), only a base64 `data:` URL with a well-formed media type counts
 * (`data:application/pdf;base64,JVBER…`): text such as "data: 5 rows" or "data:text/csv,a,b" stays text.
 */
function asFile(v: unknown, pointer: string, marked: boolean): { bytes: Buffer; filename?: string; contentType?: string; from: 'url' | 'object' } | undefined {
  if (typeof v === 'string') {
    if (!marked) {
      const m = DATA_URL.exec(v);
      if (m === null || m[3] === undefined || !MEDIA_TYPE.test(m[1] ?? '') || !BASE64.test(v.slice(m[0].length).replace(/\s+/g, ''))) return undefined;
    }
    const f = parseDataUrl(v, pointer);
    return f !== undefined ? { ...f, from: 'url' } : undefined;
  }
  const o = fileObject(v, pointer);
  return o !== undefined ? { ...o, from: 'object' } : undefined;
}

/**
 * multipart/form-data. Each property is one part. A property that can be a file (`files`: wire names, multipartFileFields)
 * given a file form (asFile) becomes a file part; every other string is a text part, sent as it is; arrays repeat the
 * part; other objects are JSON parts. Returns the bytes and the boundary.
 */
export function encodeMultipart(
  body: Record<string, unknown>,
  encoding?: Record<string, { contentType?: string }>,
  files: ReadonlyMap<string, boolean> = new Map(),
  boundary = `----api-catalog-${Math.random().toString(16).slice(2)}${Date.now().toString(16)}`,
): { bytes: Buffer; boundary: string; fileParts: number } {
  const chunks: Buffer[] = [];
  let fileParts = 0;
  // `pointer`: the argument's JSON pointer (`/file`, `/files/0`), named when its content is refused.
  const part = (name: string, v: unknown, pointer: string): void => {
    let headers = `Content-Disposition: form-data; name="${quoteParam(name)}"`;
    let bytes: Buffer;
    const marked = files.get(name);
    const f = marked !== undefined ? asFile(v, pointer, marked) : undefined;
    if (f !== undefined) {
      fileParts++;
      // Checked even when the spec's encoding overrides it: a malformed value is a bad argument either way.
      if (f.contentType !== undefined) assertMediaType(f.contentType, f.from === 'object' ? `${pointer}/contentType` : pointer);
      headers += `; filename="${quoteParam(f.filename ?? name)}"\r\nContent-Type: ${encoding?.[name]?.contentType ?? f.contentType ?? 'application/octet-stream'}`;
      bytes = f.bytes;
    } else if (v !== null && typeof v === 'object') {
      headers += `\r\nContent-Type: ${encoding?.[name]?.contentType ?? 'application/json'}`;
      bytes = Buffer.from(JSON.stringify(v), 'utf8');
    } else {
      const ct = encoding?.[name]?.contentType;
      if (ct !== undefined && ct !== 'text/plain') headers += `\r\nContent-Type: ${ct}`;
      bytes = Buffer.from(primitiveText(v), 'utf8');
    }
    chunks.push(Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`, 'utf8'), bytes, Buffer.from('\r\n', 'utf8'));
  };
  for (const [k, v] of Object.entries(body)) {
    if (v === undefined) continue;
    const pointer = `/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (Array.isArray(v) && !(encoding?.[k]?.contentType ?? '').includes('json')) v.forEach((item, i) => part(k, item, `${pointer}/${i}`));
    else part(k, v, pointer);
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
  return { bytes: Buffer.concat(chunks), boundary, fileParts };
}

/**
 * Bytes for an octet-stream (or other binary) body, the argument at `pointer`: a `data:` URL
 * (`data:application/zip;base64,UEsDB...`) or a file object gives the file's bytes; any other string is sent as its
 * UTF-8 bytes (a text file's content), never decoded as base64 by its look. Other values are sent as JSON.
 */
export function binaryBody(v: unknown, pointer = '/body'): Buffer {
  const f = asFile(v, pointer, true);
  if (f !== undefined) return f.bytes;
  if (typeof v === 'string') return Buffer.from(v, 'utf8');
  return Buffer.from(JSON.stringify(v), 'utf8');
}
