// Operation names and domains. Names: the operationId made safe (or one synthesized from method + path),
// unique across the catalog, collisions resolved by a rule that depends only on (path, method), so reordering
// the spec's keys never renames anything; then the curators' `x-api-catalog-name` renames, checked for
// collisions. Domains: first tag, else the first meaningful path segment (domains.ts splits one that holds most of a catalog).
import { AppError } from '../errors.js';
import type { Diagnostic, DomainInfo, Operation } from '../types.js';
import { specPathOf } from './paths.js';
import { isObject } from './pointer.js';
import { MAX_NAME, cleanDescription, cleanName, domainSlug, firstSentence, hashedName, limitWords, safeName } from './text.js';

/** The name a single operation would get without collisions. */
export function baseName(op: Pick<Operation, 'operationId' | 'method' | 'path'>): string {
  return safeName(rawName(op)) || `${op.method}_op`;
}

/** What a name is made from: the operationId, else method and path. */
function rawName(op: Pick<Operation, 'operationId' | 'method' | 'path'>): string {
  return safeName(op.operationId) !== '' ? op.operationId : `${op.method} ${op.path}`;
}

/**
 * Each operation's base name. A long id is cut to its start and last words (safeName); where that makes it
 * meet another operation's name, each long one takes its hashed form instead, so which keeps the short name
 * never depends on the order of the spec.
 */
function baseNames(ops: readonly Operation[]): Map<Operation, string> {
  const bases = new Map<Operation, string>();
  const byBase = new Map<string, Operation[]>();
  for (const op of ops) {
    const base = baseName(op);
    bases.set(op, base);
    byBase.set(base, [...(byBase.get(base) ?? []), op]);
  }
  for (const group of byBase.values()) {
    if (new Set(group.map(rawName)).size < 2) continue;
    for (const op of group) if (cleanName(rawName(op)).length > MAX_NAME) bases.set(op, hashedName(rawName(op)));
  }
  return bases;
}

/** By the path key as the spec wrote it (two keys that differ only after `#` share a path), then method. */
function byPathMethod(a: Operation, b: Operation): number {
  const [pa, pb] = [specPathOf(a), specPathOf(b)];
  return pa < pb ? -1 : pa > pb ? 1 : a.method < b.method ? -1 : a.method > b.method ? 1 : 0;
}

/**
 * Sets `name` on every operation. Operations sharing a base name are ordered by (path, method); the first
 * keeps it, the others get `_2`, `_3`, ... A shared operationId is also reported (DUPLICATE_OPERATION_ID).
 */
export function assignNames(ops: Operation[], diagnostics: Diagnostic[]): void {
  const groups = new Map<string, Operation[]>();
  const bases = baseNames(ops);
  for (const op of ops) {
    const base = bases.get(op) as string;
    const list = groups.get(base) ?? [];
    list.push(op);
    groups.set(base, list);
  }
  const used = new Set(groups.keys());
  for (const base of [...groups.keys()].sort()) {
    const group = (groups.get(base) as Operation[]).sort(byPathMethod);
    group.forEach((op, i) => {
      if (i === 0) {
        op.name = base;
        return;
      }
      let n = i + 1;
      let name = suffixed(base, n);
      while (used.has(name)) name = suffixed(base, ++n);
      used.add(name);
      op.name = name;
    });
    if (group.length > 1) {
      const first = group[0] as Operation;
      const ids = new Set(group.map((o) => o.operationId));
      diagnostics.push({
        level: 'warning',
        code: ids.size === 1 && !first.operationIdSynthesized ? 'DUPLICATE_OPERATION_ID' : 'NAME_COLLISION',
        pointer: `#/paths/${specPathOf(first).replace(/~/g, '~0').replace(/\//g, '~1')}/${first.method}`,
        message: `${group.length} operations map to the name ${JSON.stringify(base)}; named ${group.map((o) => `${o.name} (${o.method.toUpperCase()} ${specPathOf(o)})`).join(', ')}`,
      });
    }
  }
}

/** An operation as a person finds it in the spec: `GET /marketing/contacts (operationId GET_mc-contats)`. */
function described(op: Operation): string {
  return `${op.method.toUpperCase()} ${specPathOf(op)} (${op.operationIdSynthesized ? 'no operationId' : `operationId ${op.operationId}`})`;
}

/**
 * Gives operations the names their `x-api-catalog-name` asks for (`renames`: operation -> name), after the
 * automatic names are assigned and hidden operations dropped, so a rename never renames another operation.
 * Returns the former name -> new name of each operation whose name changed (sorted; catalog.json `renamed`).
 * A name that two operations ask for, or that another operation already has, is SPEC_INVALID naming both
 * operations and the fix: the import stops rather than quietly suffix a name a curator chose.
 */
export function applyRenames(ops: readonly Operation[], renames: ReadonlyMap<Operation, string>): Record<string, string> {
  const wanted = new Map<string, Operation>();
  for (const op of ops) {
    const name = renames.get(op);
    if (name === undefined) continue;
    const other = wanted.get(name);
    if (other !== undefined) {
      const [a, b] = [other, op].sort(byPathMethod) as [Operation, Operation];
      throw new AppError(
        'SPEC_INVALID',
        `import: x-api-catalog-name ${JSON.stringify(name)} is given to two operations, ${described(a)} and ${described(b)}; give each its own name`,
      );
    }
    wanted.set(name, op);
  }
  // Every operation keeps its automatic name unless it is renamed: a wanted name must not be one of those.
  const kept = new Map<string, Operation>();
  for (const op of ops) if (!renames.has(op)) kept.set(op.name, op);
  for (const [name, op] of wanted) {
    const holder = kept.get(name);
    if (holder !== undefined) {
      throw new AppError(
        'SPEC_INVALID',
        `import: x-api-catalog-name ${JSON.stringify(name)} on ${described(op)} is already the name of ${described(holder)}; choose another name, or rename that operation too with x-api-catalog-name`,
      );
    }
  }
  const renamed: Array<[string, string]> = [];
  for (const [name, op] of wanted) {
    if (op.name !== name) renamed.push([op.name, name]);
    op.name = name;
  }
  renamed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return Object.fromEntries(renamed);
}

function suffixed(base: string, n: number): string {
  const suffix = `_${n}`;
  return base.slice(0, 64 - suffix.length) + suffix;
}

/** Path segments that say nothing about the resource: versions, `api`, `rest`, parameters. */
function isPrefixSegment(seg: string): boolean {
  return seg === '' || /^\{.*\}$/.test(seg) || /^v\d+([._-]\d+)*(beta|alpha)?\d*$/i.test(seg) || /^(api|apis|rest|services?|public|latest)$/i.test(seg) || /^\d+(\.\d+)*$/.test(seg);
}

/** The domain name of the first segment that is not a version, prefix or parameter (without a `.json` suffix); '' when none is. */
export function firstResourceSegment(segments: readonly string[]): string {
  for (const seg of segments) if (!isPrefixSegment(seg)) return domainSlug(seg.replace(/\.[a-z]+$/i, ''));
  return '';
}

/** The domain from a path: its first segment that is not a version, prefix or parameter. */
export function domainFromPath(path: string): string {
  return firstResourceSegment(path.split('/')) || 'default';
}

/**
 * The domain of an operation: its first tag (as a domain name, domainSlug), else from the path. When the spec groups
 * its tags with the `x-tagGroups` extension (Redoc's navigation map), a grouped tag's domain is its group: the spec
 * author's own top-level map is what list_domains is for. Tags stay on the operation for search.
 */
export function domainOf(op: Pick<Operation, 'tags' | 'path'>, groups: Map<string, string> = new Map()): string {
  const tag = op.tags.find((t) => domainSlug(t) !== '');
  if (tag === undefined) return domainFromPath(op.path);
  return groups.get(domainSlug(tag)) ?? domainSlug(tag);
}

/** Tag -> its group, both as domain names, from the document's `x-tagGroups`; the first group naming a tag wins. */
export function tagGroups(doc: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  const groups = doc['x-tagGroups'];
  if (!Array.isArray(groups)) return out;
  for (const g of groups) {
    if (!isObject(g) || typeof g.name !== 'string' || domainSlug(g.name) === '' || !Array.isArray(g.tags)) continue;
    for (const t of g.tags) if (typeof t === 'string' && domainSlug(t) !== '' && !out.has(domainSlug(t))) out.set(domainSlug(t), domainSlug(g.name));
  }
  return out;
}

/** Tag name (as a domain name, domainSlug) -> first sentence of its description, from the document's `tags`. */
export function tagDescriptions(doc: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  if (!Array.isArray(doc.tags)) return out;
  for (const t of doc.tags) {
    if (!isObject(t) || typeof t.name !== 'string') continue;
    const d = firstSentence(cleanDescription(t.description, 1000));
    if (d !== '' && !out.has(domainSlug(t.name))) out.set(domainSlug(t.name), limitWords(d, 30));
  }
  return out;
}

const VERB_ORDER: Record<string, number> = { get: 0, post: 1, put: 2, patch: 3, delete: 4, head: 5, options: 6, trace: 7 };

/**
 * DomainInfo for each domain, sorted by name: the tag description, else "<Domain>: " and up to three
 * operation summaries, preferring the shortest paths (the core resource operations). Not those of operations the
 * lint flagged `instruction-like` (run it first): list_domains shows this line as a plain field, with no flag.
 */
export function buildDomains(ops: Operation[], tagDesc: Map<string, string>): DomainInfo[] {
  const by = new Map<string, Operation[]>();
  for (const op of ops) {
    const list = by.get(op.domain) ?? [];
    list.push(op);
    by.set(op.domain, list);
  }
  return [...by.keys()].sort().map((name) => {
    const list = by.get(name) as Operation[];
    let description = tagDesc.get(name) ?? '';
    if (description === '') {
      const picks = list
        .filter((o) => !(o.flags ?? []).includes('instruction-like'))
        .sort((a, b) => a.path.length - b.path.length || (VERB_ORDER[a.method] ?? 9) - (VERB_ORDER[b.method] ?? 9) || (a.name < b.name ? -1 : 1))
        .map((o) => o.summary)
        .filter((s, i, arr) => s !== '' && arr.indexOf(s) === i)
        .slice(0, 3);
      const title = name.replace(/[-_]+/g, ' ').replace(/^./, (c) => c.toUpperCase());
      description = picks.length > 0 ? `${title}: ${picks.join('; ')}` : `${title} operations`;
    }
    return { name, description, toolCount: list.length };
  });
}
