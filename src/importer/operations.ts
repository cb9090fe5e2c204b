// One OpenAPI operation -> one registry Operation (without its final name and domain, which need all operations):
// parameters and request body flattened into one argument schema with bindings back to the wire, the success
// response and documented errors summarized, effective servers and security, executability checks.
// @see https://spec.openapis.org/oas/v3.1.0#operation-object and https://swagger.io/specification/v2/
import type {
  ArgBinding,
  Diagnostic,
  ErrorInfo,
  HttpMethod,
  JsonSchema,
  Operation,
  RequestBodyInfo,
  ResponseInfo,
  SecurityRequirement,
  ServerInfo,
} from '../types.js';
import type { SpecKind } from './load.js';
import { getPointer, isObject, own, pointer, setOwn } from './pointer.js';
import { MAX_DEFS_CHARS, SchemaError, addNull } from './schema.js';
import type { SchemaConverter } from './schema.js';
import { MAX_SCHEMA_DESCRIPTION, cleanDescription, cleanLine, deletesThroughPath, firstSentence, makeSummary, saysDeprecated, stripInvisible } from './text.js';

export const METHODS: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Header parameters OAS says SHALL be ignored (the client sets them), plus hop-by-hop headers. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization', 'cookie', 'host', 'content-length', 'transfer-encoding', 'connection']);
const LOCATIONS = ['path', 'query', 'header', 'cookie'] as const;
type ParamLocation = (typeof LOCATIONS)[number];

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

function warn(ctx: BuildContext, code: string, at: string, message: string): void {
  ctx.diagnostics.push({ level: 'warning', code, pointer: at, message });
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

function serverInfo(node: unknown, ctx: BuildContext): ServerInfo | undefined {
  if (!isObject(node) || typeof node.url !== 'string') return undefined;
  let url = stripInvisible(node.url).trim();
  if (ctx.baseUrl && !/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !url.includes('{')) {
    try {
      url = new URL(url, ctx.baseUrl).toString().replace(/\/$/, '');
    } catch {
      /* keep as written */
    }
  }
  const info: ServerInfo = { url };
  const desc = cleanLine(node.description, 200);
  if (desc !== '') info.description = desc;
  if (isObject(node.variables)) {
    const vars: NonNullable<ServerInfo['variables']> = {};
    for (const name of Object.keys(node.variables)) {
      const v = node.variables[name];
      if (!isObject(v)) continue;
      const entry: { default: string; enum?: string[]; description?: string } = { default: String(v.default ?? '') };
      if (Array.isArray(v.enum)) entry.enum = v.enum.map(String);
      const d = cleanLine(v.description, 200);
      if (d !== '') entry.description = d;
      setOwn(vars, name, entry);
    }
    info.variables = vars;
  }
  return info;
}

/** Document servers (Swagger 2.0: scheme + host + basePath, https preferred). */
export function documentServers(ctx: BuildContext): ServerInfo[] {
  const doc = ctx.doc;
  if (ctx.kind === 'swagger2') {
    const schemes = Array.isArray(doc.schemes) ? doc.schemes.filter((s): s is string => typeof s === 'string') : [];
    const scheme = schemes.length === 0 || schemes.includes('https') ? 'https' : (schemes[0] as string);
    const basePath = typeof doc.basePath === 'string' ? doc.basePath.replace(/\/$/, '') : '';
    if (typeof doc.host === 'string' && doc.host !== '') return [{ url: `${scheme}://${stripInvisible(doc.host)}${basePath}` }];
    if (ctx.baseUrl) return [{ url: new URL(basePath || '/', ctx.baseUrl).toString().replace(/\/$/, '') }];
    return basePath ? [{ url: basePath }] : [];
  }
  const list = Array.isArray(doc.servers) ? doc.servers : [];
  return list.map((s) => serverInfo(s, ctx)).filter((s): s is ServerInfo => s !== undefined);
}

function effectiveServers(raw: RawOperation, ctx: BuildContext): ServerInfo[] {
  if (ctx.kind === 'swagger2') return [];
  for (const holder of [raw.op, raw.pathItem]) {
    if (Array.isArray(holder.servers) && holder.servers.length > 0) {
      return holder.servers.map((s) => serverInfo(s, ctx)).filter((s): s is ServerInfo => s !== undefined);
    }
  }
  return [];
}

function normalizeSecurity(list: unknown): SecurityRequirement[] {
  if (!Array.isArray(list)) return [];
  const out: SecurityRequirement[] = [];
  for (const req of list) {
    if (!isObject(req)) continue;
    const r: SecurityRequirement = {};
    for (const name of Object.keys(req)) {
      const scopes = req[name];
      setOwn(r, name, Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : []);
    }
    out.push(r);
  }
  return out;
}

function effectiveSecurity(op: Record<string, unknown>, ctx: BuildContext): SecurityRequirement[] {
  return Object.hasOwn(op, 'security') ? normalizeSecurity(op.security) : normalizeSecurity(ctx.doc.security);
}

function statusRank(code: string): number {
  if (/^2\d\d$/.test(code)) return Number(code);
  if (/^2XX$/i.test(code)) return 300;
  if (code === 'default') return 400;
  return 1000;
}

function responseInfo(op: Record<string, unknown>, at: string, ctx: BuildContext): { response?: ResponseInfo; errors: ErrorInfo[] } {
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
