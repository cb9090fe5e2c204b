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
 * Words that may stand beside a credential word in the name of an API's own key (`X-Auth-Token`, `access_token`,
 * `client_secret`, `X-User-Key`): they say whose or what kind of key, not what other thing it is for.
 */
const KEY_QUALIFIERS = new Set(['x', 'api', 'access', 'auth', 'authentication', 'client', 'app', 'application', 'private', 'account', 'user', 'integration', 'bearer', 'subscription', 'service', 'server', 'developer', 'dev']);

/** The credential words of an API's own key: SECRET_WORDS less a password's (a user's password is an argument). */
const KEY_WORDS = new Set(['key', 'apikey', 'token', 'secret', 'authorization', 'credential', 'credentials']);

/**
 * Whether a parameter's name says it is the API's own credential, not a token for one other thing (`invitation_token`,
 * `reset_token`, `pageToken`, `ssh_key`, GitHub's cache `key`), which an operation that also needs the caller's
 * bearer takes beside it: an `api` key (`X-ListenAPI-Key`, `apikey`, `api_token`), or a KEY_WORDS word with
 * nothing but KEY_QUALIFIERS beside it (`Secret`, `access_token`, `X-Auth-Token`), a bare `key` aside (a cache,
 * object or sort key as often as an API key) and a password (a user's, for a login or a change).
 */
export function credentialParameterName(name: string): boolean {
  const words = nameWords(name);
  if (words.length === 1 && words[0] === 'key') return false;
  if (words.includes('apikey')) return true;
  if (words.some((w, i) => w === 'api' && ['key', 'token', 'secret'].includes(words[i + 1] ?? ''))) return true;
  // a vendor's name run into `api` (`X-API2CRM-USER-KEY`) qualifies the key as `api` does
  return words.some((w) => KEY_WORDS.has(w)) && words.every((w) => KEY_WORDS.has(w) || KEY_QUALIFIERS.has(w) || w.startsWith('api') || w.endsWith('api'));
}

/** How many leading segments of a header's name may name the vendor (`Ocp-Apim-`, Azure API Management's). */
const MAX_VENDOR_SEGMENTS = 2;

/**
 * Whether a header's name is a vendor's key in the `[X-]<Vendor>-<qualifiers>-<key word>` form of extension headers
 * (Data2CRM's `X-API2CRM-USER-KEY`, Postmark's `X-Postmark-Server-Token`, ExaVault's `ev-access-token`,
 * ClearBlade's `ClearBlade-UserToken`, Azure API Management's `Ocp-Apim-Subscription-Key`): the first one or two
 * segments (split at `-`, `_`, `.`) name whose API it is, whatever they say, and what follows is a KEY_WORDS word with
 * at least one KEY_QUALIFIERS word and nothing else before it. That qualifier tells the API's key from a header token
 * for one other thing, which has none (`X-Idempotency-Key`, `X-CSRF-Token`, `X-Request-Token`: with one segment
 * for the vendor, only the key word would be left, and with two, nothing) or another word (`x-amz-request-token`,
 * `X-Acme-Invitation-Token`). Headers only: a query, cookie or body name (`invitation_token`) is read by
 * credentialParameterName alone.
 */
export function vendorKeyHeader(name: string): boolean {
  const segments = name.split(/[-_.]+/).filter((s) => s !== '');
  if (segments[0]?.toLowerCase() === 'x') segments.shift();
  for (let vendor = 1; vendor <= MAX_VENDOR_SEGMENTS; vendor++) {
    const words = nameWords(segments.slice(vendor).join('-'));
    const last = words.at(-1);
    if (words.length >= 2 && last !== undefined && KEY_WORDS.has(last) && words.slice(0, -1).every((w) => KEY_QUALIFIERS.has(w))) return true;
  }
  return false;
}

/**
 * The operation's credentials taken as arguments: its required header, query and cookie parameters named like the
 * API's own key (credentialParameterName; for a header also vendorKeyHeader), when the operation declares no
 * security requirement (one that does authenticates by its schemes).
 */
export function credentialParameters(op: Pick<Operation, 'security'> & { bindings?: readonly ArgBinding[] }): ArgBinding[] {
  if (op.security.length > 0) return [];
  return (op.bindings ?? []).filter(
    (b) => b.required && (b.in === 'header' || b.in === 'query' || b.in === 'cookie') && (credentialParameterName(b.name) || (b.in === 'header' && vendorKeyHeader(b.name))),
  );
}
