// Where a credential comes from, for list_domains and describe_tools (docs audit #8): the environment variables, or
// this request's X-Upstream-Token (HTTP). `set` says a value is available for this request; `source: "header"`
// says the token supplies it, so that a header-supplied token never reads as its environment variable being set
// (`PETSTORE_TOKEN (not set; this request's X-Upstream-Token is used)`). Never values.
import { credentialAlternatives, credentialStatus, type CredentialStatus } from '../../execution/auth.js';
import type { ExecutionConfig } from '../../execution/types.js';
import type { Catalog } from '../../registry/catalog.js';
import type { Operation } from '../../types.js';
import { executionConfigFor, type ExecutionSettings } from './settings.js';

/** A credential's status, `source: "header"` when this request's X-Upstream-Token supplies it, and whether the env vars are set. */
export interface SourcedCredential extends CredentialStatus {
  /** `header`: this request's X-Upstream-Token supplies the value (it wins over the env vars); absent: the env vars do. */
  source?: 'header';
  /** Whether the environment variables themselves are set (for the wording; not part of the answers' JSON). */
  envSet: boolean;
}

interface Configs {
  /** The env vars alone (no session token). */
  env: ExecutionConfig;
  /** The session token alone (no env vars): which schemes it fills. Undefined without a token. */
  header?: ExecutionConfig;
}

function configs(catalog: Catalog, settings: ExecutionSettings, sessionCredential?: string): Configs {
  const env = executionConfigFor(catalog, settings);
  if (sessionCredential === undefined || sessionCredential === '') return { env };
  return { env, header: { ...executionConfigFor(catalog, settings, sessionCredential), env: {} } };
}

function merge(env: CredentialStatus, header: CredentialStatus | undefined): SourcedCredential {
  const fromHeader = header?.set === true;
  const set = fromHeader || env.set;
  return { ...env, set, envSet: env.set, ...(fromHeader ? { source: 'header' as const } : {}) };
}

/** credentialStatus with sources: each scheme once. */
export function sourcedStatus(op: Pick<Operation, 'security'>, catalog: Catalog, settings: ExecutionSettings, sessionCredential?: string, options: { format?: boolean } = {}): SourcedCredential[] {
  const c = configs(catalog, settings, sessionCredential);
  const header = c.header === undefined ? [] : credentialStatus(op, c.header);
  return credentialStatus(op, c.env, options).map((s) => merge(s, header.find((h) => h.scheme === s.scheme)));
}

/** credentialAlternatives with sources: the alternatives, each a list of schemes all required together. */
export function sourcedAlternatives(op: Pick<Operation, 'security'>, catalog: Catalog, settings: ExecutionSettings, sessionCredential?: string, options: { format?: boolean } = {}): SourcedCredential[][] {
  const c = configs(catalog, settings, sessionCredential);
  const header = c.header === undefined ? [] : credentialAlternatives(op, c.header);
  return credentialAlternatives(op, c.env, options).map((alt, i) => alt.map((s) => merge(s, header[i]?.find((h) => h.scheme === s.scheme))));
}

/** The answers' JSON form: `{ scheme, envVars, set, source?, format? }` (without the wording-only `envSet`). */
export function credentialJson(s: SourcedCredential): Omit<SourcedCredential, 'envSet'> {
  const { envSet: _envSet, ...rest } = s;
  return rest;
}

/** One credential in words: `PETSTORE_TOKEN (set)`, `(not set)`, or `(not set; this request's X-Upstream-Token is used)`. */
export function credentialWords(s: { scheme: string; envVars: string[]; set: boolean; source?: 'header'; envSet?: boolean }): string {
  const name = s.envVars.length > 0 ? s.envVars.join(' + ') : s.scheme;
  if (s.source === 'header') return `${name} (${s.envSet === true ? 'set' : 'not set'}; this request's X-Upstream-Token is used)`;
  return `${name} (${s.set ? 'set' : 'not set'})`;
}
