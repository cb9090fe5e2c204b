// list_domains: the map of the catalog(s) — what each API is (display name, description), then domains with tool
// counts and one-line descriptions.
import { credentialStatus, type CredentialStatus } from '../../execution/auth.js';
import { instructionMatch } from '../../instruction-patterns.js';
import type { Catalog } from '../../registry/catalog.js';
import { suggestNames } from '../../registry/suggest.js';
import type { Operation } from '../../types.js';
import { executionConfigFor, type CatalogSet, type ExecutionSettings } from './catalogs.js';
import { domainMap, groupPrefixes, underPrefix } from './domain-map.js';
import { fail, ok, type Envelope } from './envelope.js';
import { parseMetaArgs } from './meta-args.js';
import type { ToolNames } from './names.js';
import { oneLine, sentences } from './text.js';

/** At most this many credentials in one answer (the rest are counted in `omittedCredentials`). */
export const MAX_CREDENTIALS = 20;

export interface ListDomainsInput {
  catalog?: string;
  /** Only domains whose names start with these words (a group's `prefix`). */
  prefix?: string;
}

/**
 * One entry per distinct security requirement list: enough to know every credential a catalog uses. From
 * catalog.json when the import recorded them (no operation is read), else from the operations.
 */
const representatives = new WeakMap<Catalog, Array<Pick<Operation, 'security'>>>();
function securityRepresentatives(catalog: Catalog): Array<Pick<Operation, 'security'>> {
  let ops = representatives.get(catalog);
  if (!ops) {
    // serve-time filters may have dropped every operation that used a scheme: only an unfiltered catalog's list holds
    const recorded = catalog.filteredOut ? undefined : catalog.meta.securityRequirements;
    if (recorded !== undefined) ops = recorded.map((security) => ({ security }));
    else {
      const bySignature = new Map<string, Operation>();
      for (const op of catalog.operations) {
        const signature = JSON.stringify(op.security);
        if (!bySignature.has(signature)) bySignature.set(signature, op);
      }
      ops = [...bySignature.values()];
    }
    representatives.set(catalog, ops);
  }
  return ops;
}

/** A credential in list_domains: its status, and the first sentence of what the API says of the scheme. */
type ListedCredential = CredentialStatus & { description?: string };

/** A scheme's description in list_domains: its first sentence, at most this many characters (Level 3 quotes 300). */
const SCHEME_DESCRIPTION_CHARS = 120;

/**
 * A scheme's stored description as list_domains shows it: its first sentence, or nothing when the text reads like an
 * instruction to an AI. The importer withholds such text (LINT_INSTRUCTION_LIKE), but a registry imported before it
 * checked scheme descriptions stored them as the spec wrote them, and every agent reads list_domains first.
 */
function schemeDescription(stored: string | undefined): string {
  if (stored === undefined || instructionMatch(stored) !== undefined) return '';
  return sentences(stored, 1, SCHEME_DESCRIPTION_CHARS);
}

/**
 * The credentials a catalog's operations can use: scheme, the env vars that supply it (after config
 * overrides), whether a value is available (`set`), and `source: "header"` when this request's X-Upstream-Token supplies it
 * (the env vars themselves may be unset), and `description`, the first sentence of the securityScheme's own
 * description when the spec gives one (what the value is and where the user gets it: SoundCloud's
 * `OAuth ACCESS_TOKEN`) — never values. Computed per call because the session credential and the environment decide `set`.
 */
function catalogCredentials(catalog: Catalog, settings: ExecutionSettings, sessionCredential?: string): ListedCredential[] {
  const config = executionConfigFor(catalog, settings, sessionCredential);
  const schemes = config.catalog.securitySchemes ?? {};
  const seen = new Map<string, ListedCredential>();
  for (const op of securityRepresentatives(catalog)) {
    for (const c of credentialStatus(op, config)) {
      if (seen.has(c.scheme)) continue;
      const description = Object.hasOwn(schemes, c.scheme) ? schemeDescription(schemes[c.scheme]?.description) : '';
      seen.set(c.scheme, description !== '' ? { ...c, description } : c);
    }
  }
  return [...seen.values()].sort((a, b) => (a.scheme < b.scheme ? -1 : a.scheme > b.scheme ? 1 : 0));
}

/**
 * Domains in name order (deterministic, K4); `catalog` narrows to one loaded catalog, `prefix` to one group of
 * domains. More than MAP_LIMIT domains are folded into groups by the first words of their names (see domain-map.ts)
 * unless `complete` (a person's listing: the CLI, the explorer). With `settings`, each catalog's credentials (env
 * var names and whether they are set) are listed too; `credentialFor` gives each catalog the caller's token that would
 * go to it (over HTTP, X-Upstream-Token-<catalog>, or X-Upstream-Token with one catalog served), `sessionCredential`
 * one token for every catalog.
 */
export function listDomains(
  set: CatalogSet,
  input: unknown,
  names: ToolNames,
  context: { settings?: ExecutionSettings; sessionCredential?: string; credentialFor?: (catalog: string) => string | undefined; complete?: boolean } = {},
): Envelope {
  const tool = names.listDomains;
  const parsed = parseMetaArgs<ListDomainsInput>(input, { catalog: { kind: 'string', max: 200 }, prefix: { kind: 'string', min: 1, max: 200 } });
  if (!parsed.ok) {
    return fail(tool, 'INVALID_ARGUMENTS', 'list_domains: invalid arguments', `Call ${tool} with {}, {"catalog": "<name>"} or {"prefix": "<group prefix>"}.`, {
      errors: parsed.errors,
    });
  }
  const catalogNames = set.catalogs.map((c) => c.meta.name);
  const wanted = parsed.value.catalog;
  if (wanted !== undefined && !catalogNames.includes(wanted)) {
    return fail(
      tool,
      'INVALID_ARGUMENTS',
      `list_domains: no catalog named ${JSON.stringify(wanted)}; loaded: ${catalogNames.join(', ')}`,
      `Call ${tool} again with one of the loaded catalogs, or without "catalog".`,
      { errors: [{ path: '/catalog', message: 'unknown catalog', expected: catalogNames }], suggestions: suggestNames(wanted, catalogNames) },
    );
  }
  const inCatalog = set.domains.filter((d) => wanted === undefined || d.catalog === wanted);
  // several catalogs: names are `<catalog>.<domain>`, and a catalog's name is never split into groups at its hyphens
  const words = { catalogs: set.catalogs.length > 1 };
  const prefix = parsed.value.prefix;
  const domains = prefix === undefined ? inCatalog : inCatalog.filter((d) => underPrefix(d.name, prefix));
  if (prefix !== undefined && domains.length === 0) {
    const names = inCatalog.map((d) => d.name);
    return fail(
      tool,
      'INVALID_ARGUMENTS',
      `list_domains: no domain is under the prefix ${JSON.stringify(prefix)}${wanted !== undefined ? ` in catalog ${wanted}` : ''} (a prefix is whole words of a name: "admin" holds "admin-edge", not "administrators")`,
      `Call ${tool} again with a group's "prefix" from its answer, or without "prefix" for the map.`,
      { errors: [{ path: '/prefix', message: 'no domain under this prefix' }], suggestions: suggestNames(prefix, [...groupPrefixes(names, words), ...names], 3, { completions: true }) },
    );
  }
  // What the API is: its display name and description (import --title/--description or the spec's info).
  const about = (c: Catalog) => ({
    name: c.meta.name,
    title: oneLine(c.meta.title, 80),
    ...(c.meta.description !== '' ? { description: oneLine(c.meta.description, 200) } : {}),
  });
  const value: Record<string, unknown> =
    set.catalogs.length > 1
      ? // counted from catalog.json's domains (as totalTools below): `operations` would parse every operations file
        { catalogs: set.catalogs.map((c) => ({ ...about(c), toolCount: c.meta.domains.reduce((n, d) => n + d.toolCount, 0) })) }
      : { catalog: about(set.catalogs[0] as Catalog) };
  value.totalDomains = domains.length;
  value.totalTools = domains.reduce((n, d) => n + d.toolCount, 0);
  if (prefix !== undefined) value.prefix = prefix;
  const entries = domains.map((d) => ({ name: d.name, toolCount: d.toolCount, description: oneLine(d.description, 160) }));
  const map = context.complete === true ? { domains: entries } : domainMap(entries, prefix, words);
  value.domains = map.domains;
  if (map.groups !== undefined) value.groups = map.groups;
  if (map.omittedDomains !== undefined) value.omittedDomains = map.omittedDomains;
  // D12: a registry whose import skipped operations says so, so an agent knows part of the API is missing.
  const incomplete = set.catalogs
    .filter((c) => (wanted === undefined || c.meta.name === wanted) && c.skipped.length > 0)
    .map((c) => ({ catalog: c.meta.name, skippedOperations: c.skipped.length }));
  if (incomplete.length > 0) value.incomplete = incomplete;
  if (set.embeddings !== undefined) value.search = set.embeddings.describe();
  // Operations hidden by the catalog's curators (x-api-catalog-hidden) or this deployment's filters: a count only,
  // so an agent knows not to keep looking; their names never appear.
  const hidden = set.catalogs
    .filter((c) => wanted === undefined || c.meta.name === wanted)
    .reduce((n, c) => n + (c.meta.hiddenOperations ?? 0) + (c.filteredOut ?? 0), 0);
  if (hidden > 0) value.hiddenTools = hidden;
  if (context.settings !== undefined) {
    const settings = context.settings;
    const credentials = set.catalogs
      .filter((c) => wanted === undefined || c.meta.name === wanted)
      .flatMap((c) =>
        catalogCredentials(c, settings, context.credentialFor !== undefined ? context.credentialFor(c.meta.name) : context.sessionCredential).map((cred) =>
          set.catalogs.length > 1 ? { catalog: c.meta.name, ...cred } : cred,
        ),
      );
    // a bound like the map's: a server of many APIs (or one with hundreds of schemes) lists the first ones and a
    // count; describe_tools names the credentials each operation uses. Those that are set come first (stable
    // otherwise): past the bound, the APIs this deployment configured are the ones an agent can call.
    if (credentials.length > MAX_CREDENTIALS) credentials.sort((a, b) => Number(b.set) - Number(a.set));
    if (credentials.length > 0) value.credentials = credentials.slice(0, MAX_CREDENTIALS);
    if (credentials.length > MAX_CREDENTIALS) value.omittedCredentials = credentials.length - MAX_CREDENTIALS;
  }
  // Which registry content answered (hot reload swaps versions; replicas that show the same one serve the same).
  value.catalogVersion = set.version;
  // past the map's bound the names fold into groups; names that share no first word (an API whose tags run words
  // together: `articlenoteschild`) fold into none, and then no prefix is offered that would name nothing
  const grouped = map.groups !== undefined && map.groups.length > 0;
  const next =
    map.groups === undefined
      ? `Call ${names.searchTools} with a query (and optionally a domain) to find operations.`
      : grouped
        ? `${domains.length} domains, too many to list: those sharing the first words of their names are groups. Call ${names.searchTools} with a query (it searches every domain), or ${tool} with {"prefix": "<a group's prefix>"} to list a group's domains.`
        : `${domains.length} domains, too many to list with descriptions, and no two share a first word, so none are grouped: call ${names.searchTools} with a query (it searches every domain), with a domain of this answer to narrow it.`;
  const omitted =
    map.omittedDomains === undefined ? ''
    : grouped ? ` ${map.omittedDomains} domains are in no entry of this answer; narrow it with "catalog" or "prefix".`
    : ` ${map.omittedDomains} domains are in no entry of this answer; ${names.searchTools} finds their operations.`;
  const moreCredentials = value.omittedCredentials === undefined ? '' : ` ${String(value.omittedCredentials)} more credentials are not listed (those set come first): ${names.describeTools} names the ones each operation uses.`;
  return ok(tool, value, next + omitted + moreCredentials);
}
