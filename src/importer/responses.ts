// What an operation answers: the success response (status, media type, the type and top-level field names of its
// body) and its documented errors, and the order media types are preferred in. No I/O.
// @see https://spec.openapis.org/oas/v3.1.0#responses-object
import type { ErrorInfo, ResponseInfo } from '../types.js';
import { type BuildContext, warn } from './context.js';
import { isObject, own } from './pointer.js';
import { SchemaError } from './schema.js';
import type { SchemaConverter } from './schema.js';
import { cleanDescription, cleanLine, firstSentence, stripInvisible } from './text.js';

const MEDIA_PREFERENCE: Array<(mt: string) => boolean> = [
  (mt) => mt === 'application/json',
  (mt) => /^application\/[^;]*\+json\b/.test(mt) || /^application\/json\b/.test(mt),
  (mt) => mt.startsWith('application/x-www-form-urlencoded'),
  (mt) => mt.startsWith('multipart/form-data'),
  (mt) => mt.startsWith('multipart/'),
  (mt) => mt.startsWith('text/'),
  (mt) => mt.startsWith('application/octet-stream'),
];

/** Media types sorted by preference (JSON first ... octet-stream), others after in spec order. */
export function sortMediaTypes(types: string[]): string[] {
  const rank = (mt: string): number => {
    const i = MEDIA_PREFERENCE.findIndex((f) => f(mt.toLowerCase()));
    return i === -1 ? MEDIA_PREFERENCE.length : i;
  };
  return types.map((t, i) => ({ t, i, r: rank(t) })).sort((a, b) => a.r - b.r || a.i - b.i).map((x) => x.t);
}

function statusRank(code: string): number {
  if (/^2\d\d$/.test(code)) return Number(code);
  if (/^2XX$/i.test(code)) return 300;
  if (code === 'default') return 400;
  return 1000;
}

export function responseInfo(op: Record<string, unknown>, at: string, ctx: BuildContext): { response?: ResponseInfo; errors: ErrorInfo[] } {
  const responses = own(op, 'responses');
  const errors: ErrorInfo[] = [];
  if (!isObject(responses)) return { errors };
  const codes = Object.keys(responses).filter((c) => !c.startsWith('x-'));
  let response: ResponseInfo | undefined;
  const success = codes.filter((c) => statusRank(c) < 1000).sort((a, b) => statusRank(a) - statusRank(b))[0];
  const hasTwoXX = codes.some((c) => /^2/.test(c));
  for (const code of codes) {
    const rAt = `${at}/responses/${code}`;
    let r: unknown;
    try {
      r = ctx.conv.deref(responses[code], rAt).node;
    } catch (err) {
      if (!(err instanceof SchemaError)) throw err;
      warn(ctx, 'REF_BROKEN', err.pointer, `response ${code}: ${err.message}; summarized without it`);
      continue;
    }
    if (!isObject(r)) continue;
    const description = cleanLine(firstSentence(cleanDescription(r.description, 600)), 200);
    if (/^[45]/.test(code) || (code === 'default' && hasTwoXX)) {
      errors.push({ status: code, description });
      continue;
    }
    if (code !== success) continue;
    let schemaNode: unknown;
    let mediaType: string | undefined;
    if (ctx.kind === 'swagger2') {
      schemaNode = r.schema;
      const produces = Array.isArray(op.produces) ? op.produces : Array.isArray(ctx.doc.produces) ? ctx.doc.produces : [];
      const mt = sortMediaTypes(produces.filter((x): x is string => typeof x === 'string'))[0];
      if (mt && schemaNode !== undefined) mediaType = mt;
    } else if (isObject(r.content)) {
      const mt = sortMediaTypes(Object.keys(r.content))[0];
      if (mt !== undefined) {
        mediaType = mt;
        schemaNode = own(r.content[mt], 'schema');
      }
    }
    response = { status: code, description, ...(mediaType !== undefined ? { mediaType } : {}), fields: [] };
    if (schemaNode !== undefined) {
      try {
        const shape = shapeOf(schemaNode, rAt, ctx.conv);
        if (shape.type !== undefined) response.type = shape.type;
        response.fields = shape.fields;
      } catch (err) {
        if (!(err instanceof SchemaError)) throw err;
        warn(ctx, 'REF_BROKEN', err.pointer, `response ${code}: ${err.message}; fields not listed`);
      }
    }
  }
  errors.sort((a, b) => (a.status < b.status ? -1 : a.status > b.status ? 1 : 0));
  return response ? { response, errors } : { errors };
}

const MAX_FIELDS = 20;

/** Type and top-level field names of a response schema (for arrays: of the items). */
function shapeOf(node: unknown, at: string, conv: SchemaConverter): { type?: string; fields: string[] } {
  const { node: s } = conv.deref(node, at);
  if (!isObject(s)) return { fields: [] };
  let type = typeof s.type === 'string' ? s.type : Array.isArray(s.type) ? (s.type.find((t) => t !== 'null') as string | undefined) : undefined;
  let target: Record<string, unknown> = s;
  if (type === 'array' || (type === undefined && s.items !== undefined)) {
    type = 'array';
    const items = conv.deref(s.items, `${at}/items`).node;
    target = isObject(items) ? items : {};
  }
  const fields: string[] = [];
  const collect = (o: Record<string, unknown>, depth: number): void => {
    if (depth > 8) return;
    if (isObject(o.properties)) for (const k of Object.keys(o.properties)) if (!fields.includes(k)) fields.push(k);
    if (Array.isArray(o.allOf)) {
      for (const part of o.allOf) {
        const p = conv.deref(part, at).node;
        if (isObject(p)) collect(p, depth + 1);
      }
    }
  };
  collect(target, 0);
  if (type === undefined && fields.length > 0) type = 'object';
  return { ...(type !== undefined ? { type } : {}), fields: fields.slice(0, MAX_FIELDS).map((f) => stripInvisible(f)) };
}
