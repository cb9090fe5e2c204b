// `api-catalog search "<query>"`: ranked operations of a catalog, for people (table) or scripts (--json).
// Argument parsing and printing only; ranking lives in src/search.
import { checkEmbeddingsFlags, knownName, parseCommand, UsageError, wholeNumber } from './args.js';
import { MAX_LIMIT, type HitExplanation, type QueryReading, type SearchResult } from '../search/index.js';
import { rankingWeights } from '../search/semantic.js';
import { attachEmbeddings, type CatalogSet } from '../server/core/catalogs.js';
import { keywordList } from '../server/core/search.js';
import { cliContext } from './domains.js';
import { shellLine } from './shell.js';

const USAGE = `usage: api-catalog search "<query>" [--registry <dir>]... [--config <file.json>] [--domain <d>] [--limit <n>] [--offset <n>] [--keywords <w,w>] [--explain] [--json]

  --registry <dir>  catalog folder (registry/<name>); repeatable: several catalogs are searched as one, their
                    names prefixed with the catalog's (github.issues_create), as domains and describe show them;
                    default: env API_CATALOG_REGISTRY, else the config file's serve.registries, else the
                    embedded GitHub catalog (as serve, domains and describe choose)
  --config <file>   the config file serve reads (or env API_CATALOG_CONFIG)
  --domain <d>      this domain, then (ranked lower) other domains' operations whose path nests its
                    resource (GET /members/{id}/boards for domain board); with an empty query, browse the domain
  --limit <n>       results to print (default 10, at most ${MAX_LIMIT})
  --offset <n>      results to skip (default 0)
  --keywords <w,w>  other words the API may use for it (comma or space separated): they widen recall at a
                    lower weight than the query's own words
  --explain         show how the query was read (phrases, typos, head noun, method) and why each hit ranks
                    where it does: the lexical retrieval score, the share of the query it covers and each
                    re-ranking signal's factor (docs/SEARCH.md lists them)
  --json            print the SearchResult as JSON (with --explain: "reading" and each hit's "explain")
  --embeddings-url <url>, --embeddings-model <m>, --embeddings-dimensions <n>
                    hybrid search with an OpenAI-compatible embeddings endpoint (or env API_CATALOG_EMBEDDINGS_URL,
                    _MODEL; key from API_CATALOG_EMBEDDINGS_KEY); the registry needs vectors (api-catalog embed)`;

/** The hybrid answer when an embeddings endpoint is configured (flags or env), else the lexical one. */
async function hybridOrLexical(
  values: { 'embeddings-url'?: string; 'embeddings-model'?: string; 'embeddings-dimensions'?: string },
  set: CatalogSet,
  query: string,
  options: { domain?: string; limit?: number; offset?: number },
): Promise<SearchResult & { mode?: string; reason?: string }> {
  if (values['embeddings-url'] === undefined && values['embeddings-model'] === undefined && !process.env.API_CATALOG_EMBEDDINGS_URL) return set.index.search(query, options);
  const { resolveEmbeddingsConfig } = await import('../embeddings/index.js');
  const flags = { url: values['embeddings-url'], model: values['embeddings-model'], dimensions: values['embeddings-dimensions'] };
  const config = resolveEmbeddingsConfig(Object.fromEntries(Object.entries(flags).filter(([, v]) => v !== undefined)), process.env);
  if (config === undefined) return set.index.search(query, options);
  // the vectors of every catalog, under their public (prefixed) names, as serve attaches them
  const semantic = await attachEmbeddings(set, config);
  return semantic.search(set.index, query, options);
}

/** One line per hit: `bm25 3.21 x coverage 0.83 | coverage x0.77 precision x0.91 ... = 2.01`. */
export function explainLine(e: HitExplanation): string {
  const factors = e.signals.filter((s) => s.factor !== 1).map((s) => `${s.name} x${s.factor.toFixed(3)}`);
  const exact = e.exact ? ' (exact name: first)' : '';
  const power = e.retrievalWeight === undefined ? '' : `^${e.retrievalWeight}`;
  return `bm25 ${e.retrieval.toFixed(3)}${power}, covers ${(e.coverage * 100).toFixed(0)}% | ${factors.join(' ') || 'no signal'} = ${e.reranked.toFixed(3)}${exact}`;
}

/**
 * How the query was read, one line: `read as: restore the spreadsheet i deleted yesterday; head noun: spreadsheet;
 * method: POST/PUT/PATCH`. A later step and appended words weigh less, so they are named apart.
 */
export function readingLine(r: QueryReading): string {
  const parts = [`read as: ${r.words || '(nothing)'}`];
  if (r.laterStep !== undefined) parts.push(`later step (weighs less): ${r.laterStep}`);
  if (r.appended !== undefined) parts.push(`appended (weighs less): ${r.appended}`);
  if (r.head !== undefined) parts.push(`head noun: ${r.head}`);
  if (r.methods !== undefined) parts.push(`method: ${r.methods.join('/').toUpperCase()}`);
  if (r.shape !== undefined) parts.push(`shape: ${r.shape}`);
  if (r.scopes !== undefined) parts.push(`scope: ${r.scopes.join(', ')}`);
  return parts.join('; ');
}

/** Runs the search subcommand; returns the exit code (0 found, 1 nothing found, 2 usage error). */
export async function run(argv: string[]): Promise<number> {
  const parsed = parseCommand('search', argv, {
    registry: { type: 'string', multiple: true },
    config: { type: 'string' },
    domain: { type: 'string' },
    limit: { type: 'string' },
    offset: { type: 'string' },
    json: { type: 'boolean', default: false },
    explain: { type: 'boolean', default: false },
    keywords: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
    verbose: { type: 'boolean', default: false },
    'embeddings-url': { type: 'string' },
    'embeddings-model': { type: 'string' },
    'embeddings-dimensions': { type: 'string' },
  });
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const query = positionals.join(' ');
  if (query.trim() === '' && values.domain === undefined) {
    throw new UsageError('search: give a query, e.g. api-catalog search "create an issue" (or --domain <d> to browse a domain)');
  }
  const limit = values.limit !== undefined ? wholeNumber('search', '--limit', values.limit, { min: 1, max: MAX_LIMIT }) : undefined;
  const offset = values.offset !== undefined ? wholeNumber('search', '--offset', values.offset) : undefined;
  checkEmbeddingsFlags('search', values);
  // the catalogs as domains and describe load them: every --registry (else the config's, else the embedded one)
  const { set } = cliContext({ registries: values.registry ?? [], ...(values.config !== undefined ? { configPath: values.config } : {}) });
  const index = set.index;
  const names = set.catalogs.map((c) => c.meta.name).join(', ');
  // the same flags, for the commands this one points to
  const same = shellLine([...(values.registry ?? []).flatMap((r) => ['--registry', r]), ...(values.config !== undefined ? ['--config', values.config] : [])]);
  const withSame = (command: string): string => (same === '' ? command : `${command} ${same}`);
  if (values.domain !== undefined) knownName('search', '--domain', values.domain, 'domain', set.domainNames, withSame('api-catalog domains'));
  const options = {
    ...(values.domain !== undefined ? { domain: values.domain } : {}),
    ...(limit !== undefined ? { limit } : {}),
    ...(offset !== undefined ? { offset } : {}),
    ...(values.explain ? { explain: true } : {}),
    ...(values.keywords !== undefined ? { keywords: keywordList(values.keywords) } : {}),
  };
  const result = await hybridOrLexical(values, set, query, options);
  // "did you mean" offers only corrections that find something with the same --domain (SearchIndex.suggest)
  const suggest = (): ReturnType<typeof index.suggest> => index.suggest(query, values.domain !== undefined ? { domain: values.domain } : {});
  if (values.json) {
    const extra = result.total === 0 ? { suggest: suggest() } : {};
    process.stdout.write(JSON.stringify({ ...result, ...extra }, null, 2) + '\n');
    return result.total === 0 ? 1 : 0;
  }
  const { dir } = rankingWeights();
  if (values.explain && dir !== undefined) process.stdout.write(`ranking weights: ${dir} (API_CATALOG_SEMANTIC_DIR)\n`);
  if (result.reading !== undefined) {
    // how each analysis unit read the query, then what each signal reads with the weights in use (src/search/units.ts, signals.ts)
    process.stdout.write(`${readingLine(result.reading)}\n`);
    for (const u of result.reading.units) process.stdout.write(`  ${u.unit.padEnd(18)}${u.reading}\n`);
    if (result.signals !== undefined) process.stdout.write(`ranked by (weights in use):\n${result.signals.map((x) => `  ${x.name.padEnd(18)}${x.reads}\n`).join('')}`);
    if (result.pruning !== undefined) {
      const { candidates, scored } = result.pruning;
      process.stdout.write(`  (every signal scored ${scored} of ${candidates} candidates; the rest could not reach this page)\n`);
    }
  }
  if (result.total === 0) {
    const s = suggest();
    const lines = [`no operations match ${JSON.stringify(query)} in ${names}`];
    if (s.didYouMean.length > 0) lines.push(`did you mean: ${s.didYouMean.join(' | ')}`);
    if (s.domains.length > 0) lines.push(`try a domain: ${s.domains.join(', ')} (--domain <d> with an empty query browses it)`);
    // nothing to correct and no domain shares its words: the way on is to look at what the catalogs have
    else if (s.didYouMean.length === 0) lines.push(`next: \`${withSame('api-catalog domains')}\` lists the domains; browse one with --domain <d> and an empty query, or try other words`);
    process.stdout.write(lines.join('\n') + '\n');
    return 1;
  }
  if (result.results.length === 0) {
    // --offset at or past the end: there is no page to show (not "657-656 of 656")
    const last = result.total - 1;
    process.stdout.write(`no results past ${result.total} for ${JSON.stringify(query)} in ${names}; use an --offset from 0 to ${last}\n`);
    return 1;
  }
  const width = Math.max(...result.results.map((h) => h.name.length));
  const first = (options.offset ?? 0) + 1;
  for (const [k, h] of result.results.entries()) {
    const req = h.requiredParams.length > 0 ? `  (requires: ${h.requiredParams.join(', ')})` : '';
    process.stdout.write(
      `${String(first + k).padStart(3)}. ${h.score.toFixed(3)}  ${h.name.padEnd(width)}  ${h.summary}${req}\n`,
    );
    if (h.explain) process.stdout.write(`${' '.repeat(11)}${explainLine(h.explain)}\n`);
  }
  const shown = first + result.results.length - 1;
  // describe finds the names in the same catalogs only when it is given the same ones
  process.stdout.write(`${first}-${shown} of ${result.total} in ${names}; next: ${withSame('api-catalog describe <name>')}\n`);
  // the operator runs this: the mode with its reason (an agent's search answer carries the mode alone)
  if (result.mode !== undefined) process.stderr.write(`search: ${result.mode}${result.reason !== undefined ? `: ${result.reason}` : ''}\n`);
  return 0;
}
