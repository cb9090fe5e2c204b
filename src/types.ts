// The registry contract: the only data that crosses from build time (src/importer) to run time
// (src/registry, src/search, src/execution, src/server). Everything here is plain JSON — no classes,
// no functions, no cycles — because it is written to registry/<catalog>/ and read back by the server.

import type { OpenAPIV3 } from 'openapi-types';

/**
 * HTTP methods an OpenAPI path item can hold, lower-case as in the spec — taken from openapi-types' own
 * definition rather than restated. (Specs themselves are untrusted input: the importer reads them as `unknown`
 * and checks each field, so openapi-types' document types, which describe valid documents, are not used there.)
 */
export type HttpMethod = `${OpenAPIV3.HttpMethods}`;

/**
 * A JSON Schema in the 2020-12 dialect (compiled with Ajv2020 at run time). The importer converts
 * Swagger 2.0 / OAS 3.0 schema objects into this dialect (nullable -> type arrays, boolean
 * exclusiveMinimum -> numeric, example -> examples, readOnly properties dropped from requests, ...).
 */
export type JsonSchema = { [keyword: string]: unknown } | boolean;

/** Where an argument goes on the wire. */
export type ArgLocation = 'path' | 'query' | 'header' | 'cookie' | 'body';

/**
 * How one property of an operation's flat `inputSchema` maps back onto the HTTP request.
 * `arg` is the property name the agent writes; `name` is the wire name. They differ only when two
 * locations share a name (e.g. a path `id` and a body `id`): the collision is resolved at import
 * (deterministically, e.g. `body_id`) and recorded here so the dispatcher can split arguments back.
 */
export interface ArgBinding {
  /** Property name in inputSchema.properties. */
  arg: string;
  in: ArgLocation;
  /** Wire name: the parameter name, or the body property name. Empty string when `wholeBody`. */
  name: string;
  required: boolean;
  /** OpenAPI serialization (parameters only). Defaults per OAS: path/header `simple`, query/cookie `form`. */
  style?: 'simple' | 'label' | 'matrix' | 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';
  explode?: boolean;
  allowReserved?: boolean;
  /** Parameter uses `content` instead of `schema` (e.g. a JSON-encoded query parameter). */
  contentType?: string;
  /** For `in: 'body'`: this argument is the whole (non-object) request body. */
  wholeBody?: boolean;
}

/** The request body of an operation, when it has one. */
export interface RequestBodyInfo {
  required: boolean;
  /** Media types in preference order (JSON first, then form-urlencoded, multipart, text, octet-stream). */
  mediaTypes: string[];
  /**
   * `properties`: an object body whose top-level properties are flattened into the arguments
   * (bindings with in: 'body'). `whole`: any other body, passed as one argument (usually `body`).
   */
  mode: 'properties' | 'whole';
  /** OAS 3 Encoding Objects per property (form and multipart bodies). */
  encoding?: Record<string, { contentType?: string; style?: string; explode?: boolean }>;
}

/** The success response, summarized for "what it returns". */
export interface ResponseInfo {
  /** e.g. "200", "201", "204", "2XX", "default". */
  status: string;
  description: string;
  mediaType?: string;
  /** Top-level field names of the response body (for arrays: of the items), at most ~20. */
  fields: string[];
  /** `object`, `array`, `string`, ... of the response body, when known. */
  type?: string;
}

/** A documented non-success response. */
export interface ErrorInfo {
  status: string;
  description: string;
}

/** One example call: arguments valid against the operation's inputSchema. */
export interface OperationExample {
  summary?: string;
  args: Record<string, unknown>;
  source: 'spec' | 'synthesized';
}

/** An OpenAPI Server Object, with variables kept (defaults and enums) for the dispatcher. */
export interface ServerInfo {
  url: string;
  description?: string;
  variables?: Record<string, { default: string; enum?: string[]; description?: string }>;
}

/** OpenAPI Security Requirement Object: scheme name -> scopes. An operation's list holds alternatives. */
export type SecurityRequirement = Record<string, string[]>;

/** A security scheme from components.securitySchemes / securityDefinitions, normalized to OAS 3 terms. */
export interface SecuritySchemeInfo {
  type: 'apiKey' | 'http' | 'oauth2' | 'openIdConnect' | 'mutualTLS';
  /** apiKey: where the key goes. */
  in?: 'header' | 'query' | 'cookie';
  /** apiKey: the header / query / cookie name. */
  name?: string;
  /** http: `bearer`, `basic`, ... (lower-case). */
  scheme?: string;
  bearerFormat?: string;
  description?: string;
}

/** One API operation, normalized. This is what search indexes, describe shows and execute runs. */
export interface Operation {
  /** Safe unique name `[A-Za-z0-9_.-]{1,64}`; what agents use. */
  name: string;
  /** The spec's operationId, or the one synthesized from method + path when missing. */
  operationId: string;
  /** True when the spec had no operationId. */
  operationIdSynthesized?: boolean;
  domain: string;
  /** Level-1 summary, at most ~12 words, plain text. */
  summary: string;
  /** Cleaned description (HTML/Markdown stripped), plain text; may be empty. */
  description: string;
  method: HttpMethod;
  /** Path template exactly as in the spec, e.g. `/repos/{owner}/{repo}/issues`. */
  path: string;
  tags: string[];
  /** Extra words people use for this operation (`x-api-catalog-keywords`); searchable, weighted like the summary. */
  keywords?: string[];
  deprecated: boolean;
  /** DELETE, or marked destructive by an x- extension. */
  destructive: boolean;
  /** Only reads: GET or HEAD, unless the spec or an overlay says otherwise (x-api-catalog-read-only). */
  readOnly: boolean;
  /** Effective servers (operation > path item > document). Empty: the catalog's servers apply. */
  servers: ServerInfo[];
  /** Effective security requirements (operation, else document). Empty array: none declared. */
  security: SecurityRequirement[];
  /** One flat JSON Schema object (2020-12) for all arguments; `$defs` local, no external refs. */
  inputSchema: { type: 'object'; properties: Record<string, JsonSchema>; required?: string[]; [k: string]: unknown };
  /** How each inputSchema property maps to the request. Sorted as in inputSchema.properties. */
  bindings: ArgBinding[];
  /**
   * Where an agent gets the value of a path or query parameter that names an entity (`movie_id`, `issue_number`,
   * `{id}`): the names of the operations whose responses give it, best first, at most 3 — from the spec's `links`,
   * else matched in response schemas at import (src/importer/sources.ts, entities.ts). Keyed by argument name; absent when none.
   * describe_tools shows it as `from`.
   */
  paramSources?: Record<string, string[]>;
  requestBody?: RequestBodyInfo;
  response?: ResponseInfo;
  errors: ErrorInfo[];
  examples: OperationExample[];
  /** Header name for idempotency keys when the operation documents one (e.g. `Idempotency-Key`). */
  idempotencyHeader?: string;
  /** False when the operation cannot be dispatched (e.g. undeclared path parameters); see `problems`. */
  executable: boolean;
  problems?: string[];
  /** Import-lint flags, e.g. `instruction-like` for descriptions that read like orders to an AI. */
  flags?: string[];
}

/** A group of operations. */
export interface DomainInfo {
  name: string;
  /** One line: the tag's description, else generated from what its operations do. */
  description: string;
  toolCount: number;
}

/** An importer diagnostic; `pointer` is a JSON pointer into the source spec (`#/paths/~1pets/get`). */
export interface Diagnostic {
  level: 'warning' | 'error';
  code: string;
  pointer: string;
  message: string;
}

/** registry/<catalog>/catalog.json */
export interface CatalogMeta {
  /** Registry format version; bump on incompatible changes. */
  formatVersion: 1;
  /** Catalog name, `[a-z0-9_-]+`, e.g. `github`. */
  name: string;
  /**
   * Display name: `import --title`, else the spec's `info.x-api-catalog-title` (set by the spec or an overlay),
   * else `info.title`, else the catalog name. Shown by list_domains, the start banner and the explorer.
   */
  title: string;
  version: string;
  /** One paragraph: `import --description`, else `info.x-api-catalog-description`, else `info.description`'s first. */
  description: string;
  /** The spec's own version string, e.g. `2.0`, `3.0.3`, `3.1.0`. */
  specVersion: string;
  /** Where the spec came from, as given to the importer (a relative path or a URL without credentials). */
  source: string;
  /** sha256 of the source bytes, for `import --check`. */
  sourceSha256: string;
  /**
   * OpenAPI Overlays applied to the spec before normalizing, in order (`import --overlay`); absent when none.
   * `path` is relative to this catalog folder (posix); `import --check` re-applies them from there.
   */
  overlays?: OverlayRef[];
  servers: ServerInfo[];
  securitySchemes: Record<string, SecuritySchemeInfo>;
  /**
   * The distinct `security` lists of the operations, first seen in name order: which credentials the catalog
   * uses, known to list_domains without reading the operations. Absent in registries written before it.
   */
  securityRequirements?: SecurityRequirement[][];
  domains: DomainInfo[];
  operationCount: number;
  /** Operations the spec or an overlay marked `x-api-catalog-hidden: true`, dropped at import; absent when none. */
  hiddenOperations?: number;
  /**
   * Operations renamed by `x-api-catalog-name`: the name each would have had -> its name, sorted. A call by the
   * former name is answered UNKNOWN_TOOL with the new name as "did you mean". Absent when none.
   */
  renamed?: Record<string, string>;
  /**
   * Operations the import lint flagged (their `flags`, e.g. `instruction-like`) by name, sorted: search_tools marks
   * their results from here, without reading the operations. Absent when none.
   */
  flaggedOperations?: Record<string, string[]>;
  /**
   * The display name and description given to `import --title` / `--description` (as stored), recorded so that
   * `import --check` re-applies them; `title` and `description` above hold what is shown. Absent when not given.
   */
  importArgs?: { title?: string; description?: string };
}

/** One overlay applied at import: where it is and the sha256 of its bytes. */
export interface OverlayRef {
  path: string;
  sha256: string;
}

/** registry/<catalog>/operations/<domain>.json holds `Operation[]` sorted by name. */
export type DomainFile = Operation[];
