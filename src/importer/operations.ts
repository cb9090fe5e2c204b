// One OpenAPI operation -> one registry Operation (without its final name and domain, which need all operations):
// parameters and request body flattened into one argument schema with bindings back to the wire, the success
// response and documented errors summarized (responses.ts), effective servers and security (servers.ts),
// executability checks.
// @see https://spec.openapis.org/oas/v3.1.0#operation-object and https://swagger.io/specification/v2/
import type { ArgBinding, HttpMethod, JsonSchema, Operation, RequestBodyInfo } from '../types.js';
import { type BuildContext, type RawOperation, warn } from './context.js';
import { getPointer, isObject, own, pointer, setOwn } from './pointer.js';
import { responseInfo, sortMediaTypes } from './responses.js';
import { MAX_DEFS_CHARS, SchemaError, addNull } from './schema.js';
import type { SchemaConverter } from './schema.js';
import { effectiveSecurity, effectiveServers } from './servers.js';
import { MAX_SCHEMA_DESCRIPTION, cleanDescription, cleanLine, deletesThroughPath, makeSummary, saysDeprecated, stripInvisible } from './text.js';

export const METHODS: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Header parameters OAS says SHALL be ignored (the client sets them), plus hop-by-hop headers. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization', 'cookie', 'host', 'content-length', 'transfer-encoding', 'connection']);
const LOCATIONS = ['path', 'query', 'header', 'cookie'] as const;
type ParamLocation = (typeof LOCATIONS)[number];

/** Every operation in document order (path items behind a local `$ref` are followed). */
export function collectOperations(ctx: BuildContext): RawOperation[] {
  const out: RawOperation[] = [];
  const paths = own(ctx.doc, 'paths');
  if (!isObject(paths)) return out;
  for (const path of Object.keys(paths)) {
    if (path.startsWith('x-')) continue;
    let item = paths[path];
    const ref = own(item, '$ref');
    if (typeof ref === 'string') {
      const target = ref.startsWith('#') ? getPointer(ctx.doc, ref) : undefined;
      if (!isObject(target)) {
        warn(ctx, 'REF_BROKEN', pointer('paths', path), `path item $ref ${JSON.stringify(ref)} points nowhere; its operations are skipped`);
        continue;
      }
      item = target;
    }
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = own(item, method);
      if (isObject(op)) out.push({ path, method, op, pathItem: item, at: pointer('paths', path, method) });
    }
  }
  return out;
}

interface ParamEntry {
  name: string;
  in: ParamLocation;
  required: boolean;
  schema: JsonSchema;
  binding: Partial<ArgBinding>;
  examples: unknown[];
}

/** Swagger 2.0 collectionFormat -> OAS 3 style/explode. */
function collectionStyle(format: unknown, loc: ParamLocation): Partial<ArgBinding> | undefined {
  switch (format) {
    case 'multi':
      return { style: 'form', explode: true };
    case 'ssv':
      return { style: 'spaceDelimited', explode: false };
    case 'pipes':
      return { style: 'pipeDelimited', explode: false };
    case 'csv':
      return { style: loc === 'query' || loc === 'cookie' ? 'form' : 'simple', explode: false };
    default:
      return undefined;
  }
}

const SWAGGER_PARAM_SCHEMA_KEYS = [
  'type', 'format', 'items', 'enum', 'default', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'minLength',
  'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'multipleOf', 'x-nullable',
];

function swaggerParamSchema(param: Record<string, unknown>): Record<string, unknown> {
  const s: Record<string, unknown> = {};
  for (const k of SWAGGER_PARAM_SCHEMA_KEYS) if (Object.hasOwn(param, k)) s[k] = param[k];
  return s;
}

function exampleValues(holder: Record<string, unknown>, ctx: BuildContext): unknown[] {
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

interface BodyInfo {
  info: RequestBodyInfo;
  schemaNode: unknown;
  schemaAt: string;
  examples: unknown[];
}

/** Builds a registry Operation (name/domain provisional) or returns undefined with a warning when unusable. */
export function buildOperation(raw: RawOperation, ctx: BuildContext): Operation | undefined {
  const { op, pathItem, at, method, path } = raw;
  const deps = new Set<string>();
  const problems: string[] = [];
  try {
    // --- parameters: path-item level, overridden by operation level (same name + location) -------------
    const merged = new Map<string, { p: Record<string, unknown>; at: string }>();
    for (const [list, listAt] of [[own(pathItem, 'parameters'), `${at.slice(0, at.lastIndexOf('/'))}/parameters`], [own(op, 'parameters'), `${at}/parameters`]] as const) {
      if (!Array.isArray(list)) continue;
      list.forEach((entry, i) => {
        const { node, at: pAt } = ctx.conv.deref(entry, `${listAt}/${i}`);
        if (!isObject(node) || typeof node.name !== 'string' || typeof node.in !== 'string') {
          warn(ctx, 'PARAM_INVALID', pAt, 'parameter without a string `name` and `in`; ignored');
          return;
        }
        const key = `${node.in}:${node.in === 'header' ? node.name.toLowerCase() : node.name}`;
        merged.set(key, { p: node, at: pAt });
      });
    }

    const params: ParamEntry[] = [];
    let swaggerBody: { p: Record<string, unknown>; at: string } | undefined;
    const formData: Array<{ p: Record<string, unknown>; at: string }> = [];
    let idempotencyHeader: string | undefined;
    for (const { p, at: pAt } of merged.values()) {
      const name = p.name as string;
      const loc = p.in as string;
      if (ctx.kind === 'swagger2' && loc === 'body') {
        swaggerBody = { p, at: pAt };
        continue;
      }
      if (ctx.kind === 'swagger2' && loc === 'formData') {
        formData.push({ p, at: pAt });
        continue;
      }
      if (!(LOCATIONS as readonly string[]).includes(loc)) {
        warn(ctx, 'PARAM_INVALID', pAt, `parameter ${JSON.stringify(name)} has unknown location ${JSON.stringify(loc)}; ignored`);
        continue;
      }
      if (loc === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) {
        warn(ctx, 'HEADER_IGNORED', pAt, `header parameter ${JSON.stringify(name)} is set by the client (OpenAPI says it SHALL be ignored); ignored`);
        continue;
      }
      if (loc === 'header' && name.toLowerCase() === 'idempotency-key') idempotencyHeader = name;
      const binding: Partial<ArgBinding> = {};
      let schemaNode: unknown;
      let schemaAt = `${pAt}/schema`;
      if (ctx.kind === 'swagger2') {
        schemaNode = swaggerParamSchema(p);
        schemaAt = pAt;
        const cs = collectionStyle(p.collectionFormat, loc as ParamLocation);
        if (cs) Object.assign(binding, cs);
        else if (p.collectionFormat === 'tsv') warn(ctx, 'PARAM_STYLE_UNSUPPORTED', pAt, `collectionFormat "tsv" has no OpenAPI 3 equivalent; sent as csv`);
      } else if (isObject(p.content)) {
        const mts = sortMediaTypes(Object.keys(p.content));
        const mt = mts[0];
        if (mt !== undefined) {
          binding.contentType = mt;
          schemaNode = own(p.content[mt], 'schema');
          schemaAt = `${pAt}/content/${mt.replace(/~/g, '~0').replace(/\//g, '~1')}/schema`;
        }
      } else {
        schemaNode = p.schema;
        if (typeof p.style === 'string') binding.style = p.style as ArgBinding['style'];
        if (typeof p.explode === 'boolean') binding.explode = p.explode;
        if (p.allowReserved === true) binding.allowReserved = true;
      }
      let schema = ctx.conv.convert(schemaNode ?? {}, schemaAt, deps);
      if (typeof schema === 'object') {
        const desc = cleanDescription(p.description, MAX_SCHEMA_DESCRIPTION);
        if (desc !== '' && schema.description === undefined) schema = { description: desc, ...schema };
        if (p.deprecated === true) schema.deprecated = true;
        if (ctx.kind === 'oas30' && p.nullable === true) schema = addNull(schema);
      }
      const examples = exampleValues(p, ctx);
      params.push({ name, in: loc as ParamLocation, required: loc === 'path' ? true : p.required === true, schema, binding, examples });
    }

    // --- request body -------------------------------------------------------------------------------
    let body: BodyInfo | undefined;
    if (ctx.kind === 'swagger2') {
      const consumes = (Array.isArray(op.consumes) ? op.consumes : Array.isArray(ctx.doc.consumes) ? ctx.doc.consumes : []).filter((x): x is string => typeof x === 'string');
      if (swaggerBody && formData.length > 0) {
        throw new SchemaError('operation has both `in: body` and `in: formData` parameters (not allowed in Swagger 2.0)', at);
      }
      if (swaggerBody) {
        const mts = sortMediaTypes(consumes.filter((c) => !/form/.test(c)));
        body = {
          info: { required: swaggerBody.p.required === true, mediaTypes: mts.length > 0 ? mts : ['application/json'], mode: 'properties' },
          schemaNode: swaggerBody.p.schema,
          schemaAt: `${swaggerBody.at}/schema`,
          examples: isObject(own(swaggerBody.p, 'x-examples')) ? Object.values(swaggerBody.p['x-examples'] as object) : [],
        };
      } else if (formData.length > 0) {
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
        body = {
          info: { required: required.length > 0, mediaTypes: mts, mode: 'properties' },
          schemaNode: { type: 'object', properties, required },
          schemaAt: `${at}/parameters`,
          examples: [],
        };
      }
    } else {
      const rbRaw = own(op, 'requestBody');
      if (rbRaw !== undefined) {
        const { node: rb, at: rbAt } = ctx.conv.deref(rbRaw, `${at}/requestBody`);
        const content = own(rb, 'content');
        if (isObject(rb) && isObject(content) && Object.keys(content).length > 0) {
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
          body = {
            info,
            schemaNode: own(media, 'schema') ?? {},
            schemaAt: `${rbAt}/content/${chosen.replace(/~/g, '~0').replace(/\//g, '~1')}/schema`,
            examples: isObject(media) ? exampleValues(media, ctx) : [],
          };
        }
      }
    }

    // --- flat arguments ------------------------------------------------------------------------------
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const bindings: ArgBinding[] = [];
    const taken = new Set<string>();
    const claim = (preferred: string, prefix: string): string => {
      let arg = preferred;
      if (taken.has(arg)) arg = `${prefix}_${preferred}`;
      for (let i = 2; taken.has(arg); i++) arg = `${prefix}_${preferred}_${i}`;
      taken.add(arg);
      return arg;
    };
    const ordered = [...params].sort((a, b) => LOCATIONS.indexOf(a.in) - LOCATIONS.indexOf(b.in));
    const paramArgs = new Map<ParamEntry, string>();
    for (const p of ordered) {
      const arg = claim(stripInvisible(p.name).slice(0, 128) || 'param', p.in);
      paramArgs.set(p, arg);
      setOwn(properties, arg, p.schema);
      if (p.required) required.push(arg);
      bindings.push({ arg, in: p.in, name: p.name, required: p.required, ...p.binding });
    }
    const bodyArgs = new Map<string, string>(); // wire property -> arg
    let wholeBodyArg: string | undefined;
    if (body) {
      const flat = objectView(body.schemaNode, body.schemaAt, ctx.conv);
      if (flat && flat.props.length > 0) {
        for (const { name, node, at: propAt } of flat.props) {
          const arg = claim(stripInvisible(name).slice(0, 128) || 'field', 'body');
          bodyArgs.set(name, arg);
          setOwn(properties, arg, ctx.conv.convert(node, propAt, deps));
          const req = flat.required.has(name);
          if (req) required.push(arg);
          bindings.push({ arg, in: 'body', name, required: req });
        }
      } else {
        body.info.mode = 'whole';
        const arg = claim('body', 'request');
        wholeBodyArg = arg;
        let schema = ctx.conv.convert(body.schemaNode, body.schemaAt, deps);
        if (typeof schema === 'object' && schema.description === undefined) {
          const desc = cleanDescription(own(ctx.conv.deref(own(op, 'requestBody'), at).node, 'description'), MAX_SCHEMA_DESCRIPTION);
          if (desc !== '') schema = { description: desc, ...schema };
        }
        setOwn(properties, arg, schema);
        if (body.info.required) required.push(arg);
        bindings.push({ arg, in: 'body', name: '', required: body.info.required, wholeBody: true });
      }
    }

    // --- executability: the path template and the declared path parameters must agree ------------------
    const templateNames = [...path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1] as string);
    const declared = new Set(params.filter((p) => p.in === 'path').map((p) => p.name));
    for (const t of templateNames) if (!declared.has(t)) problems.push(`path parameter {${t}} is used in ${path} but not declared`);
    for (const d of declared) if (!templateNames.includes(d)) problems.push(`path parameter ${JSON.stringify(d)} is declared but not in the path ${path}`);
    if (!path.startsWith('/')) problems.push(`path ${JSON.stringify(path)} does not start with "/"`);
    for (const problem of problems) warn(ctx, 'NOT_EXECUTABLE', at, problem);

    const inputSchema: Operation['inputSchema'] = { type: 'object', properties, additionalProperties: false };
    if (required.length > 0) inputSchema.required = required;
    if (deps.size > 0) {
      const elided: string[] = [];
      inputSchema.$defs = ctx.conv.defsFor(deps, elided);
      if (elided.length > 0) {
        const first = elided.slice(0, 3).join(', ') + (elided.length > 3 ? `, and ${elided.length - 3} more` : '');
        warn(ctx, 'SCHEMA_ELIDED', at, `argument schema bounded to ${MAX_DEFS_CHARS} characters of nested definitions; ${elided.length} nested schema(s) accept any value instead: ${first}`);
      }
    }

    const rawOpId = typeof op.operationId === 'string' && op.operationId.trim() !== '' ? op.operationId : undefined;
    const description = cleanDescription(op.description);
    const summary = makeSummary(op.summary, description);
    const extDestructive = Object.keys(op).some((k) => k.startsWith('x-') && /destructive|dangerous/i.test(k) && op[k] === true);
    const operation: Operation = {
      name: '',
      operationId: rawOpId !== undefined ? stripInvisible(rawOpId).slice(0, 256) : `${method}_${path}`,
      ...(rawOpId === undefined ? { operationIdSynthesized: true } : {}),
      domain: '',
      summary,
      description,
      method,
      path,
      tags: Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === 'string').map((t) => cleanLine(t, 80)) : [],
      // a spec that says so in the summary ("[OBSOLETE] Do not use...") means it as much as `deprecated: true`
      deprecated: op.deprecated === true || saysDeprecated(summary),
      // a POST to `/tags/delete.json` deletes as much as a DELETE does
      destructive: method === 'delete' || extDestructive || deletesThroughPath(method, path, summary),
      readOnly: method === 'get' || method === 'head',
      servers: effectiveServers(raw, ctx),
      security: effectiveSecurity(op, ctx),
      inputSchema,
      bindings,
      ...(body ? { requestBody: body.info } : {}),
      ...responseInfo(op, at, ctx),
      examples: [],
      ...(idempotencyHeader ? { idempotencyHeader } : {}),
      executable: problems.length === 0,
      ...(problems.length > 0 ? { problems } : {}),
    };
    // Example seeds from the spec, for examples.ts (not part of the registry entry).
    seeds.set(operation, {
      params: [...paramArgs].map(([p, arg]) => ({ arg, values: p.examples })),
      body: body?.examples ?? [],
      bodyArgs,
      wholeBodyArg,
    });
    return operation;
  } catch (err) {
    if (err instanceof SchemaError) {
      warn(ctx, 'OPERATION_SKIPPED', err.pointer, `${method.toUpperCase()} ${path} skipped: ${err.message}`);
      return undefined;
    }
    throw err;
  }
}

/** Example values the spec gives for one operation's arguments. */
export interface ExampleSeeds {
  params: Array<{ arg: string; values: unknown[] }>;
  body: unknown[];
  bodyArgs: Map<string, string>;
  wholeBodyArg: string | undefined;
}
const seeds = new WeakMap<Operation, ExampleSeeds>();
/** The spec's example values recorded while building `op`. */
export function exampleSeeds(op: Operation): ExampleSeeds | undefined {
  return seeds.get(op);
}

/**
 * The properties of an object schema, when it can be flattened: an object (possibly behind `$ref`s or an
 * `allOf` of objects) without top-level `oneOf`/`anyOf`. readOnly properties are left out.
 */
function objectView(node: unknown, at: string, conv: SchemaConverter): { props: Array<{ name: string; node: unknown; at: string }>; required: Set<string> } | undefined {
  const { node: s, at: sAt } = conv.deref(node, at);
  if (!isObject(s)) return undefined;
  if (s.oneOf !== undefined || s.anyOf !== undefined || s.not !== undefined || s.nullable === true) return undefined;
  const type = s.type;
  if (type !== undefined && type !== 'object') return undefined;
  const props: Array<{ name: string; node: unknown; at: string }> = [];
  const required = new Set<string>();
  const seen = new Set<string>();
  const add = (view: { props: Array<{ name: string; node: unknown; at: string }>; required: Set<string> }): void => {
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
    const view = { props: [] as Array<{ name: string; node: unknown; at: string }>, required: new Set<string>() };
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
