// Stage 4, the re-ranking signals: each a small named unit that reads the query plan and one operation's
// precomputed features and returns a multiplicative factor (1 = no opinion). They multiply in the order of
// SIGNALS, so scores are bit-identical run to run. Measured effect of each: docs/SEARCH.md. No I/O.
import { FLAG_ADMIN, FLAG_BULK, FLAG_DEPRECATED, FLAG_NARROW_SCOPE, FLAG_SPANS_ALL, METHOD_CODES, SHAPE_COLLECTION, SHAPE_ITEM, type Features } from './features.js';
import type { Candidates } from './lexical.js';
import type { QueryPlan } from './query.js';
import type { ScopeTable } from './scopes.js';

/** What a signal may read for one query. */
export interface SignalContext {
  plan: QueryPlan;
  features: Features;
  /** The catalog's scopes (`features.scope` codes index them). */
  scopes: ScopeTable;
  candidates: Candidates;
  /** `queryMarks[termId]` is 1 when the query (with families and self words) holds that title/name term. */
  queryMarks: Uint8Array;
  /** `objectMarks[termId]` is 1 when the request's object holds that term; `objectCount` of them. */
  objectMarks: Uint8Array;
  objectCount: number;
  /** `headMarks[termId]` is 1 when the head noun of the request's object (or its family) is that term. */
  headMarks: Uint8Array;
  headCount: number;
  /** `returnsMarks[doc]` is 1 when the request's head noun is a datum only that operation's response has; `returnsCount` of them. */
  returnsMarks: Uint8Array;
  returnsCount: number;
  /** `titleMarks[doc]` is 1 when the query says that operation's summary word for word (titles.ts); `titleCount` of them. */
  titleMarks: Uint8Array;
  titleCount: number;
  /** `oppositeMarks[termId]` is 1 when that term is an action opposite to the request's verb; `oppositeCount` of them. */
  oppositeMarks: Uint8Array;
  oppositeCount: number;
  tuning: SignalTuning;
}

export interface SignalTuning {
  /** How much the share of an operation's title words that the query explains counts (0..1). */
  precisionWeight: number;
  /** Share of the precision signal read from the name alone (rest: name + summary). */
  namePrecisionShare: number;
  /** Factor for an operation whose primary resource the request's object names (1 = off). */
  primaryBoost: number;
  /** Factor for an operation whose resource's head noun is the head noun of the request's object (1 = off). */
  headBoost: number;
  /** Power of the covered share in the coverage factor (learned; 2 before round 11). */
  coveragePower: number;
  /** A request of at least this many concepts of its own (keywords aside) counts its covered share linearly. */
  longRequestConcepts: number;
  /** Factor for an operation whose summary the query says word for word (1 = off). */
  exactTitleBoost: number;
}

/** A signal ready for one query: its factor for one document, and the same applied to every candidate. */
export interface Prepared {
  factor(i: number): number;
  /**
   * `out[i] *= factor(i)` for the first `n` documents of `list`. Each signal writes this loop itself with the factor
   * computed inline: a call to `factor` per document returns a boxed number (a heap allocation per candidate, the
   * search's garbage and its latency tail), and one shared loop over all signals' factors was ~1.5x slower.
   */
  apply(out: Float64Array, list: Uint32Array, n: number): void;
  /**
   * Set by a signal whose factor costs more than a few array reads (precision reads every name and title term): no
   * factor of this query's exceeds it. The ranker then leaves the signal out for the documents that cannot reach the
   * best k even at this bound (rank.ts). Absent: the factor is cheap and every candidate gets it.
   */
  readonly bound?: number;
}

export interface Signal {
  /** Stable name (explain output, ablations, docs/SEARCH.md). */
  readonly name: string;
  /**
   * What it reads and what it does, one line, with the factors it gives under learned weight `w` (each factor
   * raised to it, as the ranking applies them) and these knobs: shown by `api-catalog search --explain`.
   */
  reads(w: number, tuning: SignalTuning): string;
  /**
   * The signal for this query, its factors raised to the learned weight `w` (the same ranking as a weighted sum of
   * log factors, weights.ts), or undefined when it has nothing to say about it.
   */
  prepare(ctx: SignalContext, w: number): Prepared | undefined;
}

/** A factor raised to a learned weight, as text (`x1.749`). */
const x = (factor: number, w: number): string => `x${(factor ** w).toFixed(3).replace(/\.?0+$/, '')}`;
/** ` (weight 4)` when a learned weight applies. */
const weighted = (w: number): string => (w === 1 ? '' : ` (learned weight ${w})`);

/** The learned weight (weights.ts) that is the coverage factor's inner power rather than a factor's weight. */
export const COVERAGE_POWER = 'coverage-power';
/** That power when no build sets it (set by hand since round 2; learning it is not the default, docs/notes/SEARCH-ROUNDS.md). */
export const DEFAULT_COVERAGE_POWER = 2;

/** What the coverage factor keeps of an operation that matches none of the query's concepts' weight. */
export const COVERAGE_FLOOR = 0.25;

/**
 * The power of the covered share for a long request (SignalTuning.longRequestConcepts): a request in many words says
 * more than the operation it wants (who, why, which values), so the share it covers says less; linear instead of
 * squared. Chosen on the tuning sets (the user's words R@5 .823 -> .827, MRR .687 -> .692; agent calls, a few words
 * each, unchanged): docs/notes/SEARCH-ROUNDS.md, "Stop 50".
 */
export const LONG_REQUEST_COVERAGE_POWER = 1;

/** The coverage power for this request: the learned one, or linear for a long request. */
export function requestCoveragePower(plan: QueryPlan, tuning: SignalTuning): number {
  let own = 0;
  for (const c of plan.concepts) if (c.keyword !== true) own++;
  return own >= tuning.longRequestConcepts ? LONG_REQUEST_COVERAGE_POWER : tuning.coveragePower;
}

/** The coverage factor of a covered share `cov` (0..1) at power `p`: the whole request beats one word. */
export function coverageFactor(cov: number, p: number): number {
  return COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * (p === 1 ? cov : p === 2 ? cov * cov : cov ** p);
}

/** `factor ** w`, with the common weights exact and fast. */
const pow = (factor: number, w: number): number => (w === 1 ? factor : factor ** w);

/** Coverage: the share of the query's concepts an operation matches, to a learned power (weights.ts). */
const coverage: Signal = {
  name: 'coverage',
  reads: (w, t) =>
    `idf-weighted share of the query's concepts matched: x(0.25 + 0.75 cov^${t.coveragePower})${w === 1 ? '' : `^${w}`}` +
    (Number.isFinite(t.longRequestConcepts) ? `; cov^${LONG_REQUEST_COVERAGE_POWER} for a request of ${t.longRequestConcepts} or more concepts` : ''),
  prepare: ({ candidates, tuning, plan }, w) => {
    const cov = candidates.coverage;
    const p = requestCoveragePower(plan, tuning);
    // the usual power as the hot loop has always computed it ((0.75 c) c: the same double on every path)
    const of = (c: number): number => (p === DEFAULT_COVERAGE_POWER ? COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * c * c : coverageFactor(c, p));
    const factor = (i: number): number => pow(of(cov[i] as number), w);
    // the hot loop: the usual power and weight inlined
    if (p === DEFAULT_COVERAGE_POWER && w === 1) {
      return {
        factor,
        apply: (out, list, n) => {
          for (let m = 0; m < n; m++) {
            const i = list[m] as number;
            const c = cov[i] as number;
            out[i] = (out[i] as number) * (COVERAGE_FLOOR + (1 - COVERAGE_FLOOR) * c * c);
          }
        },
      };
    }
    return { factor, apply: (out, list, n) => { for (let m = 0; m < n; m++) { const i = list[m] as number; out[i] = (out[i] as number) * pow(of(cov[i] as number), w); } } };
  },
};

const titleCoverage: Signal = {
  name: 'title-coverage',
  reads: (w) => `the same share counted in name, operationId and summary only: x(1 + title cov)${w === 1 ? '' : `^${w}`}`,
  prepare: ({ candidates }, w) => {
    const tcov = candidates.titleCoverage;
    const factor = (i: number): number => pow(1 + (tcov[i] as number), w);
    if (w === 1) return { factor, apply: (out, list, n) => { for (let m = 0; m < n; m++) { const i = list[m] as number; out[i] = (out[i] as number) * (1 + (tcov[i] as number)); } } };
    return { factor, apply: (out, list, n) => { for (let m = 0; m < n; m++) { const i = list[m] as number; out[i] = (out[i] as number) * (1 + (tcov[i] as number)) ** w; } } };
  },
};

/** The share of document i's name (and name + summary) terms the query explains, as the precision factor. */
function precisionOf(f: Features, marks: Uint8Array, i: number, nameShare: number, weight: number): number {
  const n0 = f.nameStart[i] as number;
  const n1 = f.nameStart[i + 1] as number;
  let sharedName = 0;
  for (let t = n0; t < n1; t++) sharedName += marks[f.nameIds[t] as number] as number;
  const t0 = f.titleStart[i] as number;
  const t1 = f.titleStart[i + 1] as number;
  let sharedTitle = 0;
  for (let t = t0; t < t1; t++) sharedTitle += marks[f.titleIds[t] as number] as number;
  const p = nameShare * (sharedName / Math.max(1, n1 - n0)) + (1 - nameShare) * (sharedTitle / Math.max(1, t1 - t0));
  return 1 - weight + weight * p;
}

/** Precision: how much of what the operation is (its name, then its title) the query explains. */
const precision: Signal = {
  name: 'precision',
  reads: (w, t) => `share p of the name (and name + summary) terms the query explains: x(${(1 - t.precisionWeight).toFixed(2)} + ${t.precisionWeight} p)${w === 1 ? '' : `^${w}`}; the simplest fitting operation wins`,
  prepare: ({ features: f, queryMarks: marks, tuning }, w) => {
    const { namePrecisionShare: share, precisionWeight: weight } = tuning;
    const factor = (i: number): number => pow(precisionOf(f, marks, i, share, weight), w);
    // the share p is in 0..1, so the factor lies between (1 - weight)^w and 1^w (a negative base: no bound)
    const bound = 1 - weight > 0 ? Math.max(pow(1 - weight, w), pow(1, w)) : Infinity;
    return { factor, bound, apply: (out, list, n) => { for (let m = 0; m < n; m++) { const i = list[m] as number; out[i] = (out[i] as number) * pow(precisionOf(f, marks, i, share, weight), w); } } };
  },
};

/** A signal that gives document i one of a few factors: `table[code(i)]`, each factor already raised to the weight. */
function tabled(table: Float64Array, codes: Uint8Array | Uint32Array): Prepared {
  return {
    factor: (i) => table[codes[i] as number] as number,
    apply: (out, list, n) => { for (let m = 0; m < n; m++) { const i = list[m] as number; out[i] = (out[i] as number) * (table[codes[i] as number] as number); } },
  };
}

/** The request's object is what the operation acts on (its last plain path segment). Measured; off by default. */
const primaryResource: Signal = {
  name: 'primary-resource',
  reads: (w, t) => (t.primaryBoost === 1 ? 'off (primaryBoost 1): the request object names the last plain path segment' : `the request object names the last plain path segment: ${x(t.primaryBoost, w)}${weighted(w)}`),
  prepare: ({ features: f, objectMarks, objectCount, tuning }, w) => {
    if (tuning.primaryBoost === 1 || objectCount === 0) return undefined;
    const boost = pow(tuning.primaryBoost, w);
    const hits = (i: number): boolean => {
      const p1 = f.primaryStart[i + 1] as number;
      for (let t = f.primaryStart[i] as number; t < p1; t++) if (objectMarks[f.primaryIds[t] as number] === 1) return true;
      return false;
    };
    return { factor: (i) => (hits(i) ? boost : 1), apply: (out, list, n) => { for (let m = 0; m < n; m++) { const i = list[m] as number; if (hits(i)) out[i] = (out[i] as number) * boost; } } };
  },
};

/**
 * The thing acted on: the head noun of the request's object ("add nodebalancer backend *node*") is the head noun
 * of the operation's resource (`.../nodes`), not only a word somewhere in its path (`/nodebalancers`).
 */
const headNoun: Signal = {
  name: 'head-noun',
  reads: (w, t) => `the head noun of the request's object is the head noun of the operation's resource: ${x(t.headBoost, w)}${weighted(w)}`,
  prepare: ({ features: f, headMarks, headCount, tuning }, w) =>
    (tuning.headBoost === 1 || headCount === 0 ? undefined : termMarked(f.head, headMarks, pow(tuning.headBoost, w))),
};

/**
 * A signal that multiplies by `by` the documents whose term (`terms[doc]`: 1 + a term id, 0 none) the query marked
 * in `marks` (by term id): the head noun's, the action word's.
 */
function termMarked(terms: Uint32Array, marks: Uint8Array, by: number): Prepared {
  const hit = (i: number): boolean => { const t = terms[i] as number; return t !== 0 && marks[t - 1] === 1; };
  return {
    factor: (i) => (hit(i) ? by : 1),
    apply: (out, list, n) => { for (let m = 0; m < n; m++) { const i = list[m] as number; if (hit(i)) out[i] = (out[i] as number) * by; } },
  };
}

/** What the returns-head signal gives an operation whose response has the datum the request asks for. */
export const RETURNS_HEAD_FACTOR = 1.2;

/** A signal that gives the documents marked 1 in `marks` (one query's) the factor `by`, the rest 1. */
function marked(marks: Uint8Array, by: number): Prepared {
  return {
    factor: (i) => (marks[i] === 1 ? by : 1),
    apply: (out, list, n) => { for (let m = 0; m < n; m++) { const i = list[m] as number; if (marks[i] === 1) out[i] = (out[i] as number) * by; } },
  };
}

/**
 * The datum asked for: "the birthday of ...", "the homepage of ...": when no operation's resource is the request's
 * head noun but some operations return it as a field, those are where the answer is.
 */
const returnsHead: Signal = {
  name: 'returns-head',
  reads: (w) => `the request's head noun names no resource but is a field of the operation's response: ${x(RETURNS_HEAD_FACTOR, w)}${weighted(w)}`,
  prepare: ({ returnsMarks, returnsCount }, w) => (returnsCount === 0 ? undefined : marked(returnsMarks, pow(RETURNS_HEAD_FACTOR, w))),
};

/** What the method signal gives a DELETE when the request only reads (list, get, show, a question): reading never deletes. */
export const READ_DELETE_FACTOR = 0.5;

/** The HTTP method the leading verb suggests (list/get -> GET, create -> POST/PUT, delete -> DELETE). */
const method: Signal = {
  name: 'method',
  reads: (w) => `HTTP method of the leading verb: ${x(1.15, w)} when it fits, ${x(0.9, w)} when not, ${x(READ_DELETE_FACTOR, w)} a DELETE for a read${weighted(w)}`,
  prepare: ({ plan, features: f }, w) => {
    const methods = plan.methods;
    if (!methods || methods.length === 0) return undefined;
    const table = new Float64Array(METHOD_CODES.length).fill(1);
    METHOD_CODES.forEach((m, c) => (table[c] = pow(methods.includes(m) ? 1.15 : 0.9, w)));
    if (methods.length === 1 && methods[0] === 'get') table[METHOD_CODES.indexOf('delete')] = pow(READ_DELETE_FACTOR, w);
    return tabled(table, f.method);
  },
};

/** REST shape: list/create act on collections (`/issues`), get/update/delete on items (`/issues/{n}`). */
const shape: Signal = {
  name: 'rest-shape',
  reads: (w) => `collection or item path for the leading verb (a read of a plural: collection): ${x(1.1, w)} when it fits, ${x(0.9, w)} when not${weighted(w)}`,
  prepare: ({ plan, features: f }, w) => {
    if (!plan.shape) return undefined;
    const table = Float64Array.of(1, 1, 1);
    table[SHAPE_ITEM] = pow(plan.shape === 'item' ? 1.1 : 0.9, w);
    table[SHAPE_COLLECTION] = pow(plan.shape === 'collection' ? 1.1 : 0.9, w);
    return tabled(table, f.shape);
  },
};

/**
 * Scope: an operation whose scope the query names x1.2; one with a twin in a wider scope (scopes.ts: `/orgs/{org}/hooks`
 * beside `/repos/{o}/{r}/hooks`) x0.85 unless the query names its scope, so without a scope word the widest comes first.
 */
const scope: Signal = {
  name: 'scope',
  reads: (w) => `an operation's scope (read off the catalog's paths) named by the query ${x(1.2, w)}; one with a twin in a wider scope ${x(0.85, w)} unless named${weighted(w)}`,
  prepare: ({ plan, features: f, scopes }, w) => {
    const named = Uint8Array.from([0, ...scopes.names.map((sc) => (plan.scopes.has(sc) ? 1 : 0))]);
    const up = pow(1.2, w);
    const down = pow(0.85, w);
    const code = f.scope;
    const flags = f.flags;
    const factor = (i: number): number => (named[code[i] as number] === 1 ? up : (flags[i] as number) & FLAG_NARROW_SCOPE ? down : 1);
    return {
      factor,
      apply: (out, list, n) => {
        for (let m = 0; m < n; m++) {
          const i = list[m] as number;
          if (named[code[i] as number] === 1) out[i] = (out[i] as number) * up;
          else if ((flags[i] as number) & FLAG_NARROW_SCOPE) out[i] = (out[i] as number) * down;
        }
      },
    };
  },
};

/** A signal that multiplies the documents with `flag` set by `by` (already raised to the weight). */
function flagged(flags: Uint8Array, flag: number, by: number): Prepared {
  return {
    factor: (i) => ((flags[i] as number) & flag ? by : 1),
    apply: (out, list, n) => { for (let m = 0; m < n; m++) { const i = list[m] as number; if ((flags[i] as number) & flag) out[i] = (out[i] as number) * by; } },
  };
}

/** "across all namespaces", "the whole account": the operation that spans everything, like a named scope. */
const spansAll: Signal = {
  name: 'spans-all',
  reads: (w) => `all/every/whole/across in the query and all/every in the operation's title: ${x(1.2, w)}${weighted(w)}`,
  prepare: ({ plan, features: f }, w) => (plan.spanAll ? flagged(f.flags, FLAG_SPANS_ALL, pow(1.2, w)) : undefined),
};

const deprecated: Signal = {
  name: 'deprecated',
  reads: (w) => `a deprecated operation: ${x(0.6, w)}, so its replacement ranks above it${weighted(w)}`,
  prepare: ({ features: f }, w) => flagged(f.flags, FLAG_DEPRECATED, pow(0.6, w)),
};

/**
 * The agent named the operation by its summary ("create repository" for "Create a repository"): articles, word
 * order and the verb's -s aside, the query and the summary are the same words. Retrieval sums every field, so a
 * longer operation that also says them ("Create a repository using a template") could outscore the one they name.
 */
const exactTitle: Signal = {
  name: 'exact-title',
  reads: (w, t) => `the query is the operation's summary word for word (articles, order and a verb's -s aside): ${x(t.exactTitleBoost, w)}${weighted(w)}`,
  prepare: ({ titleMarks, titleCount, tuning }, w) =>
    (tuning.exactTitleBoost === 1 || titleCount === 0 ? undefined : marked(titleMarks, pow(tuning.exactTitleBoost, w))),
};

/** What an admin or bulk variant keeps when the request does not ask for it. */
export const VARIANT_FACTOR = 0.9;

/**
 * The administrator's variant of an operation everyone has ("Add a public key on behalf of a user" beside "Create a
 * public key"): lowered unless the request says admin. Chosen on the tuning sets (docs/SEARCH.md).
 */
const adminVariant: Signal = {
  name: 'admin-variant',
  reads: (w) => `an operation of the administrator's side (an admin root, "on behalf of") when the request does not say admin: ${x(VARIANT_FACTOR, w)}${weighted(w)}`,
  prepare: ({ plan, features: f }, w) => (plan.asksAdmin ? undefined : flagged(f.flags, FLAG_ADMIN, pow(VARIANT_FACTOR, w))),
};

/** The variant for many at once ("Create multiple mappers" beside "Create a mapper"): lowered unless the request asks for many. */
const bulkVariant: Signal = {
  name: 'bulk-variant',
  reads: (w) => `an operation for many at once (bulk, batch, multiple) when the request does not ask for several: ${x(VARIANT_FACTOR, w)}${weighted(w)}`,
  prepare: ({ plan, features: f }, w) => (plan.asksMany ? undefined : flagged(f.flags, FLAG_BULK, pow(VARIANT_FACTOR, w))),
};

/** What an operation keeps whose action undoes or opposes the one the request asks for. */
export const OPPOSITE_FACTOR = 0.7;

/**
 * The opposite action: "suspend an account" is not `/accounts/{id}/unsuspend` ("Unsuspend a currently suspended
 * account" says suspend too), "accept a follow request" not `.../reject`. An operation whose action word (its path's
 * trailing action, else its summary's first word) is opposite to the request's verb (the opposites unit) is lowered.
 */
const oppositeAction: Signal = {
  name: 'opposite-action',
  reads: (w) => `the operation's action undoes or opposes the request's verb (unsuspend for suspend, reject for accept): ${x(OPPOSITE_FACTOR, w)}${weighted(w)}`,
  prepare: ({ features: f, oppositeMarks, oppositeCount }, w) =>
    (oppositeCount === 0 ? undefined : termMarked(f.action, oppositeMarks, pow(OPPOSITE_FACTOR, w))),
};

/** The signals in the order they multiply. */
export const SIGNALS: readonly Signal[] = [coverage, titleCoverage, precision, primaryResource, headNoun, returnsHead, method, shape, scope, spansAll, deprecated, exactTitle, adminVariant, bulkVariant, oppositeAction];
