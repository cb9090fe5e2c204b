// The search log (`serve --search-log <file>`): one JSON line per search_tools call and one per follow-up (a
// describe or execute of one of that search's results), joined by a search id; rotates at a size, keeping one
// `.1` file. Records names, scores and hashed session tags only: never arguments, credentials or response data.
import { randomHex } from '../crypto.js';
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { AppError } from '../errors.js';
import { redact, silentLogger, type Logger } from '../logger.js';
import { RotatingFile } from './rotating-file.js';

/** Default rotation size: 10 MiB (the live file and one `.1` file: at most about twice this on disk). */
export const DEFAULT_SEARCH_LOG_MAX_BYTES = 10 * 1024 * 1024;
/** A search whose best score is below this (or that found nothing) counts as "no good result". */
export const GOOD_SCORE = 0.5;

/** `{"type":"search", ...}`: one search_tools call that returned results (or none). */
export interface SearchLine {
  type: 'search';
  /** Search id (random, 12 hex): follow-up lines point at it. */
  id: string;
  /** ISO 8601. */
  time: string;
  /** sessionTag() of the MCP session (a hash, never the session id). */
  session: string;
  /** The catalog(s) searched: the domain's catalog, else every loaded catalog, comma-separated. */
  catalog: string;
  query: string;
  domain?: string;
  total: number;
  /** The results shown to the agent, best first. */
  results: Array<{ name: string; score: number }>;
}

/** `{"type":"follow_up", ...}`: the same session described or executed a result of search `search`. */
export interface FollowUpLine {
  type: 'follow_up';
  /** The id of the most recent search of this session whose results held `tool`. */
  search: string;
  time: string;
  session: string;
  action: 'describe' | 'execute' | 'dry_run';
  tool: string;
  /** 1-based position of `tool` in that search's results. */
  rank: number;
  /** execute only: whether the call succeeded (the envelope's success; never its data). */
  ok?: boolean;
}

export type SearchLogLine = SearchLine | FollowUpLine;

export interface SearchLogOptions {
  file: string;
  /** Rotate when the live file would grow past this; default 10 MiB, at least 4 KiB. */
  maxBytes?: number;
  /** Where the one write-failure warning goes. */
  logger?: Logger;
  /** Values redacted from queries (credentials an agent might paste into a query). */
  secrets?: readonly string[];
  now?: () => Date;
}

/**
 * A credential as a query may carry it: as it is, percent-encoded (`+` or `%20` for spaces) and in base64. Longest
 * first, so that an encoded form that contains the value is replaced whole.
 */
/** A credential and, for a basic `user:password`, its password alone (a query may hold just that). */
function parts(v: string): string[] {
  const colon = v.indexOf(':');
  return colon > 0 ? [v, v.slice(colon + 1)] : [v];
}

function spellings(v: string): string[] {
  let encoded: string[] = [];
  try {
    const uri = encodeURIComponent(v);
    encoded = [uri, uri.replace(/%20/g, '+'), new URLSearchParams([['', v]]).toString().slice(1)];
  } catch {
    // a lone surrogate has no percent-encoding
  }
  return [...new Set([v, ...encoded, Buffer.from(v, 'utf8').toString('base64')])].sort((a, b) => b.length - a.length);
}

interface RecentSearch {
  id: string;
  ranks: Map<string, number>;
  logged: Set<string>;
}

const RECENT_PER_SESSION = 5;
const MAX_SESSIONS_TRACKED = 2000;

/** Appends search and follow-up lines to a file. Construction opens it (CONFIG_INVALID when it cannot). */
export class SearchLog {
  readonly file: string;
  readonly maxBytes: number;
  private readonly logger: Logger;
  private readonly secrets: string[];
  private readonly now: () => Date;
  private readonly out: RotatingFile;
  /** sessionTag -> its last few searches (insertion order = age, for the bound). */
  private readonly recent = new Map<string, RecentSearch[]>();

  constructor(options: SearchLogOptions) {
    this.file = options.file;
    this.maxBytes = Math.max(4096, options.maxBytes ?? DEFAULT_SEARCH_LOG_MAX_BYTES);
    this.logger = options.logger ?? silentLogger;
    this.secrets = [...(options.secrets ?? [])].filter((s) => s.length >= 4);
    this.now = options.now ?? (() => new Date());
    try {
      this.out = new RotatingFile(this.file, {
        maxBytes: this.maxBytes,
        onFirstFailure: (err) => {
          const code = (err as { code?: unknown }).code;
          this.logger.log('warn', {
            event: 'search_log_write_failed',
            file: this.file,
            error: typeof code === 'string' ? code : err instanceof Error ? err.name : 'error',
            note: 'searches go on; the next failure after a write works again is reported again',
          });
        },
        onRecovered: (lost) => this.logger.log('warn', { event: 'search_log_write_recovered', file: this.file, lost }),
      });
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      throw new AppError(
        'CONFIG_INVALID',
        `search log: cannot open ${this.file} for appending (${typeof code === 'string' ? code : 'error'}); check that its folder exists and is writable`,
      );
    }
  }

  /**
   * Logs one search; returns its id. Never throws. `callSecrets`: credentials of this very call (the caller's
   * X-Upstream-Token), redacted from the query like the configured ones, in their encoded forms too.
   */
  recordSearch(
    session: string,
    entry: { catalog: string; query: string; domain?: string; total: number; results: Array<{ name: string; score: number }> },
    callSecrets: readonly string[] = [],
  ): string {
    const id = randomHex(6);
    const line: SearchLine = {
      type: 'search',
      id,
      time: this.now().toISOString(),
      session,
      catalog: entry.catalog,
      query: redact(entry.query, [...this.secrets, ...callSecrets.flatMap(parts).filter((v) => v.length >= 4).flatMap(spellings)]) as string,
      ...(entry.domain !== undefined ? { domain: entry.domain } : {}),
      total: entry.total,
      results: entry.results.map((r) => ({ name: r.name, score: r.score })),
    };
    this.write(line);
    let list = this.recent.get(session);
    if (list === undefined) {
      if (this.recent.size >= MAX_SESSIONS_TRACKED) this.recent.delete(this.recent.keys().next().value as string);
      list = [];
    } else this.recent.delete(session); // re-inserted below: most recently active last
    this.recent.set(session, list);
    list.push({ id, ranks: new Map(entry.results.map((r, i) => [r.name, i + 1])), logged: new Set() });
    if (list.length > RECENT_PER_SESSION) list.shift();
    return id;
  }

  /**
   * Logs that `session` described or executed `tools`: one line per tool that a recent search of this session
   * returned (the most recent such search), at most once per search, tool and action. Never throws.
   */
  recordFollowUp(session: string, action: FollowUpLine['action'], tools: readonly string[], ok?: boolean): void {
    const list = this.recent.get(session);
    if (list === undefined) return;
    for (const tool of tools) {
      const hit = [...list].reverse().find((s) => s.ranks.has(tool));
      if (hit === undefined || hit.logged.has(`${action}:${tool}`)) continue;
      hit.logged.add(`${action}:${tool}`);
      const line: FollowUpLine = {
        type: 'follow_up',
        search: hit.id,
        time: this.now().toISOString(),
        session,
        action,
        tool,
        rank: hit.ranks.get(tool) as number,
        ...(ok !== undefined ? { ok } : {}),
      };
      this.write(line);
    }
  }

  close(): void {
    this.out.close();
  }

  /** Synchronous append of one short line (a few hundred bytes): no queue to lose on exit, no reordering. */
  private write(line: SearchLogLine): void {
    this.out.append(JSON.stringify(line) + '\n');
  }
}

// ---- Reading (the explorer's search-log view) -----------------------------------------------------------

/** A search with its follow-ups joined. */
export interface JoinedSearch extends SearchLine {
  followUps: FollowUpLine[];
}

/** The last `maxBytes` of a file (whole lines only); '' when it does not exist. */
function tail(file: string, maxBytes: number): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return '';
  }
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - maxBytes);
    const buf = Buffer.alloc(size - start);
    readSync(fd, buf, 0, buf.length, start);
    const text = buf.toString('utf8');
    return start > 0 ? text.slice(text.indexOf('\n') + 1) : text;
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads `<file>.1` then `<file>` (the last `maxBytes` of each), skips lines that do not parse, and joins
 * follow-ups to their searches. Newest first.
 */
export function readSearchLog(file: string, maxBytes = 8 * 1024 * 1024): JoinedSearch[] {
  const searches = new Map<string, JoinedSearch>();
  for (const text of [tail(`${file}.1`, maxBytes), tail(file, maxBytes)]) {
    for (const raw of text.split('\n')) {
      if (raw.trim() === '') continue;
      let line: SearchLogLine;
      try {
        line = JSON.parse(raw) as SearchLogLine;
      } catch {
        continue;
      }
      if (line.type === 'search' && typeof line.id === 'string' && Array.isArray(line.results)) {
        searches.set(line.id, { ...line, followUps: [] });
      } else if (line.type === 'follow_up') {
        searches.get(line.search)?.followUps.push(line);
      }
    }
  }
  return [...searches.values()].reverse();
}

/** One query as the explorer lists it: how often, how well it was answered, whether agents used the results. */
export interface QuerySummary {
  query: string;
  domain?: string;
  searches: number;
  lastTime: string;
  /** Best score of the latest search (0 when nothing was found). */
  topScore: number;
  total: number;
  topResults: Array<{ name: string; score: number }>;
  /** Searches followed by a describe or execute of one of their results. */
  followed: number;
  /** Found nothing, or the best score is below GOOD_SCORE, or no search was ever followed up. */
  poor: boolean;
}

/** Groups searches by (query, domain): poorly answered queries first, then the most frequent. */
export function summarizeQueries(searches: readonly JoinedSearch[]): QuerySummary[] {
  const groups = new Map<string, QuerySummary>();
  for (const s of searches) {
    const key = `${s.query.trim().toLowerCase()}\u0000${s.domain ?? ''}`;
    let g = groups.get(key);
    if (g === undefined) {
      // `searches` is newest first: the first one seen is the latest.
      g = {
        query: s.query,
        ...(s.domain !== undefined ? { domain: s.domain } : {}),
        searches: 0,
        lastTime: s.time,
        topScore: s.results[0]?.score ?? 0,
        total: s.total,
        topResults: s.results.slice(0, 3),
        followed: 0,
        poor: false,
      };
      groups.set(key, g);
    }
    g.searches += 1;
    if (s.followUps.length > 0) g.followed += 1;
  }
  const out = [...groups.values()];
  for (const g of out) g.poor = g.total === 0 || g.topScore < GOOD_SCORE || g.followed === 0;
  const badness = (g: QuerySummary): number => (g.total === 0 ? 3 : g.topScore < GOOD_SCORE ? 2 : g.followed === 0 ? 1 : 0);
  return out.sort((a, b) => badness(b) - badness(a) || b.searches - a.searches || (a.lastTime < b.lastTime ? 1 : a.lastTime > b.lastTime ? -1 : 0));
}
