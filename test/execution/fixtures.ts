// Hand-written operations and catalogs for execution tests (the importer's output shape, kept small).
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { ExecuteOptions, ExecutionConfig, ExecutionOutcome } from '../../src/execution/index.js';
import { startUpstream, type Upstream } from '../helpers/upstream.js';
import type { ArgBinding, CatalogMeta, JsonSchema, Operation, SecuritySchemeInfo, SecurityRequirement } from '../../src/types.js';

export function catalog(overrides: Partial<CatalogMeta> = {}): CatalogMeta {
  return {
    formatVersion: 1,
    name: 'testapi',
    title: 'Test API',
    version: '1',
    description: '',
    specVersion: '3.1.0',
    source: 'test',
    sourceSha256: '0',
    servers: [{ url: 'https://api.example.com/v1' }],
    securitySchemes: {},
    domains: [],
    operationCount: 1,
    ...overrides,
  };
}

export function withSchemes(schemes: Record<string, SecuritySchemeInfo>, base = catalog()): CatalogMeta {
  return { ...base, securitySchemes: schemes };
}

export interface OpSpec {
  name?: string;
  method?: Operation['method'];
  path?: string;
  params?: Array<Partial<ArgBinding> & { arg: string; in: ArgBinding['in']; schema?: JsonSchema }>;
  body?: { mediaType: string; required?: boolean; mode?: 'properties' | 'whole'; properties?: Record<string, JsonSchema>; requiredProps?: string[]; schema?: JsonSchema; encoding?: Record<string, { contentType?: string; style?: string; explode?: boolean }> };
  security?: SecurityRequirement[];
  idempotencyHeader?: string;
  additionalProperties?: boolean;
  responseMediaType?: string;
}

/** Builds an Operation whose inputSchema and bindings agree. */
export function op(spec: OpSpec): Operation {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const bindings: ArgBinding[] = [];
  for (const p of spec.params ?? []) {
    properties[p.arg] = p.schema ?? { type: 'string' };
    const req = p.required ?? p.in === 'path';
    if (req) required.push(p.arg);
    const b: ArgBinding = { arg: p.arg, in: p.in, name: p.name ?? p.arg, required: req };
    if (p.style !== undefined) b.style = p.style;
    if (p.explode !== undefined) b.explode = p.explode;
    if (p.allowReserved !== undefined) b.allowReserved = p.allowReserved;
    if (p.contentType !== undefined) b.contentType = p.contentType;
    bindings.push(b);
  }
  let requestBody: Operation['requestBody'];
  if (spec.body !== undefined) {
    const mode = spec.body.mode ?? 'properties';
    requestBody = { required: spec.body.required ?? false, mediaTypes: [spec.body.mediaType], mode, ...(spec.body.encoding ? { encoding: spec.body.encoding } : {}) };
    if (mode === 'properties') {
      for (const [k, s] of Object.entries(spec.body.properties ?? {})) {
        Object.defineProperty(properties, k, { value: s, enumerable: true, writable: true, configurable: true });
        const req = spec.body.requiredProps?.includes(k) ?? false;
        if (req) required.push(k);
        bindings.push({ arg: k, in: 'body', name: k, required: req });
      }
    } else {
      properties.body = spec.body.schema ?? {};
      if (spec.body.required) required.push('body');
      bindings.push({ arg: 'body', in: 'body', name: '', required: spec.body.required ?? false, wholeBody: true });
    }
  }
  const method = spec.method ?? 'get';
  return {
    name: spec.name ?? 'test_op',
    operationId: spec.name ?? 'test_op',
    domain: 'test',
    summary: 'test operation',
    description: '',
    method,
    path: spec.path ?? '/things',
    tags: [],
    deprecated: false,
    destructive: method === 'delete',
    readOnly: method === 'get' || method === 'head',
    servers: [],
    security: spec.security ?? [],
    inputSchema: {
      type: 'object',
      properties,
      ...(required.length > 0 ? { required } : {}),
      ...(spec.additionalProperties === false ? { additionalProperties: false } : {}),
    },
    bindings,
    ...(requestBody !== undefined ? { requestBody } : {}),
    ...(spec.responseMediaType !== undefined ? { response: { status: '200', description: '', mediaType: spec.responseMediaType, fields: [] } } : {}),
    errors: [],
    examples: [],
    ...(spec.idempotencyHeader !== undefined ? { idempotencyHeader: spec.idempotencyHeader } : {}),
    executable: true,
  };
}

/** Narrows an outcome to a failure, or fails the test showing what came back. */
export function fail(out: ExecutionOutcome): Extract<ExecutionOutcome, { ok: false }> {
  if (out.ok) throw new Error(`expected a failure, got ${JSON.stringify(out).slice(0, 300)}`);
  return out;
}

/** Narrows an outcome to a success, or fails the test showing what came back. */
export function okay(out: ExecutionOutcome): Extract<ExecutionOutcome, { ok: true }> {
  if (!out.ok) throw new Error(`expected success, got ${JSON.stringify(out).slice(0, 500)}`);
  return out;
}

/** Records back-off waits without waiting. */
export function fakeSleep(): { waits: number[]; sleep: NonNullable<ExecuteOptions['sleep']> } {
  const waits: number[] = [];
  return { waits, sleep: async (ms) => void waits.push(ms) };
}

/**
 * One recording upstream for the test file (started before its tests, closed after them), cleared before each test,
 * with a fresh config pointing at it (`path`: appended to its URL; `totalMs`: the call's time limit) handed to `use`.
 */
export function useUpstream(use: (up: Upstream, cfg: ExecutionConfig) => void, options: { path?: string; totalMs?: number } = {}): void {
  let up: Upstream | undefined;
  beforeAll(async () => {
    up = await startUpstream();
  });
  afterAll(async () => {
    await up?.close();
  });
  beforeEach(() => {
    if (!up) throw new Error('useUpstream: the upstream did not start');
    up.clear();
    const cfg: ExecutionConfig = { catalog: catalog(), baseUrl: `${up.url}${options.path ?? ''}`, env: {} };
    if (options.totalMs !== undefined) cfg.timeouts = { totalMs: options.totalMs };
    use(up, cfg);
  });
}
