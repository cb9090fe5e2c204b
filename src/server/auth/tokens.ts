// Named static tokens (`serve --tokens <file>`): each line of the file is `<name> <scopes> sha256:<hex>`, the hash
// of a token that only its holder has. A token's name is its principal (`token:<name>`): sessions, handles, rate
// limits and audit lines are per name. Checked in constant time against every entry; the file is re-read when it
// changes (a refused edit keeps only the lines it left unchanged, so a deleted line stops working at once, and is
// logged; a file emptied or removed revokes every token).
// `api-catalog token new` makes entries.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, statSync, unwatchFile, watchFile, type Stats } from 'node:fs';
import { AppError } from '../../errors.js';
import type { LogEvent, Logger } from '../../logger.js';
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

/** One line of a token file read as an entry; a string says what is wrong with it. */
function parseLine(line: string): TokenEntry | string {
  const parts = line.split(/\s+/);
  if (parts.length !== 3) return `expected 3 fields, found ${parts.length}`;
  const [name, scopeText, hashText] = parts as [string, string, string];
  if (!TOKEN_NAME_RE.test(name)) return `the name ${JSON.stringify(name.slice(0, 70))} must be 1-64 characters of letters, digits, . _ @ - (starting with a letter or digit)`;
  const scopes = parseScopes(scopeText);
  if (typeof scopes === 'string') return scopes;
  const m = /^sha256:([0-9a-f]{64})$/.exec(hashText);
  if (!m) return 'the third field must be sha256: followed by 64 lower-case hex digits (the hash of the token, never the token)';
  return { name, scopes, hash: Buffer.from(m[1] as string, 'hex') };
}

/** The same entry: name, scopes (in the same order) and hash. */
function sameEntry(a: TokenEntry, b: TokenEntry): boolean {
  return a.name === b.name && a.hash.equals(b.hash) && a.scopes.join(',') === b.scopes.join(',');
}

/**
 * Parses a token file. Throws CONFIG_INVALID naming the file and the line (never the line's hash) for a line that
 * is not `<name> <scopes> sha256:<64 hex>`, a duplicate hash, an unknown scope, or a file with no entry. A name may
 * be on several lines, each a token of that one principal: that is how a token is rotated (append the new line,
 * hand out the new token, delete the old line once the client uses it).
 */
export function parseTokenFile(text: string, file: string, options: { allowEmpty?: boolean } = {}): TokenEntry[] {
  const entries: TokenEntry[] = [];
  /** hash (hex) -> the line that has it: one token under two names would be two principals (and survive revoking one). */
  const seenHash = new Map<string, number>();
  const lines = text.split(/\r?\n/);
  const bad = (n: number, why: string) =>
    new AppError('CONFIG_INVALID', `--tokens ${file} line ${n}: ${why}; each line is "<name> <scopes> sha256:<hex>" (make one with \`api-catalog token new <name>\`)`);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const n = i + 1;
    const entry = parseLine(line);
    if (typeof entry === 'string') throw bad(n, entry);
    // Refused, for the same reason names are principals: a token that matches two lines authenticates as the first
    // one, so deleting that line (revoking it) would leave the token working under the other name. Typically a line
    // copied for a new person without a new token; the hash itself is never echoed.
    const hex = entry.hash.toString('hex');
    const sameHash = seenHash.get(hex);
    if (sameHash !== undefined) {
      throw bad(n, `the hash of ${entry.name} is also on line ${sameHash} (one token for two lines); each person needs their own token`);
    }
    seenHash.set(hex, n);
    entries.push(entry);
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

/**
 * The entries of a file that failed to parse which are still there as they were: each of `previous` whose exact line
 * (name, scopes, hash) is a well-formed line of `text`. A refused re-read keeps only these: a line deleted (a token
 * revoked) or changed (fewer scopes) must not stay in force because another line has a typo.
 */
function stillListed(previous: readonly TokenEntry[], text: string): TokenEntry[] {
  const listed: TokenEntry[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const entry = parseLine(line);
    if (typeof entry !== 'string') listed.push(entry);
  }
  return previous.filter((e) => listed.some((l) => sameEntry(e, l)));
}

/** A refused re-read of a tokens file that stands (until a re-read works): for /readyz and /metrics, no names. */
export interface TokensReloadRefusal {
  /** ISO 8601: when the re-read was refused. */
  since: string;
  /** Entries still in force (their line is unchanged in the file). */
  kept: number;
  /** Entries of the previous version now refused (their line was deleted, changed, or is the one that is wrong). */
  refused: number;
}

/** The refusals standing now, one per TokenFile of this process. */
const standing = new Map<object, TokensReloadRefusal>();

export function tokensReloadRefusals(): TokensReloadRefusal[] {
  return [...standing.values()];
}

/** What the mode of a tokens file allows other users, as a log event; undefined for 0600 or stricter. */
function modeWarning(file: string, st: Stats): { level: 'warn' | 'error'; event: LogEvent } | undefined {
  const mode = st.mode & 0o777;
  if ((mode & 0o077) === 0) return undefined;
  const fix = `run chmod 600 ${file}`;
  // writable: anyone on this host can append a line with their own hash and get every scope
  if ((mode & 0o022) !== 0) {
    return { level: 'error', event: { event: 'tokens_file_mode', file, mode: `0${mode.toString(8)}`, note: `writable by other users: anyone on this host who can write it can add a token with every scope; ${fix}` } };
  }
  return { level: 'warn', event: { event: 'tokens_file_mode', file, mode: `0${mode.toString(8)}`, note: `other users can read it; ${fix}` } };
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
    this.checkMode(before ?? statSync(file));
  }

  /**
   * Only hashes are in it, but who may read it may learn the names and scopes, and who may write it may add a token:
   * 0600 is what SECURITY.md says. Checked at start and at every re-read (a file replaced by one with another mode).
   */
  private checkMode(st: Stats | undefined): void {
    const warning = st !== undefined ? modeWarning(this.file, st) : undefined;
    if (warning !== undefined) this.logger.log(warning.level, warning.event);
  }

  get size(): number {
    return this.entries.length;
  }

  /** The names of the tokens in force now, in file order, each once (the start banner shows them; never a hash). */
  get names(): string[] {
    return [...new Set(this.entries.map((e) => e.name))];
  }

  /** The entry whose hash matches; every entry is compared (constant time each, no early exit). */
  match(token: string): { name: string; scopes: string[] } | undefined {
    const h = tokenHash(token);
    let found: TokenEntry | undefined;
    // a name on two lines (a rotation) is two tokens of one principal: each has its own line's scopes
    for (const e of this.entries) if (timingSafeEqual(h, e.hash) && found === undefined) found = e;
    return found && { name: found.name, scopes: [...found.scopes] };
  }

  /**
   * Re-reads the file now: new entries on success. A malformed edit is refused (logged with the line and the reason,
   * shown on /readyz and /metrics until a re-read works) and fails closed for what changed: only the previous entries
   * whose line is still in the file unchanged stay in force (a half-saved file does not lock out everyone else), so a
   * line deleted to revoke a token is refused even while another line has a typo. A file emptied or removed is the
   * operator revoking every token: all are refused until entries are back (fail closed), logged as an error.
   */
  reload(): boolean {
    let text: string | undefined;
    try {
      this.checkMode(statSync(this.file, { throwIfNoEntry: false }));
      text = readFileSync(this.file, 'utf8');
      this.entries = parseTokenFile(text, this.file, { allowEmpty: true });
      standing.delete(this);
      if (this.entries.length === 0) {
        this.logger.log('error', { event: 'tokens_reloaded', file: this.file, entries: 0, note: 'the file has no entries: every token is refused until one is added' });
      } else this.logger.log('info', { event: 'tokens_reloaded', file: this.file, entries: this.entries.length });
      return true;
    } catch (err) {
      if ((err as { code?: unknown }).code === 'ENOENT') {
        this.entries = [];
        standing.delete(this);
        this.logger.log('error', { event: 'tokens_file_gone', file: this.file, note: 'every token is refused until the file is back' });
        return true;
      }
      // unreadable (a permission changed): nothing is known of the new version, so nothing of the old one is kept
      const kept = text === undefined ? [] : stillListed(this.entries, text);
      const refused = this.entries.length - kept.length;
      this.entries = kept;
      standing.set(this, { since: new Date().toISOString(), kept: kept.length, refused });
      const why = err instanceof AppError ? err.message : `--tokens ${this.file}: cannot read it (${typeof (err as { code?: unknown }).code === 'string' ? String((err as { code?: unknown }).code) : 'error'})`;
      this.logger.log('error', {
        event: 'tokens_reload_failed',
        message: why,
        kept: kept.length,
        refused,
        note: 'new lines are not in force until the file is fixed; of the previous entries only those whose line is unchanged stay in force',
      });
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
    standing.delete(this);
  }
}
