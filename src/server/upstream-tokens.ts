// The caller's own upstream credentials over HTTP, read on each request: `X-Upstream-Token` (unbound) and
// `X-Upstream-Token-<catalog>` (bound to the catalog of that name). A token goes only to the catalog it was meant
// for: with one catalog served, the unbound header is that catalog's (as it always was); with several, it is no
// catalog's credential, because it would otherwise go to every catalog's host (one API's secret sent to another API,
// whichever operation an agent, or text injected into its context, picks). There a caller names the catalog in the
// header, and a call that would have needed the unbound token is refused (AUTH_MISSING) with the header to send.
// Header names are case-insensitive (HTTP): the Headers object folds them.
import type { CatalogSet } from './core/catalogs.js';
import type { Envelope } from './core/envelope.js';

/** The unbound header, as the Headers object spells it. */
export const SESSION_CREDENTIAL_HEADER = 'x-upstream-token';

/** The header that binds a token to one catalog: `X-Upstream-Token-<catalog>` (the catalog's name as served). */
export function catalogTokenHeader(catalog: string): string {
  return `X-Upstream-Token-${catalog}`;
}

const BOUND_PREFIX = `${SESSION_CREDENTIAL_HEADER}-`;

/** One request's upstream tokens. */
export class UpstreamTokens {
  static readonly none = new UpstreamTokens(undefined, new Map(), 0);

  constructor(
    /** `X-Upstream-Token`, when sent and not empty. */
    readonly unbound: string | undefined,
    /** `X-Upstream-Token-<catalog>` by lower-case catalog name (the served catalogs' only). */
    private readonly bound: ReadonlyMap<string, string>,
    /** How many catalogs the server serves now (hot reload may change it between requests). */
    private readonly served: number,
  ) {}

  /** The token of catalog `name`: its own header, else the unbound one when it is the only catalog served. */
  forCatalog(name: string): string | undefined {
    return this.bound.get(name.toLowerCase()) ?? (this.served === 1 ? this.unbound : undefined);
  }

  /** An unbound X-Upstream-Token came with this request, and no catalog uses it (several are served). */
  get unboundUnused(): boolean {
    return this.unbound !== undefined && this.served > 1;
  }

  /** Every token value of this request (redaction: the search log, the logger, execute answers). */
  get values(): string[] {
    return [...new Set([...(this.unbound !== undefined ? [this.unbound] : []), ...this.bound.values()])];
  }

  /**
   * The one token for the operations `names` (describe_tools, tool_descriptions): that of their catalog, or of their
   * catalogs when each resolves to the same token; undefined when they need different ones (the caller's describe
   * then shows the env vars' status: it never states a token for a catalog that would not get it).
   */
  forOperations(set: CatalogSet, names: unknown): string | undefined {
    const tokens = new Set<string | undefined>();
    for (const name of Array.isArray(names) ? names : []) {
      if (typeof name !== 'string') continue;
      let catalog: string | undefined;
      try {
        catalog = set.byName.get(name)?.catalog.meta.name;
      } catch {
        catalog = undefined; // an operation whose file cannot be read: describe reports it, with no credential
      }
      if (catalog !== undefined) tokens.add(this.forCatalog(catalog));
    }
    return tokens.size === 1 ? [...tokens][0] : undefined;
  }
}

/**
 * The request's tokens (empty values count as not sent); `catalogs`: the names of the catalogs the server serves now.
 * A header for a catalog not served is no credential and is not kept: every kept value is registered for redaction
 * for the rest of the process, so a request must not be able to add any number of them.
 */
export function readUpstreamTokens(headers: Headers | undefined, catalogs: readonly string[]): UpstreamTokens {
  if (headers === undefined) return UpstreamTokens.none;
  const unbound = headers.get(SESSION_CREDENTIAL_HEADER) || undefined;
  const bound = new Map<string, string>();
  for (const catalog of catalogs) {
    const value = headers.get(`${BOUND_PREFIX}${catalog.toLowerCase()}`);
    if (value !== null && value !== '') bound.set(catalog.toLowerCase(), value);
  }
  if (unbound === undefined && bound.size === 0) return UpstreamTokens.none;
  return new UpstreamTokens(unbound, bound, catalogs.length);
}

/**
 * An AUTH_MISSING of catalog `catalog` for a request whose X-Upstream-Token no catalog uses: says so, and names the
 * header that would have carried it. Other envelopes are returned as they are.
 */
export function explainUnboundToken(envelope: Envelope, tokens: UpstreamTokens, catalog: string | undefined): Envelope {
  if (envelope.success || envelope.error.code !== 'AUTH_MISSING' || catalog === undefined) return envelope;
  if (!tokens.unboundUnused || tokens.forCatalog(catalog) !== undefined) return envelope;
  const header = catalogTokenHeader(catalog);
  return {
    ...envelope,
    error: {
      ...envelope.error,
      message: `${envelope.error.message}; this request's X-Upstream-Token was not used: this server serves several catalogs, so a caller's token must name the catalog it is for (send it as ${header})`,
    },
    instruction: `Tell the user to send their credential for this API in the header ${header} (X-Upstream-Token alone is not used when the server serves several APIs), or to have the operator set the environment variable(s) named in the message; then call again.`,
  };
}

/**
 * An execute_tool answer with every token of the request masked, not only the one its call used (which the execution
 * layer masks): an upstream may echo what an argument carried. Loads the Redactor with the executor's modules.
 */
export async function redactTokens(envelope: Envelope, values: readonly string[]): Promise<Envelope> {
  const { Redactor } = await import('../execution/redact.js');
  return new Redactor(values).deep(envelope);
}

/**
 * A browser's CORS preflight asks which headers it may send: the X-Upstream-Token-<catalog> headers it names are
 * allowed as well (`, X-Upstream-Token-a, ...`), whatever the catalog (a name the server does not serve is ignored).
 */
export function boundTokenHeaders(requested: string | undefined): string {
  const names = (requested ?? '').split(',').map((h) => h.trim().toLowerCase());
  const bound = names.filter((h) => h.startsWith(BOUND_PREFIX) && /^[a-z0-9_-]{1,64}$/.test(h.slice(BOUND_PREFIX.length)));
  return bound.map((h) => `, ${h}`).join('');
}
