// The scratch marks of one query over an index: byte arrays, one slot per title/name term or per document, set for
// what the query holds before the signals read them (signals.ts, SignalContext) and cleared after, so that a signal
// tests membership in O(1) and a query allocates nothing of the index's size. One query at a time (search is
// synchronous); an index keeps one QueryMarks. No I/O.
import type { QueryPlan } from './query.js';
import type { SignalContext } from './signals.js';

/** The marks and their counts as the signals read them. */
export type MarkedQuery = Pick<
  SignalContext,
  'queryMarks' | 'objectMarks' | 'objectCount' | 'headMarks' | 'headCount' | 'returnsMarks' | 'returnsCount' | 'titleMarks' | 'titleCount' | 'oppositeMarks' | 'oppositeCount'
>;

/** Sets `marks[id]` for each term with a title/name term id; returns the ids set (to clear them after the query). */
function mark(terms: Iterable<string>, termIds: ReadonlyMap<string, number>, marks: Uint8Array): number[] {
  const ids: number[] = [];
  for (const term of terms) {
    const id = termIds.get(term);
    if (id !== undefined && marks[id] === 0) {
      marks[id] = 1;
      ids.push(id);
    }
  }
  return ids;
}

export class QueryMarks {
  /** `query[id]` is 1 while a query holds title/name term `id`; `object`, `head` likewise for its object and the
   * object's head noun. */
  private readonly query: Uint8Array;
  private readonly object: Uint8Array;
  private readonly head: Uint8Array;
  /** `opposite[id]` is 1 while title/name term `id` is an action opposite to the query's verb. */
  private readonly opposite: Uint8Array;
  /** `returns[doc]` is 1 while a query's head noun is only among that operation's response fields. */
  private readonly returns: Uint8Array;
  /** `title[doc]` is 1 while the query says that operation's summary word for word. */
  private readonly title: Uint8Array;
  /** Each array with the ids set in it since the last {@link clear}. */
  private readonly set: Array<{ marks: Uint8Array; ids: readonly number[] }> = [];

  /** Marks for an index of `termCount` title/name terms and `docCount` documents. */
  constructor(termCount: number, docCount: number) {
    this.query = new Uint8Array(termCount);
    this.object = new Uint8Array(termCount);
    this.head = new Uint8Array(termCount);
    this.opposite = new Uint8Array(termCount);
    this.returns = new Uint8Array(docCount);
    this.title = new Uint8Array(docCount);
  }

  /**
   * Marks one query: its terms, its object's, its head noun's and the actions opposite to its verb by term id, then
   * the documents `returns` and `titles` mark in the arrays they are given (each returns the ids it set). Call
   * {@link clear} when the query is done.
   */
  mark(
    plan: Pick<QueryPlan, 'queryTerms' | 'objectTerms' | 'headTerms' | 'opposites'>,
    termIds: ReadonlyMap<string, number>,
    returns: (marks: Uint8Array) => readonly number[],
    titles: (marks: Uint8Array) => readonly number[],
  ): MarkedQuery {
    const count = (marks: Uint8Array, ids: readonly number[]): number => {
      this.set.push({ marks, ids });
      return ids.length;
    };
    count(this.query, mark(plan.queryTerms, termIds, this.query));
    const objectCount = count(this.object, mark(plan.objectTerms, termIds, this.object));
    const headCount = count(this.head, mark(plan.headTerms, termIds, this.head));
    const oppositeCount = count(this.opposite, mark(plan.opposites, termIds, this.opposite));
    const returnsCount = count(this.returns, returns(this.returns));
    const titleCount = count(this.title, titles(this.title));
    return {
      queryMarks: this.query, objectMarks: this.object, objectCount, headMarks: this.head, headCount, returnsMarks: this.returns, returnsCount,
      titleMarks: this.title, titleCount, oppositeMarks: this.opposite, oppositeCount,
    };
  }

  /** Clears every mark set since the last clear. */
  clear(): void {
    for (const { marks, ids } of this.set) for (const id of ids) marks[id] = 0;
    this.set.length = 0;
  }
}
