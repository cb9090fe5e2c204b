// Structured logs: one JSON object per line, written to a stream the caller gives (stderr in the CLI, never
// stdout: on stdio stdout is the protocol). Redacts credential-looking keys, every registered secret value, and
// credential-shaped strings by pattern (src/secret-patterns.ts: token prefixes, JWTs, high-entropy strings).
import { redactSecretPatterns } from './secret-patterns.js';

export { redactSecretPatterns };

export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

export interface LogEvent {
  event: string;
  [field: string]: unknown;
}

export interface Logger {
  log(level: LogLevel, event: LogEvent): void;
  /** Values that must never appear in a log line (upstream tokens, API keys); replaced by `[REDACTED]`. */
  addSecret(value: string | undefined): void;
}

/** Keys whose values are always replaced, whatever they hold. */
const SECRET_KEY = /(authorization|token|secret|password|passwd|api[-_]?key|cookie|credential|session[-_]?id)/i;
const REDACTED = '[REDACTED]';
const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * Secret values this long or longer are replaced wherever they appear: a string of 8 characters or more that equals
 * a secret of ours is that secret. A shorter one (a Redis password like `redis` or `WRONG`) also occurs inside
 * ordinary text — `redis://`, the store kind `redis`, Redis's own `WRONGPASS` — and every such replacement would be
 * wrong and would show each reader what the secret is (`[REDACTED]PASS`). Short values are therefore replaced only
 * where a credential stands (shortSecretPattern): in a URL's userinfo, after an auth scheme, as the value of a
 * credential-named parameter; fields with credential-like names are replaced whole whatever they hold (SECRET_KEY).
 */
const SUBSTRING_SECRET_MIN_LENGTH = 8;

const shortPatterns = new Map<string, RegExp>();

/** Where a short secret `s` stands as a credential: `://user:s@`, `Bearer s`, `password=s`, `access_token=s`, `"x-api-key": "s"`. */
function shortSecretPattern(s: string): RegExp {
  let re = shortPatterns.get(s);
  if (re === undefined) {
    const e = s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    const end = '(?![A-Za-z0-9._~+/=-])';
    re = new RegExp(
      [
        `(:\\/\\/[^\\s/@:]*:)${e}(?=@)`,
        `(\\b(?:Bearer|Basic|Token)\\s+)${e}${end}`,
        // no word boundary before the name: `access_token=`, `x-api-key:` and `client_secret=` are credentials too
        `((?:password|passwd|pwd|pass|secret|token|key|auth|credentials?)["']?\\s*[=:]\\s*["']?)${e}${end}`,
      ].join('|'),
      'gi',
    );
    shortPatterns.set(s, re);
  }
  re.lastIndex = 0;
  return re;
}

/**
 * Deep copy with credential-looking keys, known secret values and credential-shaped strings (by pattern: a
 * pasted `ghp_…` that is no secret of ours, a JWT, `Bearer x`) redacted; bounded depth and size.
 */
export function redact(value: unknown, secrets: readonly string[] = [], depth = 0): unknown {
  if (typeof value === 'string') {
    let out = value;
    for (const s of secrets) {
      if (s === '' || !out.includes(s)) continue;
      if (s.length >= SUBSTRING_SECRET_MIN_LENGTH) out = out.split(s).join(REDACTED);
      else {
        out = out.replace(shortSecretPattern(s), (match: string, ...groups: unknown[]) => {
          const before = (groups.slice(0, 3).find((g) => typeof g === 'string') as string | undefined) ?? '';
          // the keywords match in any case, the secret only exactly
          return match.slice(before.length) === s ? `${before}${REDACTED}` : match;
        });
      }
    }
    out = redactSecretPatterns(out, REDACTED);
    return out.length > 2000 ? out.slice(0, 2000) + '…' : out;
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth > 6) return '[…]';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redact(v, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = SECRET_KEY.test(k) && v !== undefined && v !== null && v !== '' ? REDACTED : redact(v, secrets, depth + 1);
  }
  return out;
}

/**
 * A JSON-lines logger. `write` receives each finished line (with `\n`); defaults to nothing, so a library
 * that is not given a logger prints nothing. `minLevel` defaults to `info` (env API_CATALOG_LOG_LEVEL in the CLI).
 */
export function createLogger(options: { write?: (line: string) => void; minLevel?: LogLevel; now?: () => Date } = {}): Logger {
  const write = options.write;
  const min = LEVELS[options.minLevel ?? 'info'];
  const now = options.now ?? (() => new Date());
  const secrets: string[] = [];
  return {
    log(level, event) {
      if (!write || LEVELS[level] < min) return;
      const line = { ts: now().toISOString(), level, ...(redact(event, secrets) as LogEvent) };
      try {
        write(JSON.stringify(line) + '\n');
      } catch {
        // A broken log stream must never break a tool call.
      }
    },
    addSecret(value) {
      // any length: a short one is matched only where a credential stands (see redact)
      if (value && !secrets.includes(value)) secrets.push(value);
    },
  };
}

/** A logger that drops everything (tests, library defaults). */
export const silentLogger: Logger = createLogger();
