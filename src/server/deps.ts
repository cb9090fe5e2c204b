// ServerDeps: what createServer (create-server.ts) and the transports built on it are given: the catalogs and
// settings served, limits, the state store, the signer, the logger and observers. Types only, no wiring code.
import type { Logger } from '../logger.js';
import type { StateStore } from '../state/index.js';
import type { CatalogSet, ExecutionSettings } from './core/catalogs.js';
import type { ServedCatalogs } from './core/reload.js';
import type { ToolCallObserver } from './ops/observe.js';
import type { SearchLog } from './search-log.js';
import type { Signer } from './signing.js';

export interface ServerDeps {
  /** The catalogs and execution settings served when there is no `live` (and the first version when there is). */
  catalogs: CatalogSet;
  settings: ExecutionSettings;
  /**
   * The version to answer from, when it can change under the running server (registry hot reload,
   * core/reload.ts): every call reads `current` once and answers from that version alone.
   */
  live?: { readonly current: ServedCatalogs };
  /** Prefix for the four tool names; default none. */
  toolPrefix?: string;
  /** Enforce describe-before-execute; default true. */
  requireDescribe?: boolean;
  /** Idle session TTL; default 30 min. */
  sessionTtlMs?: number;
  /** execute_tool calls per minute per principal (protects the upstream); default 120, 0 disables. */
  rateLimitPerMinute?: number;
  /**
   * list_domains, search_tools, describe_tools and tool_descriptions reads per minute per principal; default 0
   * (unlimited: they are local and read-only). The HTTP transport sets its own default (a shared server).
   */
  readRateLimitPerMinute?: number;
  /**
   * Confirmation questions (a 2025-era elicitation/create, a 2026-07-28 input_required answer) per minute per
   * principal, on every transport; default 10 (session.ts DEFAULT_CONFIRM_PER_MINUTE), 0 disables.
   */
  confirmRateLimitPerMinute?: number;
  /**
   * Where sessions, authorizations, rate buckets and stored results live. Default: a fresh in-memory store for
   * this one server (stdio, tests). HTTP passes one store for all sessions (memory or Redis).
   */
  state?: StateStore;
  /** Who this instance serves (keys are `<principal>:<session>`); default `local`. */
  principal?: string;
  /** The legacy HTTP session id (the transport's); default a random UUID. */
  sessionId?: string;
  /** The transport refreshes the session's TTL on every request itself; then tool calls do not (one round trip less). */
  touchedByTransport?: boolean;
  /** Truncated results kept as resources: TTL (default 10 min) and count (default 20). */
  resultTtlMs?: number;
  maxStoredResults?: number;
  logger?: Logger;
  /** Clock for sessions, stored results and handle expiry (tests). */
  now?: () => number;
  /** Honour the X-Upstream-Token request header as this session's upstream credential (HTTP only). */
  acceptSessionCredential?: boolean;
  /** `--search-log`: records searches and their follow-ups (names and scores only). */
  searchLog?: SearchLog;
  /** The protocol era this instance serves (the serving entry's factory says); default legacy. */
  era?: 'legacy' | 'modern';
  /**
   * The instance remembers nothing between requests (every 2026-07-28 instance, over HTTP and stdio): the
   * describe handle is the only proof, and stored results are kept per principal instead of per session.
   */
  stateless?: boolean;
  /** Signs describe handles and confirmation state; default one random key per process. */
  signer?: Signer;
  /** How long a describe handle is valid; default 60 min. */
  handleTtlMs?: number;
  /** Sees one record per tool call (metrics, the audit log: src/server/ops/). */
  observe?: ToolCallObserver;
}
