// What a query's analysis units share (units.ts, plan-units.ts): the one reading they read and write, what else
// each may consult, the contract every unit keeps, and how a unit records what it read for `explain`.
import type { Lexicon } from './lexicon.js';
import type { QueryPlan, QueryTuning } from './query.js';
import type { ScopeTable } from './scopes.js';
import type { QuestionKind } from './sentence.js';

/** What a query's units read and write, from its text to the plan the later stages read. */
export interface Reading extends QueryPlan {
  /** The query text after the literals unit. */
  text: string;
  question: QuestionKind | undefined;
  family: (word: string) => readonly string[];
  leadFamily: (word: string) => readonly string[];
  derived: ReadonlyMap<string, readonly string[]>;
  /** "all" or "every": the request asks for a list of everything. */
  listAll: boolean;
  mined: (word: string) => readonly string[];
  minedWeight: number;
  /** Words typed capitalized after the first word (Tom, Lisa): names, never typos. */
  names: ReadonlySet<string>;
  /** Whether to record each unit's reading (`notes`). */
  explain: boolean;
}

/** What every unit may read besides the reading. */
export interface AnalysisContext {
  lex: Lexicon;
  /** Number of documents (for idf). */
  n: number;
  tuning: QueryTuning;
  keywords: readonly string[];
  /** The catalog's scopes (scopes.ts). */
  scopes: ScopeTable;
  /** The scope a word names (display name), else undefined. */
  scopeOf: (word: string) => string | undefined;
  /** Whether a unit is on (not in `tuning.disabledUnits`). */
  on: (unit: string) => boolean;
}

export interface AnalysisUnit {
  /** Stable name (explain output, ablations, disabledUnits, the `owner` of its word lists). */
  readonly name: string;
  /** What it reads and what it does, one line. */
  readonly reads: string;
  /** Core stages (splitting, building concepts) every reading needs; they cannot be left out. */
  readonly core?: true;
  apply(r: Reading, cx: AnalysisContext): void;
}

/** Records what a unit read, for `explain` only (the text is built only then: searches allocate nothing for it). */
export const note = (r: Reading, unit: string, reading: () => string): void => {
  if (r.explain) r.notes.push({ unit, reading: reading() });
};

/** A word's empty family (and empty mined reading): one function for every search. */
export const NO_FAMILY = (): readonly string[] => [];
