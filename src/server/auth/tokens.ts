// Named static tokens (`serve --tokens <file>`): each line of the file is `<name> <scopes> sha256:<hex>`, the hash
// of a token that only its holder has. A token's name is its principal (`token:<name>`): sessions, handles, rate
// limits and audit lines are per name. Checked in constant time against every entry; the file is re-read when it
// changes (a broken edit keeps the previous entries and is logged; a file emptied or removed revokes every token).
// `api-catalog token new` makes entries.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync, unwatchFile, watchFile, type Stats } from 'node:fs';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { ALL_SCOPES } from './metadata.js';

export interface TokenEntry {
  name: string;
  scopes: string[];
  /** sha256 of the token. */
  hash: Buffer;
}

/** Token names: what audit lines and metrics-free logs show; also the principal id `token:<name>`. */
export const TOKEN_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/;
/** Tokens this command makes: a recognizable prefix (secret scanners, our own redaction) and 256 random bits. */
export const TOKEN_PREFIX = 'act_';

export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** The principal id of a named token. */
export function tokenPrincipal(name: string): string {
  return `token:${name}`;
}

/** Checks a scope list (`catalog:read,catalog:execute`); returns the error text (`hint` adds to an unknown scope, "did you mean") or the scopes. */
export function parseScopes(text: string, hint: (unknown: string) => string = () => ''): string[] | string {
  const scopes = text.split(',').map((s) => s.trim()).filter(Boolean);
  if (scopes.length === 0) return `no scope given; use ${ALL_SCOPES.join(', ')}`;
  for (const s of scopes) if (!ALL_SCOPES.includes(s)) return `unknown scope ${JSON.stringify(s.slice(0, 40))}${hint(s)}; the scopes are ${ALL_SCOPES.join(', ')}`;
  return [...new Set(scopes)];
}

/**
 * Parses a token file. Throws CONFIG_INVALID naming the file and the line (never the line's hash) for a line that
 * is not `<name> <scopes> sha256:<64 hex>`, a duplicate name, a duplicate hash, an unknown scope, or a file with no
 * entry.
 */
export function parseTokenFile(text: string, file: string, options: { allowEmpty?: boolean } = {}): TokenEntry[] {
  const entries: TokenEntry[] = [];
  const seen = new Map<string, number>();
  /** hash (hex) -> the line that has it: one token under two names would be two principals (and survive revoking one). */
  const seenHash = new Map<string, number>();
  const lines = text.split(/\r?\n/);
  const bad = (n: number, why: string) =>
    new AppError('CONFIG_INVALID', `--tokens ${file} line ${n}: ${why}; each line is "<name> <scopes> sha256:<hex>" (make one with \`api-catalog token new <name>\`)`);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const n = i + 1;
    const parts = line.split(/\s+/);
    if (parts.length !== 3) throw bad(n, `expected 3 fields, found ${parts.length}`);
    const [name, scopeText, hashText] = parts as [string, string, string];
    if (!TOKEN_NAME_RE.test(name)) throw bad(n, `the name ${JSON.stringify(name.slice(0, 70))} must be 1-64 characters of letters, digits, . _ @ - (starting with a letter or digit)`);
    const first = seen.get(name);
    if (first !== undefined) throw bad(n, `the name ${name} is already used on line ${first}; names must be unique (each is a principal)`);
    const scopes = parseScopes(scopeText);
    if (typeof scopes === 'string') throw bad(n, scopes);
    const m = /^sha256:([0-9a-f]{64})$/.exec(hashText);
    if (!m) throw bad(n, 'the third field must be sha256: followed by 64 lower-case hex digits (the hash of the token, never the token)');
    // Refused like a duplicate name, for the same reason: a token that matches two lines authenticates as the first
    // one, so deleting that line (revoking it) would leave the token working under the other name. Typically a line
    // copied for a new person without a new token; the hash itself is never echoed.
    const hex = m[1] as string;
    const sameHash = seenHash.get(hex);
    if (sameHash !== undefined) {
      throw bad(n, `the hash of ${name} is also on line ${sameHash} (one token for two lines); each person needs their own token`);
    }
    seen.set(name, n);
    seenHash.set(hex, n);
    entries.push({ name, scopes, hash: Buffer.from(hex, 'hex') });
  });
  if (entries.length === 0 && options.allowEmpty !== true) {
    // `token new` prints two lines, the token and then its file line: only the last one may go into the file (the
    // token itself is shown once and stored nowhere), hence tail -1, the form `api-catalog token --help` shows.
    throw new AppError(
      'CONFIG_INVALID',
      `--tokens ${file}: no entries; add one with \`api-catalog token new <name> | tee >(tail -1 >> ${file}) | head -1\` (bash: the file gets only the line with the token's hash; the token is printed for you to give to the client)`,
    );
  }
  return entries;
}

/** Reads and parses the file; CONFIG_INVALID (naming the file and the reason) when it cannot be read. */
export function readTokenFile(file: string, options: { allowEmpty?: boolean } = {}): TokenEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw new AppError('CONFIG_INVALID', `--tokens ${file}: cannot read it (${typeof code === 'string' ? code : 'error'}); give a readable file (mode 0600, owned by the server's user)`, { cause: err });
  }
  return parseTokenFile(text, file, options);
}

/** A new token and its file line. */
export function newToken(name: string, scopes: string[]): { token: string; line: string } {
  const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
  return { token, line: `${name} ${scopes.join(',')} sha256:${tokenHash(token).toString('hex')}` };
}

/** What identifies a version of the file for the watcher; a missing file (watchFile zeroes every field) is 'gone'. */
function statKey(st: Stats | undefined): string {
  if (st === undefined || (st.ino === 0 && st.mtimeMs === 0 && st.nlink === 0)) return 'gone';
  return `${st.ino}:${st.size}:${st.mtimeMs}`;
}

/** The live token set of a file, re-read when the file changes. */
export class TokenFile {
  private entries: TokenEntry[];
  /** The stat (statKey) of the file as last acted on: loaded at start, then as the watcher last saw it. */
  private seen: string;

  /** Throws CONFIG_INVALID (naming the line) when the file is unreadable or malformed: the server must not start. */
  constructor(
    readonly file: string,
    private readonly logger: Logger,
  ) {
    // The stat before the read: a change made while reading shows as a new stat to the watcher, never as the one read.
    let before: Stats | undefined;
    try {
      before = statSync(file);
    } catch {
      // readTokenFile names the reason
    }
    this.entries = readTokenFile(file);
    this.seen = statKey(before);
    // Only hashes are in it, but who may read it is who may learn the names and scopes: 0600 is what SECURITY.md says.
    const mode = (before ?? statSync(file)).mode & 0o777;
    if ((mode & 0o077) !== 0) {
      this.logger.log('warn', { event: 'tokens_file_mode', file, mode: `0${mode.toString(8)}`, note: `other users can read it; run chmod 600 ${file}` });
    }
  }

  get size(): number {
    return this.entries.length;
  }

  /** The names of the tokens in force now, in file order (the start banner shows them; never a hash). */
  get names(): string[] {
    return this.entries.map((e) => e.name);
  }

  /** The entry whose hash matches; every entry is compared (constant time each, no early exit). */
  match(token: string): { name: string; scopes: string[] } | undefined {
    const h = tokenHash(token);
    let found: TokenEntry | undefined;
    for (const e of this.entries) if (timingSafeEqual(h, e.hash) && found === undefined) found = e;
    return found && { name: found.name, scopes: [...found.scopes] };
  }

  /**
   * Re-reads the file now: new entries on success. A malformed edit keeps the previous entries (a half-saved file must
   * not lock everyone out) and logs the reason; a file emptied or removed is the operator revoking every token: all
   * are refused until entries are back (fail closed), logged as an error.
   */
  reload(): boolean {
    try {
      this.entries = readTokenFile(this.file, { allowEmpty: true });
      if (this.entries.length === 0) {
        this.logger.log('error', { event: 'tokens_reloaded', file: this.file, entries: 0, note: 'the file has no entries: every token is refused until one is added' });
      } else this.logger.log('info', { event: 'tokens_reloaded', file: this.file, entries: this.entries.length });
      return true;
    } catch (err) {
      if ((err as { cause?: { code?: unknown } }).cause?.code === 'ENOENT') {
        this.entries = [];
        this.logger.log('error', { event: 'tokens_file_gone', file: this.file, note: 'every token is refused until the file is back' });
        return true;
      }
      this.logger.log('error', { event: 'tokens_reload_failed', message: err instanceof Error ? err.message : 'error', note: 'the previous entries stay in force' });
      return false;
    }
  }

  /**
   * Polls the file's stat (robust to editors that replace the file) and reloads on a change. The stat is compared
   * with the one this watcher last acted on, not with the `prev` that watchFile passes: after the file was gone,
   * libuv passes as `prev` the stat from before the removal, so a file put back unchanged (`mv` back, `cp -p` from
   * a backup, a Secret re-mounted) would look unchanged and every token would stay refused.
   */
  watch(intervalMs = 500): void {
    // watchFile's first stat is its baseline and is never reported: a change since the first read is caught here.
    let now: string | undefined;
    try {
      now = statKey(statSync(this.file, { throwIfNoEntry: false }));
    } catch {
      // unreadable folder: the watcher reports it
    }
    if (now !== undefined && now !== this.seen) {
      this.seen = now;
      this.reload();
    }
    watchFile(this.file, { interval: intervalMs, persistent: false }, (cur: Stats) => {
      const key = statKey(cur);
      if (key === this.seen) return;
      this.seen = key;
      this.reload();
    });
  }

  close(): void {
    unwatchFile(this.file);
  }
}
