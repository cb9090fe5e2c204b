// Features for the re-ranking experiment (scripts/experiments/rerank.mjs): per query, its top candidates as the
// shipped ranking orders them, each turned into one numeric row: what explain says (rank, score, retrieval,
// coverage, every signal's factor), the operation's structure (method, path depth, item or collection, required
// parameters, head noun as last path segment) and the query's reading. Pure: no I/O; the index is the caller's.

/** The signals explain can report, in a fixed order (an absent one is factor 1: it had no opinion). */
export const SIGNAL_NAMES = [
  'coverage', 'title-coverage', 'precision', 'primary-resource', 'head-noun', 'returns-head', 'method', 'rest-shape',
  'scope', 'spans-all', 'deprecated', 'exact-title', 'admin-variant', 'bulk-variant', 'opposite-action', 'domain-reach',
];

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const STYLES = { agent: 0, 'agent-no-domain': 1, words: 2 };

/** Every feature's name, in row order; the first block is what the shipped ranking already reads. */
export const FEATURE_NAMES = [
  // the shipped ranking's own view
  'rank', 'score', 'score/top', 'log-retrieval', 'retrieval/max', 'coverage', 'exact',
  ...SIGNAL_NAMES.map((s) => `f:${s}`),
  // the operation's structure
  ...METHODS.map((m) => `is-${m}`), 'literal-segments', 'param-segments', 'ends-in-param', 'collection',
  'required-params', 'params', 'summary-words', 'no-summary', 'no-description', 'deprecated',
  'head-is-last-segment', 'head-in-path', 'method-fits-reading', 'same-path-as-top', 'parent-of-top', 'child-of-top',
  // the query
  'style', 'query-words', 'keywords', 'has-head', 'reads', 'writes', 'deletes', 'shape',
];
/** How many leading features are the shipped ranking's own (the "signals only" variant keeps these and the query's). */
export const RANKING_FEATURES = 7 + SIGNAL_NAMES.length;
export const QUERY_FEATURES = 8;

/** A path's segments: literals and `{param}`s, a version prefix (v1, api) kept as literal. */
function segments(path) {
  return path.split('/').filter(Boolean).map((s) => ({ text: s, param: /^\{.*\}$/.test(s) || /^:/.test(s) }));
}

/** A word's bare form for matching a head noun to a path segment: its last word, lower case, one plural s off. */
export function bare(word) {
  const parts = word.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
  const last = parts[parts.length - 1] ?? '';
  if (/ies$/.test(last) && last.length > 4) return `${last.slice(0, -3)}y`;
  if (/(ses|xes|ches|shes)$/.test(last)) return last.slice(0, -2);
  if (/s$/.test(last) && !/ss$/.test(last) && last.length > 3) return last.slice(0, -1);
  return last;
}

/**
 * The rows of one query: `hits` are its search results (explain on) in the shipped order, `reading` the search's
 * reading, `ops` the catalog's operations by name, `style` agent / agent-no-domain / words, `query` the EvalQuery.
 * Returns one number array per hit, in FEATURE_NAMES order.
 */
export function queryRows(hits, reading, ops, style, query) {
  const top = hits[0];
  const topScore = top?.score || 1;
  const maxRetrieval = Math.max(1e-9, ...hits.map((h) => h.explain?.retrieval ?? 0));
  const topPath = top ? (ops.get(top.name)?.path ?? '') : '';
  const head = reading?.head ? bare(reading.head) : '';
  const readMethods = new Set(reading?.methods ?? []);
  const shape = reading?.shape === 'collection' ? 1 : reading?.shape === 'item' ? 2 : 0;
  const queryWords = query.query.split(/\s+/).filter(Boolean).length;
  const queryRow = [
    STYLES[style], queryWords, (query.keywords ?? []).length, head ? 1 : 0,
    readMethods.has('get') ? 1 : 0, readMethods.has('post') || readMethods.has('put') || readMethods.has('patch') ? 1 : 0,
    readMethods.has('delete') ? 1 : 0, shape,
  ];
  return hits.map((h, k) => {
    const e = h.explain ?? { retrieval: 0, coverage: 0, signals: [] };
    const factors = new Map(e.signals.map((s) => [s.name, s.factor]));
    const op = ops.get(h.name);
    const path = op?.path ?? '';
    const segs = segments(path);
    const literals = segs.filter((s) => !s.param);
    const last = segs[segs.length - 1];
    const lastLiteral = literals[literals.length - 1];
    const required = op?.inputSchema?.required?.length ?? 0;
    const params = Object.keys(op?.inputSchema?.properties ?? {}).length;
    const summaryWords = (op?.summary ?? '').split(/\s+/).filter(Boolean).length;
    const method = op?.method ?? '';
    return [
      k + 1, h.score, h.score / topScore, Math.log(Math.max(e.retrieval, 1e-9)), e.retrieval / maxRetrieval, e.coverage,
      e.exact === true ? 1 : 0,
      ...SIGNAL_NAMES.map((s) => factors.get(s) ?? 1),
      ...METHODS.map((m) => (method === m ? 1 : 0)), literals.length, segs.length - literals.length,
      last?.param ? 1 : 0, last && !last.param ? 1 : 0,
      required, params, summaryWords, summaryWords === 0 ? 1 : 0, (op?.description ?? '') === '' ? 1 : 0,
      op?.deprecated ? 1 : 0,
      head !== '' && lastLiteral !== undefined && bare(lastLiteral.text) === head ? 1 : 0,
      head !== '' && literals.some((s) => bare(s.text) === head) ? 1 : 0,
      readMethods.size === 0 ? 0.5 : readMethods.has(method) ? 1 : 0,
      k > 0 && path === topPath ? 1 : 0,
      k > 0 && topPath.startsWith(`${path}/`) ? 1 : 0,
      k > 0 && path.startsWith(`${topPath}/`) ? 1 : 0,
      ...queryRow,
    ];
  });
}
