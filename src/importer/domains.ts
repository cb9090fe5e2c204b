// A map of one domain tells an agent nothing. Some specs tag every operation alike (Xero's 224 under "Accounting",
// Plaid's 200 under "plaid", Gmail's 79 under "users"), so list_domains would show one entry holding the whole API.
// When one domain holds most of a catalog that needs a map, its operations are grouped by their paths instead: the
// first segment after the path prefix they all share (`/gmail/v1/users/{userId}/messages` -> messages). Pure: no I/O.
import type { Operation } from '../types.js';
import { firstResourceSegment } from './names.js';

/** A catalog with fewer operations than this is small enough to browse whole: never split. */
export const SPLIT_MIN_OPERATIONS = 40;
/** The share of a catalog's operations one domain must hold to be split. */
export const SPLIT_DOMINANT_SHARE = 0.8;
/**
 * The fewest path groups a split must give, else the paths say no more than the tag; and at most one group per two
 * operations, else the paths name operations, not areas (`/#X-Amz-Target=Lightsail_20161128.AllocateStaticIp`).
 */
export const SPLIT_MIN_PARTS = 3;

/** What a split did: the domain split and the domains its operations went to. */
export interface DomainSplit {
  domain: string;
  operations: number;
  parts: number;
}

/**
 * Groups the operations of a domain that holds most of the catalog by their paths, in place. `fixed`: operations whose
 * domain a curator chose (`x-api-catalog-domain`), never moved. Returns what was split, or undefined when nothing was.
 */
export function splitDominantDomain(operations: Operation[], fixed: (op: Operation) => boolean = () => false): DomainSplit | undefined {
  if (operations.length < SPLIT_MIN_OPERATIONS) return undefined;
  const counts = new Map<string, number>();
  for (const op of operations) counts.set(op.domain, (counts.get(op.domain) ?? 0) + 1);
  let domain = '';
  let most = 0;
  for (const [d, n] of counts) if (n > most || (n === most && d < domain)) [domain, most] = [d, n];
  if (most / operations.length < SPLIT_DOMINANT_SHARE) return undefined;
  const members = operations.filter((op) => op.domain === domain && !fixed(op));
  const shared = sharedPrefix(members.map((op) => segmentsOf(op.path)));
  const parts = new Map<Operation, string>();
  for (const op of members) {
    // the first segment after the shared prefix that names something (no version, prefix or parameter)
    const part = firstResourceSegment(segmentsOf(op.path).slice(shared));
    if (part !== '') parts.set(op, part);
  }
  const distinct = new Set(parts.values());
  // groups of one each are no map either: the paths name operations, not areas
  if (distinct.size < SPLIT_MIN_PARTS || distinct.size * 2 > parts.size) return undefined;
  for (const [op, part] of parts) op.domain = part;
  return { domain, operations: parts.size, parts: distinct.size };
}

function segmentsOf(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

/** How many leading segments every path has in common. */
function sharedPrefix(paths: readonly string[][]): number {
  const first = paths[0] ?? [];
  let k = 0;
  while (k < first.length && paths.every((p) => p.length > k + 1 && p[k] === first[k])) k++;
  return k;
}
