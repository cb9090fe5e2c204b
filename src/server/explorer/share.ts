// What a dry run's shareable address may hold. A dry run is a GET whose query string carries the arguments, so the
// address can be bookmarked and sent to someone; it must never carry a credential. Before a dry run is answered,
// credential-shaped values (by pattern, the server's own credential values, and values of credential-named
// arguments) are replaced, and the browser is sent to the cleaned address. Nothing here touches the network.
import { secretLookingEnv } from '../../config.js';
import { redactSecretPatterns } from '../../logger.js';
import type { ExecutionSettings } from '../core/catalogs.js';

/** What replaces a credential in a shared dry-run address. */
export const REDACTED = '[REDACTED]';

/** Argument names whose values are credentials, whatever they look like (`api_key`, `password`, `client_secret`). */
const CREDENTIAL_NAME = /(^|[_-])(authorization|token|secret|password|passwd|api[_-]?key|apikey|credentials?|cookie)$/i;

/**
 * The values of this server's own credentials: every environment variable whose name looks like one, and every
 * variable the config file names as a catalog's credential (those may have any name).
 */
export function serverSecrets(settings: ExecutionSettings): string[] {
  const env = settings.env ?? {};
  const named = Object.values(settings.catalogs ?? {}).flatMap((c) => Object.values(c.credentials ?? {}));
  const values = [...secretLookingEnv(env), ...named.map((n) => (typeof n === 'string' ? env[n] : undefined))];
  return [...new Set(values.filter((v): v is string => typeof v === 'string' && v.length >= 6))].sort((a, b) => b.length - a.length);
}

/** A value the page itself put in the form (a placeholder, or the spec's own example) and no server secret. */
function isPublic(s: string, key: string | undefined, secrets: readonly string[], allowed: ReadonlySet<string>): boolean {
  return (s === `<${key}>` || allowed.has(s)) && !secrets.some((secret) => s.includes(secret));
}

function cleanString(s: string, secrets: readonly string[], allowed: ReadonlySet<string> = NONE, key?: string): string {
  if (isPublic(s, key, secrets, allowed)) return s;
  let out = s;
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
  return redactSecretPatterns(out, REDACTED);
}

const NONE: ReadonlySet<string> = new Set();

function cleanValue(value: unknown, secrets: readonly string[], allowed: ReadonlySet<string>, key?: string): unknown {
  if (typeof value === 'string') return cleanString(value, secrets, allowed, key);
  if (Array.isArray(value)) return value.map((v) => cleanValue(v, secrets, allowed, key));
  if (value === null || typeof value !== 'object') return value;
  // fromEntries defines own properties, so a `__proto__` key stays a key
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k,
      CREDENTIAL_NAME.test(k) && typeof v === 'string' && v !== '' && v !== REDACTED && !isPublic(v, k, secrets, allowed) ? REDACTED : cleanValue(v, secrets, allowed, k),
    ]),
  );
}

/**
 * The arguments text as a shared address may hold it: unchanged when it holds no credential, else with each one
 * replaced by {@link REDACTED} (JSON re-serialized compactly; text that is not JSON is cleaned as text). What the page
 * pre-fills is left alone, so its own example never trips this: a placeholder for the argument's own name
 * (`"access_token": "<access_token>"`) and the strings of the operation's published examples (`allowed`; the spec's
 * sample token, a base64 SARIF file), unless one holds a secret of this server.
 */
export function shareableArgs(text: string, secrets: readonly string[], allowed: ReadonlySet<string> = NONE): { text: string; changed: boolean } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const cleaned = cleanString(text, secrets);
    return { text: cleaned, changed: cleaned !== text };
  }
  const cleaned = cleanValue(parsed, secrets, allowed);
  if (JSON.stringify(cleaned) === JSON.stringify(parsed)) return { text, changed: false };
  return { text: JSON.stringify(cleaned), changed: true };
}
