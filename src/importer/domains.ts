// A map of one domain tells an agent nothing. Some specs tag every operation alike (Xero's 224 under "Accounting",
// Plaid's 200 under "plaid", Gmail's 79 under "users"), so list_domains would show one entry holding the whole API.
// When one domain holds most of a catalog that needs a map, its operations are grouped by their paths instead: the
// first segment after the path prefix they all share (`/gmail/v1/users/{userId}/messages` -> messages).
// RPC-style specs name an action per operation instead of a resource per path (AWS's `/#Action=DeleteVpc`,
// `/#X-Amz-Target=Lightsail_20161128.GetInstances`, `/createStream`): their paths give one domain for all (ec2's 1,188
// operations on `/`) or one per operation (kinesisvideo's 30). Their operations are grouped by the resource noun after
// the action's verb instead (`DeleteVpc` -> vpc, `CreateStream` -> stream), a noun folded into a shorter one that is
// also a group (`vpc-endpoint` -> vpc). Pure: no I/O.
import type { Operation } from '../types.js';
import { singular } from './entities.js';
import { firstResourceSegment } from './names.js';
import { actionOf } from './paths.js';
import { domainSlug, identifierWords } from './text.js';

/** A catalog with fewer operations than this is small enough to browse whole: never split. */
export const SPLIT_MIN_OPERATIONS = 40;
/** The share of a catalog's operations one domain must hold to be split. */
export const SPLIT_DOMINANT_SHARE = 0.8;
/**
 * The fewest path groups a split must give, else the paths say no more than the tag; and at most one group per two
 * operations, else the paths name operations, not areas (`/#X-Amz-Target=Lightsail_20161128.AllocateStaticIp`).
 */
export const SPLIT_MIN_PARTS = 3;

/** A catalog with fewer operations than this keeps the map its paths give, whatever it looks like. */
export const ACTION_MIN_OPERATIONS = 10;

/** What a split did: the domain split and the domains its operations went to, grouped by path or by action. */
export interface DomainSplit {
  domain: string;
  operations: number;
  parts: number;
  by: 'path' | 'action';
}

/**
 * Groups the operations of a domain that holds most of the catalog by their paths, in place; for an RPC-style spec
 * whose paths give no map (one domain for nearly all, or about one per operation), by the resource their actions
 * name (groupByAction). `fixed`: operations whose domain a curator chose (`x-api-catalog-domain`), never moved.
 * Returns what was split, or undefined when nothing was, or when an RPC-style spec's one-domain-per-operation map was
 * regrouped (there was no dominant domain to name).
 */
export function splitDominantDomain(operations: Operation[], fixed: (op: Operation) => boolean = () => false): DomainSplit | undefined {
  return splitByPath(operations, fixed) ?? groupByAction(operations, fixed);
}

function splitByPath(operations: Operation[], fixed: (op: Operation) => boolean): DomainSplit | undefined {
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
  return { domain, operations: parts.size, parts: distinct.size, by: 'path' };
}

/** Words kept as they are when a noun is made singular: short ones (`dns`, `sms`) and data (not "datum"). */
function singularWord(word: string): string {
  return word.length <= 3 || word.endsWith('data') ? word : singular(word);
}

/** Words that end the resource an action names: `ListTagsForResource` -> tags, `GetSlatesByDate` -> slates. */
const NOUN_END = new Set(['for', 'by', 'from', 'to', 'in', 'of', 'with', 'into']);

/** The verbs actions lead with (`DeleteVpc`, `createStream`, `GET_DescribeVpcs` after its method). */
const VERBS = new Set([
  'abort', 'accept', 'activate', 'add', 'allocate', 'apply', 'approve', 'archive', 'assign', 'associate', 'attach', 'authorize', 'batch',
  'build', 'cancel', 'check', 'claim', 'clear', 'close', 'complete', 'confirm', 'connect', 'copy', 'count', 'create', 'deactivate',
  'decline', 'decrypt', 'delete', 'deny', 'deprovision', 'deregister', 'describe', 'detach', 'detect', 'disable', 'disassociate',
  'disconnect', 'download', 'enable', 'encrypt', 'execute', 'export', 'fetch', 'find', 'generate', 'get', 'head', 'import', 'initiate', 'invoke',
  'link', 'list', 'lookup', 'merge', 'modify', 'move', 'notify', 'open', 'pause', 'promote', 'provision', 'publish', 'purchase', 'purge',
  'put', 'query', 'read', 'reboot', 'receive', 'refresh', 'register', 'reject', 'release', 'reload', 'remove', 'rename', 'replace',
  'request', 'reset', 'resize', 'restore', 'resume', 'retrieve', 'revoke', 'rotate', 'run', 'scan', 'search', 'select', 'send', 'set',
  'share', 'sign', 'start', 'stop', 'submit', 'subscribe', 'suspend', 'tag', 'terminate', 'test', 'unassign', 'unlink', 'unshare',
  'unsubscribe', 'untag', 'update', 'upload', 'upsert', 'validate', 'verify', 'write',
]);
const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

/**
 * The resource an action names, as a domain slug, when the action leads with a verb: the words after it (and after a
 * leading `Batch`, or an HTTP method before the verb) up to a preposition, each made singular: `DeleteVpc` -> vpc,
 * `DescribeAddressesAttribute` -> address-attribute, `Lightsail_20161128.GetInstances` -> instance,
 * `ListTagsForResource` and `TagResource` -> tag. A namespaced action names its resource before the method
 * (`flickr.photos.getInfo` -> photo); a verb alone is its own group (`Search` -> search). '' when the action leads with
 * no verb this knows, unless `anyVerb` (its first word is taken for one: `AdvertiseByoipCidr` -> byoip-cidr).
 */
export function actionNoun(action: string, anyVerb = false): string {
  const dotted = action.split('.').filter((p) => p !== '');
  let words = identifierWords(dotted[dotted.length - 1] ?? '');
  if (words.length > 2 && HTTP_METHODS.has(words[0] as string) && VERBS.has(words[1] as string)) words = words.slice(1);
  if (words[0] === 'batch' && words.length > 1) words = words.slice(1);
  const verb = words[0] ?? '';
  if (!VERBS.has(verb) && !(anyVerb && words.length > 1)) return '';
  if (verb === 'tag' || verb === 'untag') return 'tag';
  let noun = dotted.length > 2 ? identifierWords(dotted[dotted.length - 2] as string) : words.slice(1);
  while (noun.length > 0 && NOUN_END.has(noun[0] as string)) noun = noun.slice(1);
  const end = noun.findIndex((w) => NOUN_END.has(w));
  if (end > 0) noun = noun.slice(0, end);
  if (noun.length === 0) noun = [verb];
  return noun.map(singularWord).join('-').slice(0, 64).replace(/-+$/, '');
}

/**
 * A catalog whose paths give no map groups the operations its paths placed by the resource their actions name
 * (actionNoun of paths.ts actionOf, else of the operationId, else of a camelCase last segment: pathAction): the
 * operations without a tag (a tag is the spec author's map), when they are ACTION_MIN_OPERATIONS or more and four in
 * five of the catalog, one domain holds SPLIT_DOMINANT_SHARE of them or there is about one domain per operation, and at
 * least half of them name an action led by a verb. A noun joins the group of its shortest leading words that are also a group (vpc-endpoint-connection
 * and vpc-attribute -> vpc). Kept only when it gives at least two groups and at most one per two operations;
 * otherwise nothing changes.
 */
function groupByAction(operations: Operation[], fixed: (op: Operation) => boolean): DomainSplit | undefined {
  const placed = operations.filter((op) => !fixed(op) && !op.tags.some((t) => domainSlug(t) !== ''));
  if (placed.length < ACTION_MIN_OPERATIONS || placed.length * 5 < operations.length * 4) return undefined;
  const counts = new Map<string, number>();
  for (const op of placed) counts.set(op.domain, (counts.get(op.domain) ?? 0) + 1);
  let domain = '';
  let most = 0;
  for (const [d, n] of counts) if (n > most || (n === most && d < domain)) [domain, most] = [d, n];
  const giant = most / placed.length >= SPLIT_DOMINANT_SHARE;
  if (!giant && counts.size * 2 <= placed.length) return undefined;
  const actions = new Map<Operation, string>();
  for (const op of placed) {
    const action = actionOf(op) ?? (op.operationIdSynthesized ? pathAction(op.path) : op.operationId);
    if (action !== undefined) actions.set(op, action);
  }
  if ([...actions.values()].filter((a) => actionNoun(a) !== '').length * 2 < placed.length) return undefined;
  // most actions lead with a known verb: the others lead with one too (`MonitorInstances`, `PeerVpc`)
  const nouns = new Map<Operation, string>();
  for (const [op, action] of actions) {
    const noun = actionNoun(action, true);
    if (noun !== '') nouns.set(op, noun);
  }
  // a plural a short word kept (`static-ips`) joins its singular's group; then a noun joins the group of its shortest
  // leading words that are also a group (`vpc-endpoint-connection` and `vpc-attribute` -> vpc)
  const groups = new Set([...nouns.values()].map((n) => (n.endsWith('s') && [...nouns.values()].includes(n.slice(0, -1)) ? n.slice(0, -1) : n)));
  const folded = new Map<string, string>();
  for (const noun of new Set(nouns.values())) {
    const own = noun.endsWith('s') && groups.has(noun.slice(0, -1)) ? noun.slice(0, -1) : noun;
    const words = own.split('-');
    let to = own;
    for (let k = 1; k < words.length; k++) {
      const head = words.slice(0, k).join('-');
      if (groups.has(head)) {
        to = head;
        break;
      }
    }
    folded.set(noun, to);
  }
  const distinct = new Set(folded.values());
  if (distinct.size < 2 || distinct.size * 2 > nouns.size) return undefined;
  for (const [op, noun] of nouns) op.domain = folded.get(noun) as string;
  return giant ? { domain, operations: nouns.size, parts: distinct.size, by: 'action' } : undefined;
}

/**
 * The action a path names when its operation has no operationId: a last plain segment that is one camelCase word
 * led by a lower-case one (Telegram's `POST /sendMessage`, `/getChatMember`), as an operationId would name it. Whether
 * its first word is a verb is groupByAction's test, as for operationIds.
 */
function pathAction(path: string): string | undefined {
  const last = segmentsOf(path).filter((s) => !s.includes('{')).pop();
  return last !== undefined && /^[a-z]+(?:[A-Z0-9]+[a-z0-9]*)+$/.test(last) ? last : undefined;
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
