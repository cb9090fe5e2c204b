// An operation's request body: read from Swagger 2.0 `in: body` / `in: formData` parameters or an OAS 3 requestBody,
// and whether its top-level properties can become flat arguments (objectView) or it is passed whole. A body that
// accepts only `{}` on a GET, HEAD or DELETE (Stripe declares an empty form body on 236 of them) is no body at all.
// An XML body (text/xml, application/xml, `+xml`; the API offers no JSON or form alternative) is one string argument,
// the XML document, sent as it is: the server builds no XML from arguments (docs/TOOLS.md rule 3 says why), so its
// schema becomes a string whose description outlines the document from the spec's schema and `xml` names.
// @see https://spec.openapis.org/oas/v3.1.0#request-body-object
import { isXmlMediaType } from '../schema/media-types.js';
import type { Diagnostic, HttpMethod, RequestBodyInfo } from '../types.js';
import type { BuildContext } from './context.js';
import { getPointer, isObject, own, setOwn } from './pointer.js';
import { sortMediaTypes } from './responses.js';
import { SchemaError } from './schema.js';
import type { SchemaConverter } from './schema.js';

export interface BodyInfo {
  info: RequestBodyInfo;
  schemaNode: unknown;
  schemaAt: string;
  examples: unknown[];
}

export const SWAGGER_PARAM_SCHEMA_KEYS = [
  'type', 'format', 'items', 'enum', 'default', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength',
  'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'multipleOf', 'x-nullable',
];

export function swaggerParamSchema(param: Record<string, unknown>): Record<string, unknown> {
  const s: Record<string, unknown> = {};
  for (const k of SWAGGER_PARAM_SCHEMA_KEYS) if (Object.hasOwn(param, k)) s[k] = param[k];
  return s;
}

export function exampleValues(holder: Record<string, unknown>, ctx: BuildContext): unknown[] {
  const out: unknown[] = [];
  if (Object.hasOwn(holder, 'example')) out.push(holder.example);
  const ex = own(holder, 'examples');
  if (isObject(ex)) {
    for (const key of Object.keys(ex)) {
      let e = ex[key];
      const ref = own(e, '$ref');
      if (typeof ref === 'string') e = getPointer(ctx.doc, ref);
      if (isObject(e) && Object.hasOwn(e, 'value')) out.push(e.value);
    }
  }
  return out;
}

type Located = { p: Record<string, unknown>; at: string };

/**
 * The request body of an operation: Swagger 2.0's `in: body` parameter or its `in: formData` parameters (`swaggerBody`,
 * `formData`, as the parameter pass found them), else OAS 3's requestBody. Undefined when it has none, or when its
 * schema accepts only `{}` on a method whose body means nothing (GET, HEAD, DELETE): no argument for it.
 */
export function readBody(op: Record<string, unknown>, method: HttpMethod, at: string, ctx: BuildContext, swaggerBody: Located | undefined, formData: Located[]): BodyInfo | undefined {
  const body = anyBody(op, at, ctx, swaggerBody, formData);
  if (body !== undefined && (method === 'get' || method === 'head' || method === 'delete') && acceptsOnlyEmptyObject(body.schemaNode, body.schemaAt, ctx.conv)) return undefined;
  return body !== undefined && isXmlMediaType(body.info.mediaTypes[0] ?? '') ? xmlAsText(body, at, ctx) : body;
}

/** The operations whose XML body became a string, per import: one warning names how many and where the first is. */
const xmlBodies = new WeakMap<BuildContext, { diagnostic: Diagnostic; count: number }>();

/**
 * An XML body as one string argument: the document, described from the spec's schema (xmlOutline), required when the
 * body is or when its schema requires fields (as the flat arguments it would have had were); the spec's examples that
 * are XML text kept. A body whose schema is a string already stays as it is. Each one counts in one warning.
 */
function xmlAsText(body: BodyInfo, at: string, ctx: BuildContext): BodyInfo {
  const { node } = ctx.conv.deref(body.schemaNode, body.schemaAt);
  if (own(node, 'type') === 'string') return body;
  const view = objectView(body.schemaNode, body.schemaAt, ctx.conv);
  const mediaType = body.info.mediaTypes[0] ?? 'application/xml';
  const description = `The request body: an XML document (${mediaType}), passed as a string and sent as it is. ${xmlOutline(body.schemaNode, body.schemaAt, ctx, view)}`;
  const seen = xmlBodies.get(ctx);
  if (seen === undefined) {
    const diagnostic: Diagnostic = { level: 'warning', code: 'BODY_XML_AS_TEXT', pointer: at, message: '' };
    ctx.diagnostics.push(diagnostic);
    xmlBodies.set(ctx, { diagnostic, count: 1 });
  } else seen.count++;
  const entry = xmlBodies.get(ctx) as { diagnostic: Diagnostic; count: number };
  entry.diagnostic.message =
    `${entry.count} operation(s) have an XML request body (${mediaType} here, the first): the server builds no XML from arguments, so each takes ` +
    "the XML document as one string argument, sent as it is, whose description outlines the document from the spec's schema";
  return {
    ...body,
    info: { ...body.info, required: body.info.required || (view?.required.size ?? 0) > 0, mode: 'whole' },
    schemaNode: { type: 'string', description },
    examples: body.examples.filter((e) => typeof e === 'string'),
  };
}

/** An `xml` hint's value on a schema or on one of its allOf parts (AWS: `allOf: [{$ref}, {xml: {name}}]`). */
function xmlHint(node: unknown, at: string, ctx: BuildContext, key: 'name' | 'attribute'): unknown {
  const { node: s } = ctx.conv.deref(node, at);
  const own_ = own(own(s, 'xml'), key);
  if (own_ !== undefined) return own_;
  const parts = own(s, 'allOf');
  return Array.isArray(parts) ? parts.map((p) => own(own(p, 'xml'), key)).find((v) => v !== undefined) : undefined;
}

/** Whether a schema (behind `$ref`s, or its first allOf part) is an array: its element repeats. */
function repeats(node: unknown, at: string, ctx: BuildContext): boolean {
  const { node: s, at: sAt } = ctx.conv.deref(node, at);
  const parts = own(s, 'allOf');
  return own(s, 'type') === 'array' || (Array.isArray(parts) && parts.length > 0 && own(ctx.conv.deref(parts[0], `${sAt}/allOf/0`).node, 'type') === 'array');
}

/**
 * `Root element StopInstancesRequest; its elements: InstanceId (repeated, required), dryRun.`: the element names the
 * spec's `xml` hints give (else the property names; `@name` for an attribute), one level, at most 30 named.
 */
function xmlOutline(node: unknown, at: string, ctx: BuildContext, view: ObjectView | undefined): string {
  const ref = own(node, '$ref');
  const named = xmlHint(node, at, ctx, 'name') ?? (typeof ref === 'string' ? ref.slice(ref.lastIndexOf('/') + 1) : undefined);
  const root = typeof named === 'string' && named !== '' ? `Root element ${named}` : 'Its root element is not named by the spec';
  if (view === undefined) return `${root}.`;
  const fields = view.props.slice(0, 30).map(({ name, node: n, at: nAt }) => {
    const hinted = xmlHint(n, nAt, ctx, 'name');
    const element = `${xmlHint(n, nAt, ctx, 'attribute') === true ? '@' : ''}${typeof hinted === 'string' && hinted !== '' ? hinted : name}`;
    const notes = [...(repeats(n, nAt, ctx) ? ['repeated'] : []), ...(view.required.has(name) ? ['required'] : [])];
    return notes.length > 0 ? `${element} (${notes.join(', ')})` : element;
  });
  return `${root}; its elements: ${fields.join(', ')}${view.props.length > 30 ? `, and ${view.props.length - 30} more` : ''}.`;
}

function anyBody(op: Record<string, unknown>, at: string, ctx: BuildContext, swaggerBody: Located | undefined, formData: Located[]): BodyInfo | undefined {
  if (ctx.kind === 'swagger2') {
    const consumes = (Array.isArray(op.consumes) ? op.consumes : Array.isArray(ctx.doc.consumes) ? ctx.doc.consumes : []).filter((x): x is string => typeof x === 'string');
    if (swaggerBody && formData.length > 0) {
      throw new SchemaError('operation has both `in: body` and `in: formData` parameters (not allowed in Swagger 2.0)', at);
    }
    if (swaggerBody) {
      const mts = sortMediaTypes(consumes.filter((c) => !/form/.test(c)));
      return {
        info: { required: swaggerBody.p.required === true, mediaTypes: mts.length > 0 ? mts : ['application/json'], mode: 'properties' },
        schemaNode: swaggerBody.p.schema,
        schemaAt: `${swaggerBody.at}/schema`,
        examples: isObject(own(swaggerBody.p, 'x-examples')) ? Object.values(swaggerBody.p['x-examples'] as object) : [],
      };
    }
    if (formData.length === 0) return undefined;
    const hasFile = formData.some(({ p }) => p.type === 'file');
    const formTypes = consumes.filter((c) => /form/.test(c));
    const mts = hasFile ? ['multipart/form-data'] : formTypes.length > 0 ? sortMediaTypes(formTypes) : ['application/x-www-form-urlencoded'];
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    for (const { p } of formData) {
      const s = swaggerParamSchema(p);
      if (typeof p.description === 'string') s.description = p.description;
      setOwn(properties, p.name as string, s);
      if (p.required === true) required.push(p.name as string);
    }
    return {
      info: { required: required.length > 0, mediaTypes: mts, mode: 'properties' },
      schemaNode: { type: 'object', properties, required },
      schemaAt: `${at}/parameters`,
      examples: [],
    };
  }
  const rbRaw = own(op, 'requestBody');
  if (rbRaw === undefined) return undefined;
  const { node: rb, at: rbAt } = ctx.conv.deref(rbRaw, `${at}/requestBody`);
  const content = own(rb, 'content');
  if (!isObject(rb) || !isObject(content) || Object.keys(content).length === 0) return undefined;
  const mts = sortMediaTypes(Object.keys(content));
  const chosen = mts.find((mt) => own(content[mt], 'schema') !== undefined) ?? (mts[0] as string);
  const media = content[chosen];
  const info: RequestBodyInfo = { required: rb.required === true, mediaTypes: mts, mode: 'properties' };
  const enc = own(media, 'encoding');
  if (isObject(enc) && /form/.test(chosen)) {
    const encoding: NonNullable<RequestBodyInfo['encoding']> = {};
    for (const prop of Object.keys(enc).sort()) {
      const e = enc[prop];
      if (!isObject(e)) continue;
      const entry: { contentType?: string; style?: string; explode?: boolean } = {};
      if (typeof e.contentType === 'string') entry.contentType = e.contentType;
      if (typeof e.style === 'string') entry.style = e.style;
      if (typeof e.explode === 'boolean') entry.explode = e.explode;
      setOwn(encoding, prop, entry);
    }
    if (Object.keys(encoding).length > 0) info.encoding = encoding;
  }
  return {
    info,
    schemaNode: own(media, 'schema') ?? {},
    schemaAt: `${rbAt}/content/${chosen.replace(/~/g, '~0').replace(/\//g, '~1')}/schema`,
    examples: isObject(media) ? exampleValues(media, ctx) : [],
  };
}

/** Whether an object schema (behind `$ref`s) holds keys beyond its `properties`: `additionalProperties` other than false, or `patternProperties`. */
function allowsMoreKeys(s: Record<string, unknown>): boolean {
  const extra = s.additionalProperties;
  if (extra !== undefined && extra !== false) return true;
  return isObject(s.patternProperties) && Object.keys(s.patternProperties).length > 0;
}

/**
 * Whether a body schema accepts only the empty object: an object (behind `$ref`s) with no properties, no other keys
 * allowed (`additionalProperties: false`) and nothing that could add any (no `allOf`/`anyOf`/`oneOf`/`patternProperties`).
 */
export function acceptsOnlyEmptyObject(node: unknown, at: string, conv: SchemaConverter): boolean {
  const { node: s } = conv.deref(node, at);
  if (!isObject(s)) return false;
  if (s.type !== undefined && s.type !== 'object') return false;
  if (s.additionalProperties !== false || s.allOf !== undefined || s.anyOf !== undefined || s.oneOf !== undefined || s.patternProperties !== undefined) return false;
  return !isObject(s.properties) || Object.keys(s.properties).length === 0;
}

/** An object schema's top-level properties that can become flat arguments. */
export interface ObjectView {
  props: Array<{ name: string; node: unknown; at: string }>;
  required: Set<string>;
}

/**
 * The properties of an object schema, when it can be flattened: an object (possibly behind `$ref`s or an
 * `allOf` of objects) without top-level `oneOf`/`anyOf`. readOnly properties are left out. An object that allows
 * keys beyond its properties (`additionalProperties` true or a schema, `patternProperties`: Spotify's `PUT /me/albums`,
 * Azure's factories) is not flattened: the flat arguments could not hold those keys, so it is sent whole, as a
 * map-like object (no properties) is.
 */
export function objectView(node: unknown, at: string, conv: SchemaConverter): ObjectView | undefined {
  const { node: s, at: sAt } = conv.deref(node, at);
  if (!isObject(s)) return undefined;
  if (s.oneOf !== undefined || s.anyOf !== undefined || s.not !== undefined || s.nullable === true) return undefined;
  const type = s.type;
  if (type !== undefined && type !== 'object') return undefined;
  if (allowsMoreKeys(s)) return undefined;
  const props: ObjectView['props'] = [];
  const required = new Set<string>();
  const seen = new Set<string>();
  const add = (view: ObjectView): void => {
    for (const p of view.props) {
      if (seen.has(p.name)) continue;
      seen.add(p.name);
      props.push(p);
    }
    for (const r of view.required) required.add(r);
  };
  if (Array.isArray(s.allOf)) {
    for (let i = 0; i < s.allOf.length; i++) {
      const part = objectView(s.allOf[i], `${sAt}/allOf/${i}`, conv);
      if (!part) return undefined;
      add(part);
    }
  }
  const own_ = s.properties;
  if (isObject(own_)) {
    const view: ObjectView = { props: [], required: new Set<string>() };
    for (const name of Object.keys(own_)) {
      const sub = own_[name];
      const propAt = `${sAt}/properties/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (conv.isReadOnly(sub, propAt)) continue;
      view.props.push({ name, node: sub, at: propAt });
    }
    add(view);
  }
  if (Array.isArray(s.required)) for (const r of s.required) if (typeof r === 'string' && seen.has(r)) required.add(r);
  // A map-like object (additionalProperties schema, no properties) is sent whole.
  if (props.length === 0) return undefined;
  return { props, required };
}
