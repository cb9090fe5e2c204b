// General API vocabulary for search: abbreviations, verb families and other near-synonyms, the HTTP
// method each verb suggests, and the scope words (org, enterprise, my...) that separate near-duplicate
// operations. Vocabulary only — nothing here may name a particular API's operations or queries.
import type { HttpMethod } from '../types.js';

/**
 * A lookup table without a prototype: `table['constructor']` or `table['__proto__']` must be undefined for
 * words of any API (an operation summary may say "constructor"), never Object.prototype's members.
 */
function table<T>(entries: Record<string, T>): Readonly<Record<string, T>> {
  return Object.freeze(Object.assign(Object.create(null) as Record<string, T>, entries));
}

/**
 * Abbreviations and spelling variants rewritten to their canonical words at index AND query time, so
 * `repo`, `repos` and `repository` are one term. Values may be several words (`pr` -> pull request).
 */
export const ABBREVIATIONS: Readonly<Record<string, readonly string[]>> = table({
  repo: ['repository'], repos: ['repositories'], pr: ['pull', 'request'], prs: ['pull', 'requests'],
  org: ['organization'], orgs: ['organizations'], organisation: ['organization'], organisations: ['organizations'],
  env: ['environment'], envs: ['environments'], config: ['configuration'], configs: ['configurations'],
  cfg: ['configuration'], auth: ['authentication'], authn: ['authentication'], authz: ['authorization'],
  perm: ['permission'], perms: ['permissions'], msg: ['message'], msgs: ['messages'], info: ['information'],
  stats: ['statistics'], desc: ['description'], admin: ['administrator'], admins: ['administrators'],
  app: ['application'], apps: ['applications'], dir: ['directory'], dirs: ['directories'], doc: ['document'],
  docs: ['documents'], ref: ['reference'], refs: ['references'], txn: ['transaction'], txns: ['transactions'],
  tx: ['transaction'], acct: ['account'], accts: ['accounts'], addr: ['address'], pkg: ['package'], pkgs: ['packages'],
  img: ['image'], imgs: ['images'], sub: ['subscription'], subs: ['subscriptions'], param: ['parameter'],
  params: ['parameters'], attr: ['attribute'], attrs: ['attributes'], num: ['number'], qty: ['quantity'],
  ssh: ['ssh'], gpg: ['gpg'], ci: ['continuous', 'integration'], vars: ['variables'], var: ['variable'],
  creds: ['credentials'], cred: ['credential'], pw: ['password'], pwd: ['password'], url: ['url'],
  webhook: ['webhook'], hook: ['webhook'], hooks: ['webhooks'], rerun: ['re', 'run'], reruns: ['re', 'runs'],
  unarchive: ['unarchive'], cancelled: ['canceled'], cancelling: ['canceling'], colour: ['color'],
});

/**
 * Families of words that ask for the same thing. A query word from a family also matches the other
 * members (with a lower weight than the word itself). Members are plain words; they are stemmed later.
 */
export const FAMILIES: readonly (readonly string[])[] = [
  // actions (verb families)
  ['create', 'add', 'new', 'make', 'open', 'post', 'insert', 'generate', 'register', 'build'],
  ['delete', 'remove', 'destroy', 'drop', 'erase', 'purge', 'discard', 'unset', 'revoke', 'uninstall', 'unregister'],
  ['list', 'browse', 'enumerate', 'index'],
  ['get', 'retrieve', 'fetch', 'read', 'view', 'show', 'lookup', 'look', 'see', 'inspect', 'display', 'describe', 'detail',
    'grab'],
  ['update', 'edit', 'change', 'modify', 'set', 'patch', 'alter', 'rename', 'replace', 'configure'],
  ['search', 'find', 'query', 'filter', 'lookup'],
  ['cancel', 'stop', 'abort', 'halt', 'terminate', 'kill', 'end', 'void'],
  ['run', 'trigger', 'dispatch', 'execute', 'start', 'launch', 'kick', 'play', 'resume'],
  ['rerun', 'retry', 'restart', 'rerun'],
  ['download', 'export'],
  ['upload', 'attach', 'import'],
  ['enable', 'activate', 'turn'],
  ['disable', 'deactivate', 'suspend', 'pause'],
  ['approve', 'accept', 'confirm', 'allow'],
  ['reject', 'decline', 'deny', 'dismiss', 'refuse'],
  ['check', 'verify', 'test', 'validate', 'whether'],
  ['copy', 'duplicate', 'clone', 'fork'],
  ['send', 'transfer', 'move', 'deliver'],
  ['restore', 'recover', 'undelete', 'untrash'],
  ['lock', 'freeze'],
  // things (nouns that name the same object); keep VERB_FAMILY_COUNT in step with the actions above
  ['user', 'account', 'person', 'people', 'member', 'someone', 'somebody', 'who', 'coworker', 'colleague', 'teammate'],
  ['comment', 'note', 'reply'],
  ['log', 'logs', 'output'],
  ['secret', 'credential', 'token', 'key'],
  ['watch', 'subscribe', 'follow', 'subscription'],
  ['message', 'text', 'sms', 'mms', 'dm', 'chat'],
  ['channel', 'conversation', 'room'],
  ['favorite', 'favourite', 'star', 'bookmark', 'save', 'liked'],
  ['authenticated', 'current', 'self', 'whoami'],
  ['balance', 'funds', 'money', 'credit'],
  ['payout', 'transfer', 'withdraw', 'withdrawal'],
  ['image', 'picture', 'photo', 'media', 'avatar'],
  ['notification', 'notify', 'alert'],
  ['tag', 'label'],
  ['task', 'todo', 'ticket'],
  ['section', 'column', 'lane'],
  ['track', 'song', 'music', 'tune'],
  ['presence', 'online', 'offline', 'away'],
  ['top', 'popular', 'trending'],
  ['related', 'similar'],
  ['history', 'list', 'recent'],
  ['event', 'meeting', 'appointment'],
  ['permission', 'access', 'share', 'sharing', 'collaborator'],
  ['revision', 'version'],
  ['trash', 'bin', 'garbage'],
  ['webhook', 'callback', 'callout'],
  ['audit', 'activity'],
  ['ssl', 'tls', 'https', 'certificate'],
  ['record', 'entry'],
  // infrastructure and billing words people use for what cloud APIs name otherwise (round 7, docs/SEARCH.md)
  ['server', 'instance', 'machine', 'vm'],
  ['disk', 'volume', 'drive'],
  ['invoice', 'bill'],
  ['region', 'datacenter', 'location', 'zone'],
];

/**
 * Phrases read as one word before anything else ("logged in" is not about logs, "hang up" ends a call).
 * Keys are two lower-case words; values replace both.
 */
export const PHRASES: Readonly<Record<string, readonly string[]>> = table({
  'logged in': ['authenticated'], 'signed in': ['authenticated'], 'log in': ['authenticate'], 'sign in': ['authenticate'],
  'hang up': ['end'], 'to do': ['todo'], 'sign up': ['register'], 'set up': ['create'],
  'turn off': ['disable'], 'turn on': ['enable'], 'shut down': ['stop'], 'clean up': ['delete'], 'get rid': ['delete'],
  'bring back': ['restore'], 'put back': ['restore'], 'take away': ['remove'], 'take off': ['remove'],
  'hook up': ['attach'], 'kick off': ['start'], 'start up': ['start'], 'boot up': ['boot'], 'shut off': ['stop'],
  'switch on': ['enable'], 'switch off': ['disable'], 'log out': ['logout'], 'sign out': ['logout'],
  'throw away': ['delete'], 'throw out': ['delete'], 'clear out': ['delete'], 'back up': ['backup'],
  'pull up': ['show'], 'sign off': ['approve'], 'turn down': ['decline'], 'hand over': ['transfer'],
  'pay out': ['payout'], 'opt out': ['unsubscribe'], 'opt in': ['subscribe'], 'call off': ['cancel'],
  'tick off': ['complete'], 'check off': ['complete'], 'cross off': ['complete'],
  'every time': ['webhook'], 'each time': ['webhook'],
  'break down': ['breakdown'], 'data center': ['datacenter'], 'data centers': ['datacenters'],
});

/**
 * Single words read as another before anything else: "let our server know whenever a file is uploaded" asks for
 * a webhook (an API's name for being told when something happens), whatever it calls the event.
 */
export const WORD_READINGS: Readonly<Record<string, readonly string[]>> = table({
  whenever: ['webhook'],
});

/**
 * What "who" before a past action ("who deleted a server yesterday?", "who changed what lately") also asks for:
 * the account's audit trail, which APIs call an audit log, audit events, events or activity.
 */
export const WHO_DID_READING: readonly string[] = ['audit', 'event'];

/** How many of the first {@link FAMILIES} are verb families (actions); the rest name things. */
export const VERB_FAMILY_COUNT = 20;

/**
 * Verbs that change something without creating, reading or deleting a record: an API does them with a POST to an
 * action (`/droplets/{id}/actions`, `/files/{id}` restore), a PUT or a PATCH, never a GET. General English API
 * verbs, not read off any query set; measured in docs/SEARCH.md ("Verbs that change something", round 8).
 */
const CHANGE_VERBS: readonly string[] = [
  'restore', 'archive', 'move', 'assign', 'unassign', 'attach', 'detach', 'approve', 'reject', 'enable', 'disable',
  'pause', 'resume', 'publish', 'unpublish', 'transfer', 'refund', 'invite', 'verify', 'rotate', 'reset', 'merge',
  'close', 'reopen', 'lock', 'unlock', 'mute', 'unmute', 'pin', 'unpin', 'follow', 'unfollow', 'subscribe',
  'unsubscribe', 'duplicate', 'copy', 'clone', 'import', 'schedule', 'submit', 'confirm', 'capture', 'void',
  'activate', 'deactivate', 'suspend', 'reboot', 'restart', 'resize', 'upgrade', 'downgrade', 'boot', 'shutdown',
  'start', 'trigger', 'run', 'execute', 'retry', 'rerun', 'accept', 'decline', 'block', 'unblock', 'share', 'mark',
  'complete', 'finalize', 'apply', 'redeem', 'renew', 'promote', 'migrate', 'deploy', 'rollback', 'revert',
  'resend', 'reply',
];

/** HTTP methods a leading verb suggests; used as a low-weight ranking signal. */
export const VERB_METHODS: Readonly<Record<string, readonly HttpMethod[]>> = table({
  ...Object.fromEntries(CHANGE_VERBS.map((w): [string, readonly HttpMethod[]] => [w, ['post', 'put', 'patch']])),
  create: ['post', 'put'], add: ['post', 'put'], new: ['post'], make: ['post'], open: ['post'], post: ['post'],
  register: ['post'], generate: ['post'], insert: ['post'], upload: ['post', 'put'], send: ['post'],
  delete: ['delete'], remove: ['delete'], destroy: ['delete'], drop: ['delete'], erase: ['delete'], purge: ['delete'],
  list: ['get'], browse: ['get'], enumerate: ['get'], get: ['get'], retrieve: ['get'], fetch: ['get'], read: ['get'],
  view: ['get'], show: ['get'], lookup: ['get'], look: ['get'], see: ['get'], inspect: ['get'], display: ['get'],
  search: ['get'], find: ['get'], download: ['get'], check: ['get'], who: ['get'], how: ['get'], count: ['get'],
  update: ['patch', 'put', 'post'], edit: ['patch', 'put', 'post'], change: ['patch', 'put', 'post'],
  modify: ['patch', 'put', 'post'], set: ['put', 'patch', 'post'], rename: ['patch', 'post'], replace: ['put'],
  cancel: ['post', 'delete'], stop: ['post', 'delete'],
});

/** Scopes that separate near-duplicate operations (the same action per repository, org, enterprise...). */
export type Scope = 'repository' | 'organization' | 'enterprise' | 'team' | 'me' | 'user' | 'installation';

/** Raw query words (before stop words) that name a scope. */
export const SCOPE_WORDS: Readonly<Record<string, Scope>> = table({
  repo: 'repository', repos: 'repository', repository: 'repository', repositories: 'repository',
  org: 'organization', orgs: 'organization', organization: 'organization', organizations: 'organization',
  organisation: 'organization', enterprise: 'enterprise', enterprises: 'enterprise', team: 'team', teams: 'team',
  my: 'me', me: 'me', mine: 'me', i: 'me', myself: 'me', authenticated: 'me', user: 'user', users: 'user',
  installation: 'installation',
});

/** Scopes a query word never implies for the ranking unless named (the most specific, least common ones). */
export const NARROW_SCOPES: ReadonlySet<Scope> = new Set(['organization', 'enterprise', 'team', 'installation', 'user']);

/**
 * REST shape a leading verb suggests: `collection` paths end in a plain segment (`/issues`), `item` paths
 * in a parameter (`/issues/{number}`). Listing and creating act on collections; reading one thing,
 * changing it or deleting it act on items. A low-weight signal.
 */
export const VERB_SHAPES: Readonly<Record<string, 'collection' | 'item'>> = table({
  list: 'collection', browse: 'collection', enumerate: 'collection', all: 'collection', create: 'collection',
  add: 'collection', new: 'collection', send: 'collection', post: 'collection', make: 'collection', register: 'collection', insert: 'collection',
  get: 'item', retrieve: 'item', fetch: 'item', read: 'item', view: 'item', inspect: 'item', describe: 'item',
  update: 'item', edit: 'item', change: 'item', modify: 'item', rename: 'item', replace: 'item',
  delete: 'item', remove: 'item', destroy: 'item', erase: 'item',
});
