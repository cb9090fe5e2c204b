// Credentials an API takes as ordinary arguments: a required header, query or cookie parameter named like one
// (ListenNotes' `X-ListenAPI-Key`, Autotask's `Secret`) on an operation that declares no security scheme. The agent
// has to pass that secret itself; the import warns (CREDENTIAL_AS_PARAMETER, with an overlay that declares it as an
// apiKey scheme: src/importer/lint.ts), and such an operation is not offered the default bearer `<CATALOG>_TOKEN`
// (execution/auth.ts): its API asked for that key, not for the operator's token, which would only leak to it. Shared by
// the importer and execution, which may not import each other; imports only types.
import type { ArgBinding, Operation } from '../types.js';

/** Words of a name that say it holds a credential (`X-API2CRM-USER-KEY`, `api_key`, `accessToken`). */
const SECRET_WORDS = new Set(['key', 'apikey', 'token', 'secret', 'password', 'passwd', 'pwd', 'authorization', 'credential', 'credentials']);

/** A name's words: split at camelCase, `-`, `_` and the like, lower-cased. */
function nameWords(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '');
}

/**
 * Whether a name says it holds a credential: one of its words is a SECRET_WORDS word. The importer reads it so: a
 * parameter so named gets a placeholder in examples (importer/examples.ts), a server variable so named keeps its
 * default out of the import's warning (importer/servers.ts).
 */
export function credentialNamed(name: string): boolean {
  return nameWords(name).some((w) => SECRET_WORDS.has(w));
}

/**
 * Words that make a credential-looking name something else: a page or sync cursor (`pageToken`, `next_token`), an
 * idempotency, cache or sort key (`Idempotency-Key`, GitHub's cache `key`).
 */
const NOT_CREDENTIAL = new Set(['page', 'next', 'prev', 'previous', 'continuation', 'cursor', 'sync', 'resume', 'idempotency', 'cache', 'sort', 'partition']);

/**
 * Whether a parameter's name says it holds the API's credential: one of its words (split at camelCase, `-`, `_`) is
 * a SECRET_WORDS word (credentialNamed), except a bare `key` (a cache, object or sort key as often as an API
 * key: GitHub's `DELETE /repos/{owner}/{repo}/actions/caches?key=`) and names with a NOT_CREDENTIAL word.
 */
export function credentialParameterName(name: string): boolean {
  const words = nameWords(name);
  if (words.length === 1 && words[0] === 'key') return false;
  if (words.some((w) => NOT_CREDENTIAL.has(w))) return false;
  return words.some((w) => SECRET_WORDS.has(w));
}

/**
 * The operation's credentials taken as arguments: its required header, query and cookie parameters named like a
 * credential, when the operation declares no security requirement (one that does authenticates by its schemes).
 */
export function credentialParameters(op: Pick<Operation, 'security'> & { bindings?: readonly ArgBinding[] }): ArgBinding[] {
  if (op.security.length > 0) return [];
  return (op.bindings ?? []).filter((b) => b.required && (b.in === 'header' || b.in === 'query' || b.in === 'cookie') && credentialParameterName(b.name));
}
