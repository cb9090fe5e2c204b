// The search index behind `search_tools`: MiniSearch (BM25+) over weighted operation fields, queried one
// concept (query word + its vocabulary family) at a time — the lead step of a multi-step request weighs most —
// then re-ranked with coverage, HTTP-method, path-shape, scope and deprecation signals. Deterministic, offline,
// bounded cost for any input. Prints nothing.
import MiniSearch from 'minisearch';
import { distance } from 'fastest-levenshtein';
import { AppError } from '../errors.js';
import { suggestNames } from '../registry/catalog.js';
import type { DomainInfo, HttpMethod, Operation } from '../types.js';
import { STOP_WORDS, splitWords, stem, stripNoise, stripPlural, type StemMode } from './text.js';
import {
  ABBREVIATIONS, FAMILIES, NARROW_SCOPES, PHRASES, SCOPE_WORDS, VERB_FAMILY_COUNT, VERB_METHODS, VERB_SHAPES, type Scope,
} from './vocabulary.js';

export interface SearchOptions {
  /** Only operations of this domain. Unknown domain: AppError UNKNOWN_DOMAIN. */
  domain?: string;
  /** Page size; default 10, at most {@link MAX_LIMIT}. */
  limit?: number;
  /** Results to skip; default 0. */
  offset?: number;
}
export interface SearchHit {
  name: string;
  domain: string;
  summary: string;
  requiredParams: string[];
  /** Relevance, 0..1 (1 = exact name match or the best possible match). */
  score: number;
}
export interface SearchResult {
  results: SearchHit[];
  /** Number of matching operations (before paging). */
  total: number;
}

/** Longest query (characters) that is read; the rest is ignored (RELIABILITY K1). */
export const MAX_QUERY_CHARS = 512;
/** Most query words that are read. */
export const MAX_QUERY_TERMS = 32;
/** Largest page. */
export const MAX_LIMIT = 50;
const DEFAULT_LIMIT = 10;

/** Ranking knobs. Defaults are the measured best (docs/SEARCH.md); exposed for the benchmark only. */
export interface SearchTuning {
  stem: StemMode;
  boosts: Record<IndexField, number>;
  /** Weight of a family member relative to the query word itself. */
  familyWeight: number;
  /** Read query words the index does not know as the closest word it knows (typos). */
  fuzzyUnknown: boolean;
  /** Words of the description that are indexed (long descriptions are mostly noise). */
  descriptionWords: number;
  /** Use the re-ranking signals (off = plain BM25 sum over concepts). */
  rerank: boolean;
  /** How much the share of an operation's title words that the query explains counts (0..1). */
  precisionWeight: number;
  /** Share of the precision signal read from the name alone (rest: name + summary). */
  namePrecisionShare: number;
  /**
   * Factor for an operation whose primary resource (last plain path segment) the request's object names.
   * Measured and off (1): it helped GitLab/Kubernetes/holdout but cost Square and Slack (docs/SEARCH.md).
   */
  primaryBoost: number;
}

type IndexField = 'name' | 'summary' | 'path' | 'domain' | 'tags' | 'params' | 'description' | 'domainText';
const FIELDS: IndexField[] = ['name', 'summary', 'path', 'domain', 'tags', 'params', 'description', 'domainText'];
const TITLE_FIELDS: ReadonlySet<string> = new Set(['name', 'summary']);

export const DEFAULT_TUNING: SearchTuning = {
  stem: 'porter',
  boosts: { name: 3, summary: 3, path: 1.5, domain: 1, tags: 1, params: 0.5, description: 0.7, domainText: 0.3 },
  familyWeight: 0.4,
  fuzzyUnknown: true,
  descriptionWords: 120,
  rerank: true,
  precisionWeight: 0.7,
  namePrecisionShare: 0.5,
  primaryBoost: 1,
};
/** Most words read from one field of one operation. */
const MAX_INDEX_WORDS = 2000;

/** Verbs after which "me" is who receives the answer ("show me", "remind me"), not a scope. */
const INDIRECT_OBJECT_VERBS: ReadonlySet<string> = new Set([
  'show', 'tell', 'give', 'send', 'let', 'help', 'remind', 'notify', 'alert', 'email', 'text', 'find', 'get', 'bring',
]);

/** Words an operation on the caller uses for the caller; explained by "my" in the request. */
const SELF_WORDS: readonly string[] = ['current', 'authenticated', 'user', 'self', 'me'];
/** Determiners and pronouns that start an object: the word before them is a verb ("and refund their charge"). */
const OBJECT_WORDS: ReadonlySet<string> = new Set([
  'the', 'a', 'an', 'it', 'its', 'them', 'their', 'this', 'that', 'these', 'those', 'my', 'our', 'your', 'his', 'her',
  'each', 'every', 'all', 'him', 'me', 'us', 'someone', 'somebody', 'everyone',
]);
/** Methods of a request that changes something, and of one that undoes something ("unfollow", "unpin"). */
const CHANGE_METHODS: readonly HttpMethod[] = ['post', 'put', 'patch'];
const UNDO_METHODS: readonly HttpMethod[] = ['delete', 'post'];
/** Verbs that read (get/show/see...): with a plural object they ask for a list. */
const READ_VERBS: ReadonlySet<string> = new Set(['get', 'show', 'see', 'view', 'read', 'fetch', 'retrieve', 'display', 'find']);
/** Query words that ask for everything at once ("across all namespaces", "the whole account"). */
const BROAD_WORDS: ReadonlySet<string> = new Set(['all', 'every', 'whole', 'entire', 'across', 'everything', 'everywhere']);
/** Words that end the object of a request and start its scope ("add a product | to the catalog"). */
const PREPOSITIONS: ReadonlySet<string> = new Set([
  'to', 'from', 'for', 'in', 'on', 'of', 'with', 'by', 'into', 'onto', 'at', 'inside', 'under', 'across', 'between', 'within',
]);
/** Weight of the words of a later step of a multi-step request (the lead step's words count 1). */
const LATER_STEP_WEIGHT = 0.3;
/** Words of the verb families (the first {@link VERB_FAMILY_COUNT} families of the vocabulary). */
const VERB_FAMILY_WORDS: ReadonlySet<string> = new Set(FAMILIES.slice(0, VERB_FAMILY_COUNT).flat());

const METHODS: ReadonlySet<string> = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** A query word with the terms that stand for it. */
interface Concept {
  /** Index terms with their weights (the word itself 1, family members less). */
  terms: Map<string, number>;
  /** Inverse document frequency of the word itself, for coverage. */
  idf: number;
  /** 1 for the request's lead step; less for words of a later step ("... and then add them to a playlist"). */
  weight: number;
}

interface TermHits {
  ids: Uint32Array;
  scores: Float64Array;
  /** 1 when the term is in the document's title (name, operationId, summary). */
  title: Uint8Array;
}
/** Cached term lookups; cleared when full (a bound, not an LRU: the common terms come right back). */
const HIT_CACHE_SIZE = 4096;
/** Most typo corrections per query (each scans one letter's dictionary). */
const MAX_CORRECTIONS = 4;

/** Scopes as small ints for the per-document feature array (0: none). */
const SCOPES: readonly Scope[] = ['repository', 'organization', 'enterprise', 'team', 'me', 'user', 'installation'];
const METHOD_CODES: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const SHAPE_ITEM = 1;
const SHAPE_COLLECTION = 2;
const FLAG_SPANS_ALL = 1;
const FLAG_DEPRECATED = 2;

/**
 * What the re-ranking reads of each operation, precomputed at build as flat typed arrays indexed by document
 * number (struct of arrays): a query that matches 70k of 100k operations reads dense arrays instead of chasing
 * one object per operation. Term lists are CSR: document i's terms are `ids[start[i]] .. ids[start[i + 1] - 1]`.
 */
interface Features {
  /** Distinct terms of name + operationId + summary, as term ids (tells a title match from a description match). */
  titleStart: Uint32Array;
  titleIds: Uint32Array;
  /** Distinct terms of the name and operationId alone: the cleanest statement of what the operation does. */
  nameStart: Uint32Array;
  nameIds: Uint32Array;
  /** Terms of the primary resource: the last plain path segment (with the resource before a one-word action). */
  primaryStart: Uint32Array;
  primaryIds: Uint32Array;
  /** Index into METHOD_CODES. */
  method: Uint8Array;
  /** 0 other, SHAPE_ITEM (path ends in a parameter), SHAPE_COLLECTION (a plain segment after one or at the root). */
  shape: Uint8Array;
  /** 1 + index into SCOPES, 0 when the operation has no scope. */
  scope: Uint8Array;
  /** FLAG_SPANS_ALL: the name or summary says all/every (`listPodForAllNamespaces`); FLAG_DEPRECATED. */
  flags: Uint8Array;
  /** Index into the index's domain names. */
  domain: Uint32Array;
}

/** The analyzer shared by index and query: words -> abbreviations -> stop words -> stem. */
function makeAnalyzer(mode: StemMode): (word: string) => string[] {
  const cache = new Map<string, string[]>();
  return (word: string): string[] => {
    const hit = cache.get(word);
    if (hit) return hit;
    const out: string[] = [];
    for (const w of ABBREVIATIONS[word] ?? [word]) {
      if (STOP_WORDS.has(w)) continue;
      out.push(stem(w, mode));
    }
    if (cache.size < 50_000) cache.set(word, out);
    return out;
  };
}

/** Scope of an operation, read from its path (first scope word) and summary. */
function scopeOf(op: Operation): Scope | undefined {
  const segments = op.path.split('/').filter((s) => s.length > 0 && !/^v\d+$/i.test(s));
  const first = segments[0]?.toLowerCase();
  if (first === 'user' && !(segments[1] ?? '').startsWith('{')) return 'me';
  // `/me/...`, `/self/...`, `/users/me/...` and "the current/authenticated user" name the caller
  if (segments.slice(0, 2).some((s) => /^(?:me|my|self|current|myself)$/i.test(s))) return 'me';
  if (/\b(?:authenticated|current|calling|logged[- ]in) user\b/i.test(op.summary)) return 'me';
  for (const seg of segments) {
    if (seg.startsWith('{')) continue;
    const scope = SCOPE_WORDS[seg.toLowerCase()];
    if (scope && scope !== 'me') return scope;
  }
  return undefined;
}

/** A plural English noun (`pictures`, `endpoints`, `replies`), not a word that merely ends in s (`status`). */
function isPlural(word: string): boolean {
  return word.length > 3 && stripPlural(word) !== word && !/(?:ss|us|is|ics|news)$/.test(word);
}

/** True when `a` becomes `b` by swapping one pair of neighbouring letters. */
export function swapsNeighbours(a: string, b: string): boolean {
  if (a.length !== b.length || a === b) return false;
  let k = 0;
  while (a[k] === b[k]) k++;
  return a[k] === b[k + 1] && a[k + 1] === b[k] && a.slice(k + 2) === b.slice(k + 2);
}

function shapeOf(path: string): 'item' | 'collection' | 'other' {
  const segs = path.split('/').filter((s) => s.length > 0);
  const last = segs[segs.length - 1] ?? '';
  if (last.startsWith('{')) return 'item';
  // a plain segment right after the root or after a parameter names a collection (`/repos/{o}/{r}/issues`);
  // two plain segments in a row are usually an action (`/invoices/{id}/pay` is `other` only when short)
  if (segs.length > 1) {
    // `/transfers/{id}/approve`, `/pods/{name}/log`: a singular last word after a parameter is an action or a
    // property of one item, not a collection (collections are plural: `/repos/{o}/{r}/issues`)
    const words = splitWords(last);
    const tail = words[words.length - 1] ?? '';
    if ((segs[segs.length - 2] ?? '').startsWith('{') && !isPlural(tail)) return 'other';
  }
  return segs.length <= 2 || (segs[segs.length - 2] ?? '').startsWith('{') ? 'collection' : 'other';
}

/**
 * The resource an operation acts on, read from its path: the last plain segment (`/customers/{id}/groups/{g}`
 * -> groups, `/projects/{id}/merge_requests` -> merge requests). A one-word action after it (`/pipelines/{id}/
 * retry`, `/customers/search`) acts on the segment before, so both are primary. A request naming the
 * primary resource asks for this operation more than one that merely sits below it (`/customers/{id}/groups`).
 */
function primaryResource(path: string): string {
  const segs = path.split('/').filter((s) => s.length > 0);
  const isParam = (s: string): boolean => s.includes('{');
  const isVersion = (s: string): boolean => /^v\d+(?:\.\d+)?(?:(?:alpha|beta)\d*)?$/i.test(s);
  let k = segs.length - 1;
  while (k >= 0 && isParam(segs[k] as string)) k--;
  if (k < 0) return '';
  const last = segs[k] as string;
  const words = splitWords(last);
  const one = words.length === 1 ? (words[0] as string) : undefined;
  const afterParam = k > 0 && isParam(segs[k - 1] as string);
  const action = one !== undefined && (VERB_FAMILY_WORDS.has(one) || VERB_METHODS[one] !== undefined || (afterParam && !isPlural(one)));
  if (!action) return last;
  let j = k - 1;
  while (j >= 0 && (isParam(segs[j] as string) || isVersion(segs[j] as string))) j--;
  return j >= 0 ? `${segs[j] as string} ${last}` : last;
}

function pathKey(method: string, path: string): string {
  return `${method.toLowerCase()} ${path.toLowerCase().replace(/\{[^}]*\}/g, '{}')}`;
}

/**
 * The best `k` (document, score) pairs offered, best first: higher score, then lower document number. A sorted
 * list with insertion: an offer below the current k-th costs one compare, so a pass over n matches is O(n + k²)
 * in the worst case and O(n) in practice. Beyond {@link TOP_K_LIST} everything is kept and sorted once.
 */
class TopK {
  private readonly ids: number[] = [];
  private readonly scores: number[] = [];
  constructor(private readonly k: number) {}

  offer(i: number, score: number): void {
    const ids = this.ids;
    const scores = this.scores;
    const bounded = this.k <= TOP_K_LIST;
    let at = ids.length;
    if (bounded && at >= this.k) {
      const ls = scores[at - 1] as number;
      if (score < ls || (score === ls && i > (ids[at - 1] as number))) return;
    }
    if (!bounded) {
      ids.push(i);
      scores.push(score);
      return;
    }
    while (at > 0) {
      const ps = scores[at - 1] as number;
      if (ps > score || (ps === score && (ids[at - 1] as number) < i)) break;
      at--;
    }
    ids.splice(at, 0, i);
    scores.splice(at, 0, score);
    if (ids.length > this.k) {
      ids.pop();
      scores.pop();
    }
  }

  sorted(): Array<{ i: number; score: number }> {
    const out = this.ids.map((i, n) => ({ i, score: this.scores[n] as number }));
    if (this.k > TOP_K_LIST) out.sort((a, b) => b.score - a.score || a.i - b.i);
    return out;
  }
}
/** Largest page end (offset + limit) kept in a bounded insertion list; deeper pages sort all matches once. */
const TOP_K_LIST = 512;

export class SearchIndex {
  /** Operations in name order: a document's number is its place in that order. */
  private readonly docs: readonly Operation[];
  private readonly features: Features;
  /** Domain name -> its number in `features.domain`. */
  private readonly domainCodes = new Map<string, number>();
  private readonly ms: MiniSearch<Record<string, unknown>>;
  private readonly analyze: (word: string) => string[];
  private readonly docFreq = new Map<string, number>();
  private readonly exact = new Map<string, number>();
  private readonly domains: readonly DomainInfo[];
  private readonly domainNames: Set<string>;
  private readonly familyOf = new Map<string, string[]>();
  /** Index terms linked by derivation (`watcher` <-> `watch`), found in the catalog's own vocabulary. */
  private readonly derived = new Map<string, string[]>();
  /** Words seen in prose (summaries, descriptions): the dictionary for splitting compounds. */
  private readonly prose = new Set<string>();
  /** Indexed words by first letter, with how many documents use them: the dictionary for typos. */
  private readonly dictionary = new Map<string, Array<{ word: string; freq: number }>>();
  private readonly tuning: SearchTuning;
  private readonly hitCache = new Map<string, TermHits>();
  /** Title and name terms of all operations, numbered; `queryMarks[id]` is 1 while a query holds that term. */
  private readonly termIds = new Map<string, number>();
  private readonly queryMarks: Uint8Array;
  /** `objectMarks[id]` is 1 while the query's object (see rank) holds that term. */
  private readonly objectMarks: Uint8Array;
  /** `isMatched[i]` is 1 while document i is in the current query's match list. */
  private readonly isMatched: Uint8Array;
  /** The current query's matched documents, and those a concept touched (each document at most once). */
  private readonly lists: { matched: Uint32Array; touched: Uint32Array };
  private readonly corrections = new Map<string, string>();
  private readonly buffers: Record<'scores' | 'coverage' | 'titleCoverage' | 'best' | 'bestTitle' | 'final', Float64Array>;

  private constructor(operations: readonly Operation[], domains: readonly DomainInfo[], tuning: SearchTuning) {
    this.tuning = tuning;
    this.domains = domains;
    this.domainNames = new Set(domains.map((d) => d.name));
    this.analyze = makeAnalyzer(tuning.stem);
    for (const family of FAMILIES) {
      for (const word of family) {
        const list = this.familyOf.get(word) ?? [];
        for (const other of family) if (other !== word && !list.includes(other)) list.push(other);
        this.familyOf.set(word, list);
      }
    }
    const sorted = [...operations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const domainText = new Map(domains.map((d) => [d.name, d.description]));
    for (const op of sorted) {
      for (const w of splitWords(`${op.summary} ${stripNoise(op.description)}`)) this.prose.add(w);
    }
    for (const d of domains) for (const w of splitWords(d.description)) this.prose.add(w);
    this.docs = sorted;
    this.features = this.precompute(sorted);
    this.queryMarks = new Uint8Array(this.termIds.size);
    this.objectMarks = new Uint8Array(this.termIds.size);
    const analyze = this.analyze;
    let seenWords: Set<string> | undefined;
    let seen = new Set<string>();
    this.ms = new MiniSearch<Record<string, unknown>>({
      idField: 'id',
      fields: FIELDS,
      storeFields: [],
      tokenize: (text) => this.words(text, MAX_INDEX_WORDS),
      processTerm: (term) => {
        const out = analyze(term);
        // while building, collect the document's words and terms for the frequencies below (one tokenization)
        if (seenWords !== undefined) {
          seenWords.add(term);
          for (const t of out) seen.add(t);
        }
        return out.length === 0 ? null : out;
      },
      searchOptions: { tokenize: (text) => [text], processTerm: (term) => term },
    });
    const wordFreq = new Map<string, number>();
    // one document at a time (no array of all index records): add it, then count its words and terms
    this.docs.forEach((op, id) => {
      const description = stripNoise(op.description).split(/\s+/).slice(0, tuning.descriptionWords).join(' ');
      seenWords = new Set<string>();
      seen = new Set<string>();
      this.ms.add({
        id,
        name: op.name === op.operationId ? op.name : `${op.name} ${op.operationId}`,
        summary: stripNoise(op.summary),
        path: op.path,
        domain: op.domain,
        tags: op.tags.join(' '),
        params: Object.keys(op.inputSchema.properties).join(' '),
        description,
        domainText: domainText.get(op.domain) ?? '',
      });
      for (const t of seen) this.docFreq.set(t, (this.docFreq.get(t) ?? 0) + 1);
      for (const w of seenWords) wordFreq.set(w, (wordFreq.get(w) ?? 0) + 1);
    });
    seenWords = undefined;
    const n = this.docs.length;
    this.buffers = {
      scores: new Float64Array(n), coverage: new Float64Array(n), titleCoverage: new Float64Array(n),
      best: new Float64Array(n), bestTitle: new Float64Array(n), final: new Float64Array(n),
    };
    this.isMatched = new Uint8Array(n);
    this.lists = { matched: new Uint32Array(n), touched: new Uint32Array(n) };
    // the vocabulary's words are known too (freq 0: a catalog word wins a tie), so `bookmakr` reads as bookmark
    for (const word of [...this.familyOf.keys(), ...Object.keys(VERB_METHODS)]) if (!wordFreq.has(word)) wordFreq.set(word, 0);
    for (const [word, freq] of [...wordFreq].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
      if (word.length < 3 || /\d/.test(word)) continue;
      const key = word[0] as string;
      const list = this.dictionary.get(key) ?? [];
      list.push({ word, freq });
      this.dictionary.set(key, list);
    }
    // agent nouns: `watchers` finds `watch`, `reviewer` finds `review`, when both are in the catalog
    for (const t of this.docFreq.keys()) {
      if (t.length < 6 || !t.endsWith('er')) continue;
      let base = t.slice(0, -2);
      if (!this.docFreq.has(base) && /([b-df-hj-np-tv-z])\1$/.test(base)) base = base.slice(0, -1);
      if (!this.docFreq.has(base)) continue;
      this.derived.set(t, [...(this.derived.get(t) ?? []), base]);
      this.derived.set(base, [...(this.derived.get(base) ?? []), t]);
    }
  }

  /**
   * Builds the index over a catalog's operations. `tuning` is for measurement only; the server uses the
   * defaults. Cost: ~linear in the text size (see docs/SEARCH.md for GitHub's numbers).
   */
  static build(
    operations: readonly Operation[],
    domains: readonly DomainInfo[],
    tuning: Partial<SearchTuning> = {},
  ): SearchIndex {
    return new SearchIndex(operations, domains, { ...DEFAULT_TUNING, ...tuning });
  }

  /** Per-document features (see {@link Features}) and the exact-name table, in one pass over the operations. */
  private precompute(ops: readonly Operation[]): Features {
    const n = ops.length;
    const titles: number[] = [];
    const names: number[] = [];
    const primaries: number[] = [];
    const f: Features = {
      titleStart: new Uint32Array(n + 1), titleIds: new Uint32Array(0), nameStart: new Uint32Array(n + 1),
      nameIds: new Uint32Array(0), primaryStart: new Uint32Array(n + 1), primaryIds: new Uint32Array(0), method: new Uint8Array(n), shape: new Uint8Array(n), scope: new Uint8Array(n),
      flags: new Uint8Array(n), domain: new Uint32Array(n),
    };
    for (let i = 0; i < n; i++) {
      const op = ops[i] as Operation;
      for (const t of new Set(this.terms(`${op.name} ${op.operationId} ${op.summary}`))) titles.push(this.termId(t));
      for (const t of new Set(this.terms(`${op.name} ${op.operationId}`))) names.push(this.termId(t));
      f.titleStart[i + 1] = titles.length;
      f.nameStart[i + 1] = names.length;
      for (const t of new Set(this.terms(primaryResource(op.path)))) primaries.push(this.termId(t));
      f.primaryStart[i + 1] = primaries.length;
      f.method[i] = Math.max(0, METHOD_CODES.indexOf(op.method));
      const shape = shapeOf(op.path);
      f.shape[i] = shape === 'item' ? SHAPE_ITEM : shape === 'collection' ? SHAPE_COLLECTION : 0;
      const scope = scopeOf(op);
      f.scope[i] = scope === undefined ? 0 : SCOPES.indexOf(scope) + 1;
      const spansAll = splitWords(`${op.name} ${op.operationId} ${op.summary}`).some((w) => w === 'all' || w === 'every');
      f.flags[i] = (spansAll ? FLAG_SPANS_ALL : 0) | (op.deprecated ? FLAG_DEPRECATED : 0);
      let d = this.domainCodes.get(op.domain);
      if (d === undefined) this.domainCodes.set(op.domain, (d = this.domainCodes.size));
      f.domain[i] = d;
      for (const key of [op.name.toLowerCase(), op.operationId.toLowerCase(), pathKey(op.method, op.path)]) {
        if (!this.exact.has(key)) this.exact.set(key, i);
      }
    }
    f.titleIds = Uint32Array.from(titles);
    f.nameIds = Uint32Array.from(names);
    f.primaryIds = Uint32Array.from(primaries);
    return f;
  }

  private termId(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      id = this.termIds.size;
      this.termIds.set(term, id);
    }
    return id;
  }

  /** Number of indexed operations. */
  get size(): number {
    return this.docs.length;
  }

  private terms(text: string): string[] {
    const out: string[] = [];
    for (const w of this.words(text, MAX_INDEX_WORDS)) out.push(...this.analyze(w));
    return out;
  }

  /**
   * Words of a text, with compounds that only identifiers use (`invoiceitems`) followed by their parts
   * when both parts are words of the catalog's prose. At most `max` words.
   */
  private words(text: string, max: number): string[] {
    const out: string[] = [];
    for (const w of splitWords(text)) {
      if (out.length >= max) break;
      out.push(w);
      if (w.length >= 7 && !this.prose.has(w) && !/\d/.test(w)) {
        for (let k = 3; k <= w.length - 3; k++) {
          const left = w.slice(0, k);
          const right = w.slice(k);
          if (this.prose.has(left) && this.prose.has(right)) {
            out.push(left, right);
            break;
          }
        }
      }
    }
    return out;
  }

  /** Raw query words, bounded (K1): at most MAX_QUERY_CHARS characters and MAX_QUERY_TERMS words. */
  private queryWords(query: string): string[] {
    const words = this.words(query.slice(0, MAX_QUERY_CHARS), MAX_QUERY_TERMS);
    const out: string[] = [];
    for (let k = 0; k < words.length; k++) {
      const phrase = k + 1 < words.length ? PHRASES[`${words[k]} ${words[k + 1]}`] : undefined;
      const word = words[k] as string;
      if (phrase) {
        out.push(...phrase);
        k++;
      } else if (k === 0 && this.isUndo(word)) {
        // a request starting with `unfollow`, `unstar`, `unpin` in a catalog that never says it: remove +
        // the action undone (only as the first word: elsewhere un-words are adjectives, `unread`)
        out.push('remove', word.slice(2));
      } else out.push(word);
    }
    return out;
  }

  /** An un-word (`unfollow`) the catalog does not use, whose rest (`follow`) it does. */
  private isUndo(word: string): boolean {
    if (word.length < 5 || !word.startsWith('un') || this.known(word)) return false;
    return this.known(word.slice(2));
  }

  private known(word: string): boolean {
    const terms = this.analyze(word);
    return terms.length > 0 && terms.every((t) => this.docFreq.has(t));
  }

  private concepts(words: readonly string[]): Concept[] {
    const n = this.docs.length;
    const byKey = new Map<string, Concept>();
    let corrected = 0;
    const later = this.laterStepStart(words);
    for (let k = 0; k < words.length; k++) {
      const raw = words[k] as string;
      const weight = k >= later ? LATER_STEP_WEIGHT : 1;
      // a word the catalog never uses is most likely a typo: read it as the closest word it does use
      const word = this.tuning.fuzzyUnknown && corrected < MAX_CORRECTIONS ? this.correct(raw) : raw;
      if (word !== raw) corrected++;
      const family = this.familyOf.get(word) ?? this.familyOf.get(stem(word, 'plural')) ?? [];
      // two words of one family ("add a new customer") are one request, not two
      const familyKey = family.length > 0 ? `family:${[word, ...family].sort()[0] ?? word}` : undefined;
      const sibling = familyKey === undefined ? undefined : byKey.get(familyKey);
      if (sibling) {
        for (const t of this.analyze(word)) sibling.terms.set(t, 1);
        continue;
      }
      for (const term of this.analyze(word)) {
        const have = byKey.get(term);
        if (have) {
          have.weight = Math.max(have.weight, weight);
          continue;
        }
        const terms = new Map<string, number>([[term, 1]]);
        for (const other of family) {
          for (const t of this.analyze(other)) if (!terms.has(t)) terms.set(t, this.tuning.familyWeight);
        }
        for (const t of this.derived.get(term) ?? []) if (!terms.has(t)) terms.set(t, 0.8);
        // a concept is as specific as its broadest reading: `show` means get/list, common words
        let df = 0;
        for (const t of terms.keys()) df = Math.max(df, this.docFreq.get(t) ?? 0);
        const concept: Concept = { terms, idf: Math.log(1 + (n + 1) / (df + 1)), weight };
        byKey.set(term, concept);
        if (familyKey !== undefined && !byKey.has(familyKey)) byKey.set(familyKey, concept);
      }
    }
    // "all" (a stop word) asks for a list
    if ((words.includes('all') || words.includes('every')) && !byKey.has('list')) {
      const terms = new Map<string, number>([['list', 0.7]]);
      byKey.set('list', { terms, idf: Math.log(1 + (n + 1) / ((this.docFreq.get('list') ?? 0) + 1)), weight: 1 });
    }
    return [...new Set(byKey.values())];
  }

  /**
   * Ranked operations for a request in the user's words. An exact operation name, operationId or
   * `METHOD /path` ranks that operation first. Empty query with `domain`: browse the domain in name order.
   * Never throws for any query text; throws AppError UNKNOWN_DOMAIN for an unknown `domain`.
   */
  search(query: string, options: SearchOptions = {}): SearchResult {
    const domain = options.domain;
    if (domain !== undefined && domain !== '' && !this.domainNames.has(domain)) {
      const close = suggestNames(domain, [...this.domainNames]);
      throw new AppError(
        'UNKNOWN_DOMAIN',
        `search: unknown domain ${JSON.stringify(domain.slice(0, 100))}` +
          (close.length > 0 ? `; did you mean ${close.map((c) => JSON.stringify(c)).join(', ')}?` : '') +
          '; call list_domains for the valid names',
        { details: { domain: domain.slice(0, 100), suggestions: close } },
      );
    }
    const limit = Math.min(Math.max(Math.floor(options.limit ?? DEFAULT_LIMIT), 1), MAX_LIMIT) || DEFAULT_LIMIT;
    const offset = Math.min(Math.max(Math.floor(options.offset ?? 0), 0), this.docs.length) || 0;
    const inDomain = (i: number): boolean => !domain || this.docs[i]?.domain === domain;

    const ranked = this.rank(query, offset + limit, domain || undefined);
    if (ranked.total === 0 && query.trim() === '') {
      const all: number[] = [];
      this.docs.forEach((_, i) => {
        if (inDomain(i)) all.push(i);
      });
      return { total: all.length, results: all.slice(offset, offset + limit).map((i) => this.hit(i, 1)) };
    }
    return {
      total: ranked.total,
      results: ranked.top.slice(offset, offset + limit).map((r) => this.hit(r.i, r.score)),
    };
  }

  private hit(i: number, score: number): SearchHit {
    const op = this.docs[i] as Operation;
    return {
      name: op.name,
      domain: op.domain,
      summary: op.summary,
      requiredParams: [...(op.inputSchema.required ?? [])],
      score: Math.round(score * 1000) / 1000,
    };
  }

  /**
   * The best `k` matching documents of `domain` (all domains when undefined), best first, scores 0..1, ties
   * broken by name (K4), and how many documents match in all. Every matching document is scored exactly, but
   * only the best `k` are kept and sorted (a bounded insertion list), and per-document state lives in reused
   * typed arrays, so a query that matches most of a 100k catalog allocates nothing proportional to it.
   */
  private rank(query: string, k: number, domain: string | undefined): { total: number; top: Array<{ i: number; score: number }> } {
    const trimmed = query.slice(0, MAX_QUERY_CHARS).trim();
    if (trimmed === '') return { total: 0, top: [] };
    const exactIndex = this.exactMatch(trimmed);
    const words = this.queryWords(trimmed);
    const concepts = this.concepts(words);
    const queryTerms = new Set<string>();
    for (const c of concepts) for (const t of c.terms.keys()) queryTerms.add(t);
    // per-document accumulators, reused across searches (zeroed again below for the matched ids)
    const { scores, coverage, titleCoverage, best, bestTitle, final } = this.buffers;
    const isMatched = this.isMatched;
    const { matched, touched } = this.lists;
    let matchedCount = 0;
    const totalIdf = concepts.reduce((sum, c) => sum + c.idf * c.weight, 0) || 1;

    for (const concept of concepts) {
      let touchedCount = 0;
      for (const [term, w] of concept.terms) {
        const hits = this.termHits(term);
        const ww = w * concept.weight;
        for (let h = 0; h < hits.ids.length; h++) {
          const i = hits.ids[h] as number;
          if (best[i] === 0) touched[touchedCount++] = i;
          if (isMatched[i] === 0) {
            isMatched[i] = 1;
            matched[matchedCount++] = i;
          }
          scores[i] = (scores[i] as number) + ww * (hits.scores[h] as number);
          // coverage counts the best reading that matched: the word itself 1, a family member less
          best[i] = Math.max(best[i] as number, w);
          if (hits.title[h]) bestTitle[i] = Math.max(bestTitle[i] as number, w);
        }
      }
      for (let m = 0; m < touchedCount; m++) {
        const i = touched[m] as number;
        coverage[i] = (coverage[i] as number) + ((best[i] as number) * concept.idf * concept.weight) / totalIdf;
        titleCoverage[i] = (titleCoverage[i] as number) + ((bestTitle[i] as number) * concept.idf * concept.weight) / totalIdf;
        best[i] = 0;
        bestTitle[i] = 0;
      }
    }

    const methods = this.verbMethods(words);
    const shape = this.verbShape(words);
    const queryScopes = new Set<Scope>();
    words.forEach((w, at) => {
      const s = SCOPE_WORDS[w];
      // "show me", "tell me", "remind me": the person asking is the receiver, not the scope
      if (s === 'me' && w === 'me' && at > 0 && INDIRECT_OBJECT_VERBS.has(words[at - 1] as string)) return;
      if (s) queryScopes.add(s);
    });
    // "my" (a stop word) explains the words an operation on the caller uses for itself ("current user")
    if (queryScopes.has('me')) for (const w of SELF_WORDS) for (const t of this.analyze(w)) queryTerms.add(t);
    const spanAll = words.some((w) => BROAD_WORDS.has(w));
    const marks = this.queryMarks;
    const markedIds: number[] = [];
    for (const t of queryTerms) {
      const id = this.termIds.get(t);
      if (id !== undefined) {
        marks[id] = 1;
        markedIds.push(id);
      }
    }
    // the request's object: words of the lead step before its first preposition ("add a product | to the
    // catalog", "get a token | for a service account"), without action words; with its families
    const objectMarks = this.objectMarks;
    const objectIds: number[] = [];
    const lead = this.tuning.primaryBoost === 1 ? 0 : this.laterStepStart(words);
    for (let k = 0; k < lead; k++) {
      const w = words[k] as string;
      if (PREPOSITIONS.has(w)) break;
      if (this.isAction(w)) continue;
      for (const v of [w, ...(this.familyOf.get(w) ?? [])]) {
        for (const t of this.analyze(v)) {
          const id = this.termIds.get(t);
          if (id !== undefined && objectMarks[id] === 0) {
            objectMarks[id] = 1;
            objectIds.push(id);
          }
        }
      }
    }
    // per-query tables for the per-document codes, so the loop below only reads typed arrays
    const methodFactor = new Float64Array(METHOD_CODES.length).fill(1);
    if (methods && methods.length > 0) METHOD_CODES.forEach((m, c) => (methodFactor[c] = methods.includes(m) ? 1.15 : 0.9));
    const shapeFactor = Float64Array.of(1, 1, 1);
    if (shape) {
      shapeFactor[SHAPE_ITEM] = shape === 'item' ? 1.1 : 0.9;
      shapeFactor[SHAPE_COLLECTION] = shape === 'collection' ? 1.1 : 0.9;
    }
    const scopeFactor = Float64Array.from([1, ...SCOPES.map((sc) => (queryScopes.has(sc) ? 1.2 : NARROW_SCOPES.has(sc) ? 0.85 : 1))]);
    const f = this.features;
    const { namePrecisionShare, precisionWeight, rerank, primaryBoost } = this.tuning;
    // pass 1: the re-ranked score of every match, the best score and the confidence (coverage of the best).
    // The factors multiply in a fixed order, so scores are bit-identical however the features are stored.
    let max = 0;
    let confidence = 0;
    for (let m = 0; m < matchedCount; m++) {
      const i = matched[m] as number;
      let s = scores[i] as number;
      if (rerank) {
        const cov = coverage[i] as number;
        const tcov = titleCoverage[i] as number;
        s *= 0.25 + 0.75 * cov * cov;
        s *= 1 + tcov;
        // precision: how much of what the operation is (its name, then its title) the query explains
        const n0 = f.nameStart[i] as number;
        const n1 = f.nameStart[i + 1] as number;
        let sharedName = 0;
        for (let t = n0; t < n1; t++) sharedName += marks[f.nameIds[t] as number] as number;
        const t0 = f.titleStart[i] as number;
        const t1 = f.titleStart[i + 1] as number;
        let sharedTitle = 0;
        for (let t = t0; t < t1; t++) sharedTitle += marks[f.titleIds[t] as number] as number;
        const precision =
          namePrecisionShare * (sharedName / Math.max(1, n1 - n0)) +
          (1 - namePrecisionShare) * (sharedTitle / Math.max(1, t1 - t0));
        s *= 1 - precisionWeight + precisionWeight * precision;
        // the request's object is what the operation acts on, not only something it sits below
        const p1 = objectIds.length === 0 ? 0 : (f.primaryStart[i + 1] as number);
        for (let t = f.primaryStart[i] as number; t < p1; t++) {
          if (objectMarks[f.primaryIds[t] as number] === 1) {
            s *= primaryBoost;
            break;
          }
        }
        if (methods && methods.length > 0) s *= methodFactor[f.method[i] as number] as number;
        const sh = f.shape[i] as number;
        if (shape && sh !== 0) s *= shapeFactor[sh] as number;
        const sc = f.scope[i] as number;
        if (sc !== 0 && scopeFactor[sc] !== 1) s *= scopeFactor[sc] as number;
        const flags = f.flags[i] as number;
        // "across all namespaces", "the whole account": the operation that spans everything, like a named scope
        if (spanAll && (flags & FLAG_SPANS_ALL) !== 0) s *= 1.2;
        if ((flags & FLAG_DEPRECATED) !== 0) s *= 0.6;
      }
      final[i] = s;
      if (s > max) {
        max = s;
        confidence = coverage[i] as number;
      } else if (s === max) confidence = Math.max(confidence, coverage[i] as number);
    }
    for (const id of markedIds) marks[id] = 0;
    for (const id of objectIds) objectMarks[id] = 0;
    // pass 2: normalize, filter by domain, count, and keep the best k (docs are numbered in name order, so the
    // document number is the name tie-break, K4); an exact name match outranks everything (1.0001, shown as 1)
    const conf = Math.min(1, confidence);
    const top = new TopK(k);
    let total = 0;
    let exactSeen = false;
    const domainCode = domain === undefined ? -1 : (this.domainCodes.get(domain) ?? -2);
    for (let m = 0; m < matchedCount; m++) {
      const i = matched[m] as number;
      const s = final[i] as number;
      scores[i] = 0;
      coverage[i] = 0;
      titleCoverage[i] = 0;
      final[i] = 0;
      isMatched[i] = 0;
      if (domainCode !== -1 && f.domain[i] !== domainCode) continue;
      total++;
      if (i === exactIndex) {
        exactSeen = true;
        top.offer(i, 1.0001);
      } else top.offer(i, max > 0 ? (s / max) * conf : 0);
    }
    if (exactIndex !== undefined && !exactSeen && (domainCode === -1 || f.domain[exactIndex] === domainCode)) {
      total++;
      top.offer(exactIndex, 1.0001);
    }
    const out = top.sorted();
    for (const r of out) r.score = Math.min(1, r.score);
    return { total, top: out };
  }

  /**
   * Documents matching one index term, with their BM25+ score over the boosted fields and whether the
   * term is in the title. Query-independent, so cached (typos are corrected before, see `correct`).
   */
  private termHits(term: string): TermHits {
    const cached = this.hitCache.get(term);
    if (cached) return cached;
    const results = this.ms.search(term, { boost: this.tuning.boosts });
    const hits: TermHits = {
      ids: new Uint32Array(results.length), scores: new Float64Array(results.length), title: new Uint8Array(results.length),
    };
    for (let k = 0; k < results.length; k++) {
      const r = results[k] as (typeof results)[number];
      const i = r.id as number;
      const f = this.features;
      hits.ids[k] = i;
      hits.scores[k] = r.score;
      let title = false;
      for (const t in r.match) {
        const id = this.termIds.get(t);
        if ((id !== undefined && f.titleIds.subarray(f.titleStart[i], f.titleStart[i + 1]).includes(id)) || (r.match[t] ?? []).some((f) => TITLE_FIELDS.has(f))) {
          title = true;
          break;
        }
      }
      hits.title[k] = title ? 1 : 0;
    }
    if (this.hitCache.size >= HIT_CACHE_SIZE) this.hitCache.clear();
    this.hitCache.set(term, hits);
    return hits;
  }

  /** The operation named exactly by the query (name, operationId or `METHOD /path`), if any. */
  private exactMatch(query: string): number | undefined {
    const q = query.toLowerCase();
    const direct = this.exact.get(q);
    if (direct !== undefined) return direct;
    const m = /^([a-z]+)\s+(\/\S*)$/.exec(q);
    if (m && METHODS.has(m[1] as string)) {
      const path = (m[2] as string).split('?')[0] as string;
      const byTemplate = this.exact.get(pathKey(m[1] as string, path));
      if (byTemplate !== undefined) return byTemplate;
      // a concrete path (`GET /repos/octo/hello/issues`): match segment by segment against templates
      const segs = path.split('/');
      for (let i = 0; i < this.docs.length; i++) {
        const op = this.docs[i] as Operation;
        if (op.method !== m[1]) continue;
        const tsegs = op.path.toLowerCase().split('/');
        if (tsegs.length === segs.length && tsegs.every((t, k) => t === segs[k] || (t.startsWith('{') && segs[k] !== ''))) {
          return i;
        }
      }
    }
    return undefined;
  }

  /**
   * Index of the first word of a later step in a multi-step request, else the word count: "find X and then
   * do Y", "find X, then Y", "find X and add it to Y" (`and` + an action word), "X so that I can Y". The lead
   * step is what must happen first, so it decides the ranking; later steps still count a little.
   */
  private laterStepStart(words: readonly string[]): number {
    for (let k = 1; k < words.length - 1; k++) {
      const w = words[k] as string;
      const next = words[k + 1] as string;
      if (w === 'then' || w === 'afterwards' || (w === 'after' && next === 'that')) return k;
      // `and` + a verb: a known action word, or any word followed by an object ("and refund their charge")
      if (w === 'and' && (next === 'then' || this.isAction(next) || OBJECT_WORDS.has(words[k + 2] ?? ''))) return k;
      if (w === 'so' && (next === 'that' || next === 'i' || next === 'we')) return k;
    }
    return words.length;
  }

  /** A word that names an action: a verb family member or a verb with an HTTP method or path shape. */
  private isAction(word: string): boolean {
    return VERB_METHODS[word] !== undefined || VERB_SHAPES[word] !== undefined || this.isVerbFamily(word);
  }

  private isVerbFamily(word: string): boolean {
    return VERB_FAMILY_WORDS.has(word);
  }

  /** Path shape suggested by the first action word of the query; "all" anywhere asks for a collection. */
  private verbShape(words: readonly string[]): 'item' | 'collection' | undefined {
    if (words.includes('all')) return 'collection';
    const at = words.slice(0, 4).findIndex((w) => VERB_SHAPES[w] !== undefined || READ_VERBS.has(w));
    const verb = at >= 0 ? (words[at] as string) : undefined;
    const shape = verb === undefined ? undefined : VERB_SHAPES[verb];
    // "get pictures", "show webhook endpoints": reading a plural object asks for the collection
    if (shape !== 'collection' && (verb === undefined || READ_VERBS.has(verb))) {
      const object = words.slice(at + 1, at + 4).filter((w) => this.analyze(w).length > 0 && !this.isAction(w));
      if (object.some(isPlural)) return 'collection';
    }
    return shape;
  }

  /** HTTP methods suggested by the first action word of the query (low-weight signal). */
  private verbMethods(words: readonly string[]): readonly HttpMethod[] | undefined {
    for (const w of words.slice(0, 4)) {
      const m = VERB_METHODS[w];
      if (m) return m;
    }
    // an imperative whose verb the vocabulary does not know ("pin an item", "label a task", "text someone"):
    // a word that starts the request and is followed by its object changes something, so it is not a GET
    const [first, second] = words;
    if (first !== undefined && second !== undefined && OBJECT_WORDS.has(second) && !this.isAction(first) &&
        this.analyze(first).length > 0 && SCOPE_WORDS[first] === undefined && !isPlural(first)) {
      return first.startsWith('un') ? UNDO_METHODS : CHANGE_METHODS;
    }
    return undefined;
  }

  /**
   * Help for "no results": domains whose name or description share words with the query, and
   * spelling corrections (the query with unknown words replaced by the closest indexed word) or, for
   * a name-like query, the closest operation names.
   */
  suggest(query: string): { domains: string[]; didYouMean: string[] } {
    const words = this.queryWords(query.trim());
    const terms = new Set(words.flatMap((w) => this.analyze(w)));
    const domains: Array<{ name: string; hits: number }> = [];
    for (const d of this.domains) {
      const dterms = new Set(this.terms(`${d.name} ${d.description}`));
      let hits = 0;
      for (const t of terms) if (dterms.has(t)) hits++;
      if (hits > 0) domains.push({ name: d.name, hits });
    }
    domains.sort((a, b) => b.hits - a.hits || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const didYouMean: string[] = [];
    const trimmed = query.trim().slice(0, 128);
    if (trimmed !== '' && !/\s/.test(trimmed)) {
      didYouMean.push(...suggestNames(trimmed, this.docs.map((op) => op.name)));
    }
    const corrected = words.map((w) => this.correct(w));
    if (corrected.some((c, k) => c !== words[k])) {
      const text = corrected.join(' ');
      if (!didYouMean.includes(text)) didYouMean.push(text);
    }
    return { domains: domains.slice(0, 5).map((d) => d.name), didYouMean: didYouMean.slice(0, 5) };
  }

  /**
   * The closest indexed word for a query word the index does not know (a typo), else the word itself.
   * Bounded: same first letter, edit distance 1 (2 for words of 7+ letters); the most used word wins.
   */
  private correct(word: string): string {
    if (word.length < 4 || STOP_WORDS.has(word) || /\d/.test(word)) return word;
    // words of the API vocabulary are known English, not typos, even when this catalog lacks them
    if (this.familyOf.has(word) || ABBREVIATIONS[word] || SCOPE_WORDS[word] || VERB_METHODS[word]) return word;
    if (this.analyze(word).every((t) => this.docFreq.has(t))) return word;
    const cached = this.corrections.get(word);
    if (cached !== undefined) return cached;
    const maxDistance = word.length >= 7 ? 2 : 1;
    let best = word;
    let bestDistance = maxDistance + 1;
    let bestFreq = 0;
    for (const { word: candidate, freq } of this.dictionary.get(word[0] as string) ?? []) {
      if (Math.abs(candidate.length - word.length) > maxDistance) continue;
      // a swap of two neighbouring letters (`craete`, `serach`) is one slip, not two edits
      const d = swapsNeighbours(word, candidate) ? 1 : distance(word, candidate);
      if (d > maxDistance) continue;
      if (d < bestDistance || (d === bestDistance && freq > bestFreq)) {
        best = candidate;
        bestDistance = d;
        bestFreq = freq;
      }
    }
    if (this.corrections.size >= HIT_CACHE_SIZE) this.corrections.clear();
    this.corrections.set(word, best);
    return best;
  }

}
