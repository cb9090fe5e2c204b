// Which operations a search keeps: those of one domain (the ranker adds what the domain reaches, widen.ts), those of
// a set of domains (a group: a catalog's, a prefix's), or all. Checks the names (unknown: UNKNOWN_DOMAIN with the
// closest ones) and turns them into what the ranker reads: a domain code, or a mask over domain codes. No I/O.
import { AppError } from '../errors.js';
import { suggestNames } from '../registry/suggest.js';
import type { DomainInfo } from '../types.js';

/** What a search keeps, as the ranker reads it. */
export interface Scope {
  /** The one domain asked for, or undefined. */
  domain: string | undefined;
  /** Its code: -1 all domains (or a set), -2 a domain with no operations. */
  code: number;
  /** A set of domains: 1 at the code of each domain kept. */
  inSet: Uint8Array | undefined;
}

export class DomainFilter {
  private readonly names: ReadonlySet<string>;
  private readonly codes: ReadonlyMap<string, number>;

  /** `domainList`: the domains by code (features.ts); `docDomain`: each document's domain code. */
  constructor(domains: readonly DomainInfo[], private readonly domainList: readonly string[], private readonly docDomain: Uint32Array) {
    this.names = new Set(domains.map((d) => d.name));
    this.codes = new Map(domainList.map((d, k) => [d, k]));
  }

  /** The scope of a search with these options ('' is no domain). Throws UNKNOWN_DOMAIN, or INVALID_ARGUMENTS for both at once. */
  scope(domain: string | undefined, domains: ReadonlySet<string> | readonly string[] | undefined): Scope {
    const one = domain || undefined;
    if (one !== undefined) this.check(one);
    if (domains === undefined) return { domain: one, code: one === undefined ? -1 : (this.codes.get(one) ?? -2), inSet: undefined };
    if (one !== undefined) throw new AppError('INVALID_ARGUMENTS', 'search: give either domain or domains, not both');
    const inSet = new Uint8Array(this.domainList.length);
    for (const name of domains) {
      this.check(name);
      const code = this.codes.get(name);
      // a domain without operations has no code: nothing of it to keep
      if (code !== undefined) inSet[code] = 1;
    }
    return { domain: undefined, code: -1, inSet };
  }

  /** Whether document `i` is in the scope itself (what browsing lists; not what the domain reaches). */
  keeps(scope: Scope, i: number): boolean {
    const d = this.docDomain[i] as number;
    return scope.inSet !== undefined ? scope.inSet[d] === 1 : scope.code === -1 || d === scope.code;
  }

  /** Throws UNKNOWN_DOMAIN, with the closest names, for a domain the catalog does not have. */
  private check(domain: string): void {
    if (this.names.has(domain)) return;
    const close = suggestNames(domain, [...this.names]);
    throw new AppError(
      'UNKNOWN_DOMAIN',
      `search: unknown domain ${JSON.stringify(domain.slice(0, 100))}` +
        (close.length > 0 ? `; did you mean ${close.map((c) => JSON.stringify(c)).join(', ')}?` : '') +
        '; call list_domains for the valid names',
      { details: { domain: domain.slice(0, 100), suggestions: close } },
    );
  }
}
