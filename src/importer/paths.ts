// Path keys that hold more than a path. APIs.guru writes operations OpenAPI cannot put on one path apart with a
// `#` fragment (`/#Action=DeleteVpc`, `/#X-Amz-Target=Lightsail_20161128.GetInstances`, `/access-preview#analyzerArn`,
// Azure's `/{id}#disambiguation_dummy`), and some specs write a literal query into the key
// (`/services?funcs=GetLatestNewsForChatGPT&mobile=1`, `/alerts?lat={lat}&lon={lon}`). Sent as they are, the request
// path is not the path (a URL's `#...` is never sent; its `?...` is the query), so execution must refuse them.
// normalisePath splits such a key at its first `#` or `?`: the path is what is requested; the fragment is dropped
// (a fragment's `k=v` whose parameter is declared pins that parameter to the value; an undeclared one, like Azure's
// x-ms-paths `#overload=stream`, is a disambiguator AutoRest documents as never sent); each `k=v` of a literal query
// becomes a query argument fixed to that value (`const`, required: execution sends what the arguments hold), and each
// `k={name}` sends the declared parameter `name` as query parameter `k`. The action a key names (`Action=`,
// `X-Amz-Target=`, `Operation=`, `method=`) is kept for the destructive rule and the domains of RPC-style specs. Pure.
import type { JsonSchema, Operation } from '../types.js';

export type ParamLocation = 'path' | 'query' | 'header' | 'cookie';

/** One `k=v` (or bare `k`) of a fragment or literal query. */
export interface KeyPart {
  key: string;
  value: string | undefined;
}

/** A path key split at its first `#` or `?`. */
export interface PathKey {
  /** What is requested: the key up to its first `#` or `?`. */
  path: string;
  /** The literal query's parts (`?a=1&b`), in order; empty when none. */
  query: KeyPart[];
  /** The fragment as written (without `#`), or undefined. */
  fragment: string | undefined;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function parts(text: string): KeyPart[] {
  return text
    .split('&')
    .filter((p) => p !== '')
    .map((p) => {
      const eq = p.indexOf('=');
      return eq < 0 ? { key: decoded(p), value: undefined } : { key: decoded(p.slice(0, eq)), value: decoded(p.slice(eq + 1)) };
    });
}

/** Splits a path key at its first `#` or `?` (everything after a `#` is fragment, as in a URL). */
export function splitPathKey(raw: string): PathKey {
  const cut = raw.search(/[#?]/);
  if (cut < 0) return { path: raw, query: [], fragment: undefined };
  const path = raw.slice(0, cut);
  if (raw[cut] === '#') return { path, query: [], fragment: raw.slice(cut + 1) };
  const rest = raw.slice(cut + 1);
  const hash = rest.indexOf('#');
  return { path, query: parts(hash < 0 ? rest : rest.slice(0, hash)), fragment: hash < 0 ? undefined : rest.slice(hash + 1) };
}

/** The keys whose value names the operation an RPC-style endpoint runs (AWS query and JSON protocols, Flickr...). */
const ACTION_KEYS = new Set(['action', 'x-amz-target', 'operation', 'method', 'op', 'cmd', 'funcs']);

/** A declared parameter as normalisePath needs it. */
export interface DeclaredParam {
  name: string;
  in: ParamLocation;
}

/** What a path key asks of the operation's parameters, beyond its clean path. */
export interface NormalisedPath<P extends DeclaredParam = DeclaredParam> {
  /** The path requested (no `#` or `?`); the raw key when it has neither. */
  path: string;
  /** Declared path parameters a `k={name}` of the literal query sends in the query: name -> query key. */
  toQuery: Map<string, string>;
  /** Declared parameters the key fixes to one value (`#Action=DeleteVpc` with `Action` declared; `?view=status`). */
  pins: Array<{ param: P; value: string }>;
  /** Undeclared `k=v` of the literal query: query arguments fixed to `v`. */
  constants: KeyPart[];
  /** Why the operation cannot be executed from this key (empty when it can). */
  problems: string[];
  /** The action the key names (`DeleteVpc`, `Lightsail_20161128.GetInstances`), if it names one. */
  action: string | undefined;
}

/**
 * Normalises a path key against the operation's declared parameters. A key without `#` or `?` comes back as it is,
 * with nothing to do.
 */
export function normalisePath<P extends DeclaredParam>(raw: string, declared: readonly P[]): NormalisedPath<P> {
  const key = splitPathKey(raw);
  const out: NormalisedPath<P> = { path: key.path, toQuery: new Map(), pins: [], constants: [], problems: [], action: undefined };
  if (key.path === raw) return out;
  const find = (name: string, where?: ParamLocation): P | undefined =>
    declared.find((p) => (where === undefined || p.in === where) && (p.in === 'header' ? p.name.toLowerCase() === name.toLowerCase() : p.name === name));
  const fragmentParts = key.fragment !== undefined ? parts(key.fragment) : [];
  for (const part of [...fragmentParts, ...key.query]) {
    if (out.action === undefined && part.value !== undefined && part.value !== '' && ACTION_KEYS.has(part.key.toLowerCase())) out.action = part.value;
  }
  if (key.fragment !== undefined) {
    if (/\{[^{}]*\}/.test(key.fragment)) {
      out.problems.push(`the path key ${JSON.stringify(raw)} puts ${[...key.fragment.matchAll(/\{[^{}]*\}/g)].map((m) => m[0]).join(', ')} after a "#", which a request never sends; the API's real path is unknown (fix the path in the spec or an overlay)`);
    } else {
      for (const part of fragmentParts) {
        if (part.value === undefined) continue; // a bare name: a declared parameter (`#analyzerArn`) or a disambiguator
        const param = find(part.key);
        if (param !== undefined) out.pins.push({ param, value: part.value });
      }
    }
  }
  for (const part of key.query) {
    const shown = `${part.key}${part.value !== undefined ? `=${part.value}` : ''}`;
    if (/[{}]/.test(part.key)) {
      out.problems.push(`the path key ${JSON.stringify(raw)} has a query part ${JSON.stringify(shown)} whose name is a template; which parameter it sends is unknown`);
      continue;
    }
    const template = part.value !== undefined ? /^\{([^{}]+)\}$/.exec(part.value) : null;
    if (template !== null) {
      const name = template[1] as string;
      const inPath = find(name, 'path');
      const inQuery = find(name, 'query');
      if (inPath !== undefined && find(part.key, 'query') === undefined) out.toQuery.set(name, part.key);
      else if (inQuery !== undefined && name === part.key) continue; // already the query parameter it says
      else out.problems.push(`the path key ${JSON.stringify(raw)} sends {${name}} as query parameter ${JSON.stringify(part.key)}, but ${inPath !== undefined || inQuery !== undefined ? 'that name is declared twice' : `no parameter ${JSON.stringify(name)} is declared`}`);
      continue;
    }
    if (part.value !== undefined && /[{}]/.test(part.value)) {
      out.problems.push(`the path key ${JSON.stringify(raw)} has a query part ${JSON.stringify(shown)} that mixes a template with text; it cannot be sent as one value`);
      continue;
    }
    const param = find(part.key, 'query');
    if (param !== undefined) out.pins.push({ param, value: part.value ?? '' });
    else if (!out.constants.some((c) => c.key === part.key)) out.constants.push({ key: part.key, value: part.value ?? '' });
  }
  return out;
}

/** The schema of a query argument a path key fixes (`?funcs=GetLatestNews`): required, one value. */
export function constantSchema(value: string): JsonSchema {
  return { type: 'string', const: value, default: value, description: 'Fixed by the path in the API description: send exactly this value' };
}

/**
 * A declared parameter's schema pinned to the value its path key gives, when the schema does not already list its
 * values: `enum: [value]` (a number or boolean for such a type). A schema that lists values is kept as it is.
 */
export function pinnedSchema(schema: JsonSchema, value: string): JsonSchema {
  if (typeof schema !== 'object' || schema === null) return schema;
  if (schema.enum !== undefined || schema.const !== undefined || schema.$ref !== undefined) return schema;
  const type = schema.type;
  let typed: unknown = value;
  if ((type === 'integer' || type === 'number') && value.trim() !== '' && Number.isFinite(Number(value))) typed = Number(value);
  else if (type === 'boolean' && (value === 'true' || value === 'false')) typed = value === 'true';
  else if (type !== undefined && type !== 'string' && !(Array.isArray(type) && type.includes('string'))) return schema;
  return { ...schema, enum: [typed] };
}

/** What the importer knows of an operation's path key that the registry entry does not carry. */
interface PathFacts {
  /** The key as the spec wrote it (`/#Action=DeleteVpc`). */
  raw: string;
  /** The action the operation runs (actionOf), if any. */
  action: string | undefined;
}
const facts = new WeakMap<Operation, PathFacts>();

/** Records the spec's path key and the action the operation runs (actionOf) for an operation built from it. */
export function recordPathKey(op: Operation, raw: string, action: string | undefined): void {
  facts.set(op, { raw, action });
}

/** The path key as the spec wrote it (for pointers into the spec and stable ordering); `op.path` when not recorded. */
export function specPathOf(op: Pick<Operation, 'path'>): string {
  return facts.get(op as Operation)?.raw ?? op.path;
}

/**
 * The action an operation runs: the one its path key names (`DeleteVpc`, `Lightsail_20161128.GetInstances`), or its
 * operationId when its path ends in it (`POST /deleteStream`, operationId DeleteStream); undefined for a resource path.
 */
export function actionOf(op: Operation): string | undefined {
  return facts.get(op)?.action;
}
