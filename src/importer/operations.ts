// One OpenAPI operation -> one registry Operation (without its final name and domain, which need all operations):
// parameters and request body (bodies.ts) flattened into one argument schema with bindings back to the wire, the path
// key cut to the path requested (paths.ts: `/#Action=DeleteVpc` -> `/`), the success response and documented errors
// summarized (responses.ts), effective servers and security (servers.ts), executability checks.
// @see https://spec.openapis.org/oas/v3.1.0#operation-object and https://swagger.io/specification/v2/
import type { ArgBinding, HttpMethod, JsonSchema, Operation } from '../types.js';
import { exampleValues, objectView, readBody, swaggerParamSchema } from './bodies.js';
import { type BuildContext, type RawOperation, warn } from './context.js';
import { getPointer, isObject, own, pointer, setOwn } from './pointer.js';
import { constantSchema, normalisePath, pinnedSchema, recordPathKey } from './paths.js';
import { responseInfo, sortMediaTypes } from './responses.js';
import { MAX_DEFS_CHARS, SchemaError, addNull } from './schema.js';
import { effectiveSecurity, effectiveServers } from './servers.js';
import { MAX_SCHEMA_DESCRIPTION, actionDeletes, actionReads, cleanDescription, cleanLine, deletesThroughPath, makeSummary, saysDeprecated, stripInvisible, writesThroughPath } from './text.js';

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

/** Builds a registry Operation (name/domain provisional) or returns undefined with a warning when unusable. */
export function buildOperation(raw: RawOperation, ctx: BuildContext): Operation | undefined {
  const { op, pathItem, at, method } = raw;
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

    // --- the path key: a `#...` is never sent and a `?...` is the query, not the path (paths.ts) --------
    const key = normalisePath(raw.path, params);
    const path = key.path;
    for (const p of params) {
      const queryKey = p.in === 'path' ? key.toQuery.get(p.name) : undefined;
      if (queryKey === undefined) continue;
      // `/alerts?lat={lat}`: the spec declares `lat` in the path, the key sends it in the query
      p.in = 'query';
      p.name = queryKey;
      p.binding = p.binding.contentType !== undefined ? { contentType: p.binding.contentType } : {};
    }
    for (const { param, value } of key.pins) {
      param.required = true;
      param.schema = pinnedSchema(param.schema, value);
    }
    for (const c of key.constants) params.push({ name: c.key, in: 'query', required: true, schema: constantSchema(c.value ?? ''), binding: {}, examples: [] });
    problems.push(...key.problems);

    // --- request body -------------------------------------------------------------------------------
    const body = readBody(op, method, at, ctx, swaggerBody, formData);

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
    // OAS: a Path Item's summary and description apply to all its operations; they stand in for an operation's own
    // (Twilio describes each path, `"Individual chat messages"`, and none of its operations)
    const ownDescription = cleanDescription(op.description);
    const ownSummary = makeSummary(op.summary, ownDescription);
    const description = ownDescription !== '' ? ownDescription : cleanDescription(own(pathItem, 'description'));
    const summary = ownSummary !== '' ? ownSummary : makeSummary(own(pathItem, 'summary'), cleanDescription(own(pathItem, 'description')));
    const extDestructive = Object.keys(op).some((k) => k.startsWith('x-') && /destructive|dangerous/i.test(k) && op[k] === true);
    // the operation an RPC-style key runs (`#Action=DeleteVpc`), or one whose path is its operationId (`/deleteStream`)
    const lastSegment = path.split('/').filter((s) => s !== '' && !s.includes('{')).pop();
    const action = key.action ?? (rawOpId !== undefined && lastSegment?.toLowerCase() === rawOpId.toLowerCase() ? rawOpId : undefined);
    // a POST to `/tags/delete.json` deletes as much as a DELETE does; so does any method that runs `DeleteVpc`
    const destructive = method === 'delete' || extDestructive || (action !== undefined ? actionDeletes(action, summary) : deletesThroughPath(method, path, summary));
    // a GET reads as far as HTTP knows; one that runs a write action changes data all the same: the action its key
    // names unless that action reads (`GET /#Action=TerminateInstances`), else the action its path ends in, its last
    // segment or its operationId, unless the summary or the operationId says it reads (`GET /movePad`, `/sendMessage`)
    const writes = key.action !== undefined ? !actionReads(key.action) : writesThroughPath(path, summary, rawOpId ?? '');
    const operation: Operation = {
      name: '',
      // the key as written keeps synthesized ids (and names) apart when two keys differ only after their `#` or `?`
      operationId: rawOpId !== undefined ? stripInvisible(rawOpId).slice(0, 256) : `${method}_${raw.path}`,
      ...(rawOpId === undefined ? { operationIdSynthesized: true } : {}),
      domain: '',
      summary,
      description,
      method,
      path,
      tags: Array.isArray(op.tags) ? op.tags.filter((t): t is string => typeof t === 'string').map((t) => cleanLine(t, 80)) : [],
      // a spec that says so in the summary ("[OBSOLETE] Do not use...") means it as much as `deprecated: true`
      deprecated: op.deprecated === true || saysDeprecated(summary),
      destructive,
      readOnly: (method === 'get' || method === 'head') && !destructive && !writes,
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
    recordPathKey(operation, raw.path, action);
    if ((ownSummary === '' && summary !== '') || (ownDescription === '' && description !== '')) {
      pathItemTexts.set(operation, [own(pathItem, 'summary'), own(pathItem, 'description')].filter((v): v is string => typeof v === 'string').map((v) => v.slice(0, 20_000)));
    }
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
      warn(ctx, 'OPERATION_SKIPPED', err.pointer, `${method.toUpperCase()} ${raw.path} skipped: ${err.message}`);
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
const pathItemTexts = new WeakMap<Operation, string[]>();
/**
 * The spec's own text of the Path Item whose summary or description `op` took for want of its own (as written, for
 * the lint: the operation has text, and markup such as <IMPORTANT> is itself a signal); undefined when it took none.
 */
export function pathItemText(op: Operation): readonly string[] | undefined {
  return pathItemTexts.get(op);
}
/** The spec's example values recorded while building `op`. */
export function exampleSeeds(op: Operation): ExampleSeeds | undefined {
  return seeds.get(op);
}
