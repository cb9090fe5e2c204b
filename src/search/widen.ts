// The domain filter's reach beyond the domain itself. An agent picks a domain from list_domains by the resource it
// wants ("board", "notification", "checklist"), but APIs file nested resources under the parent: Trello's
// GET /members/{id}/notifications is in `member`, Zoom's channel invitations in `chat-channels-account-level`.
// A search with a domain also ranks, a little lower, the operations of the same catalog whose path names every
// word of that domain, one of them below the root segment (a root names a scope: GitHub's /orgs/{org}/teams
// is about teams, not orgs). Measured in docs/notes/SEARCH-ROUNDS.md ("A domain also reaches its resource's nested paths"). No I/O.
import type { DocCards } from './cards.js';
import { isVersionSegment } from './features.js';
import type { Lexicon } from './lexicon.js';
import { CALLER_SEGMENTS } from './words.js';

/** Most path words read per operation (paths are short; K1). */
const MAX_PATH_WORDS = 64;

/**
 * Per domain, the operations outside it that act on its resource: the same catalog (the `catalog.` prefix a
 * merged index gives every domain), and a path whose literal segments hold every analyzed word of the domain's
 * name, at least one of them in a segment after the first (a version segment such as `v2` or `v1beta1` does not
 * count). Computed on a domain's first search and kept (a sorted Uint32Array per domain, usually a few ids).
 */
export class DomainReach {
  private readonly byDomain = new Map<string, Uint32Array>();
  /** One search's reached documents as a mask (allocated on first use, cleared after each search). */
  private marks: Uint8Array | undefined;

  constructor(
    private readonly cards: DocCards,
    private readonly lexicon: Lexicon,
    private readonly domainOf: (i: number) => string,
  ) {}

  /** Documents outside `domain` whose path names its resource (empty when the domain name has no words). */
  outside(domain: string): Uint32Array {
    const known = this.byDomain.get(domain);
    if (known) return known;
    const dot = domain.indexOf('.');
    const prefix = dot >= 0 ? domain.slice(0, dot + 1) : '';
    const lex = this.lexicon;
    const want = [...new Set(lex.words(domain.slice(prefix.length), MAX_PATH_WORDS).flatMap((w) => lex.analyze(w)))];
    const out: number[] = [];
    // paths repeat their segments (`repos`, `{owner}`): each distinct one is analyzed once per domain
    const segmentTerms = new Map<string, string[]>();
    const termsOf = (segment: string): string[] => {
      let terms = segmentTerms.get(segment);
      if (terms === undefined) {
        terms = isVersionSegment(segment) ? [] : lex.words(segment, MAX_PATH_WORDS).flatMap((w) => lex.analyze(w));
        segmentTerms.set(segment, terms);
      }
      return terms;
    };
    if (want.length > 0) {
      for (let i = 0; i < this.cards.length; i++) {
        const d = this.domainOf(i);
        if (d === domain || (prefix !== '' && !d.startsWith(prefix))) continue;
        // words of the root segment (the scope the path hangs under: /orgs/{org}/teams is about teams) and of
        // the nested ones (/members/{id}/boards is about boards)
        const root = new Set<string>();
        const nested = new Set<string>();
        let first = true;
        for (const segment of this.cards.path(i).split('/')) {
          if (segment === '' || segment.startsWith('{')) continue;
          const terms = termsOf(segment);
          // the caller's root (`/my/conversations`, `/me/...`) is a scope like any root, though its word is no term
          if (terms.length === 0) {
            if (first && CALLER_SEGMENTS.has(segment.toLowerCase())) first = false;
            continue;
          }
          for (const t of terms) (first ? root : nested).add(t);
          first = false;
        }
        if (want.every((t) => root.has(t) || nested.has(t)) && want.some((t) => nested.has(t))) out.push(i);
      }
    }
    const ids = Uint32Array.from(out);
    this.byDomain.set(domain, ids);
    return ids;
  }

  /**
   * Marks the documents `domain` reaches in a mask for one search (undefined when it reaches none); the
   * returned `clear` unmarks them, so the next search starts from a clean mask.
   */
  mark(domain: string): { mask: Uint8Array; clear: () => void } | undefined {
    const ids = this.outside(domain);
    if (ids.length === 0) return undefined;
    const mask = (this.marks ??= new Uint8Array(this.cards.length));
    for (const i of ids) mask[i] = 1;
    return { mask, clear: () => ids.forEach((i) => (mask[i] = 0)) };
  }
}
