// The servers and security requirements of an operation: the document's own (Swagger 2.0's scheme, host and
// basePath; OAS 3's servers with their variables), overridden by a path item's or an operation's. No I/O.
// @see https://spec.openapis.org/oas/v3.1.0#server-object and https://spec.openapis.org/oas/v3.1.0#security-requirement-object
import type { SecurityRequirement, ServerInfo } from '../types.js';
import { warn, type BuildContext, type RawOperation } from './context.js';
import { isObject, setOwn } from './pointer.js';
import { cleanLine, credentialNamed, stripInvisible } from './text.js';

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:\/\//i;

function serverInfo(node: unknown, ctx: BuildContext, at: string): ServerInfo | undefined {
  if (!isObject(node) || typeof node.url !== 'string') return undefined;
  let url = stripInvisible(node.url).trim();
  if (ctx.baseUrl && !ABSOLUTE.test(url) && !url.includes('{')) {
    try {
      url = new URL(url, ctx.baseUrl).toString().replace(/\/$/, '');
    } catch {
      /* keep as written */
    }
  }
  // `//host/path` (protocol-relative) takes the scheme of the spec's URL; read from a file there is none: https
  if (url.startsWith('//')) {
    const scheme = ctx.baseUrl !== undefined ? new URL(ctx.baseUrl).protocol : 'https:';
    if (ctx.baseUrl === undefined) warnProtocolRelative(ctx, at, url);
    url = `${scheme}${url}`;
  }
  const info: ServerInfo = { url };
  const desc = cleanLine(node.description, 200);
  if (desc !== '') info.description = desc;
  if (isObject(node.variables)) {
    const vars: NonNullable<ServerInfo['variables']> = {};
    for (const name of Object.keys(node.variables)) {
      const v = node.variables[name];
      if (!isObject(v)) continue;
      const entry: { default: string; enum?: string[]; description?: string } = { default: String(v.default ?? '') };
      if (Array.isArray(v.enum)) entry.enum = v.enum.map(String);
      const d = cleanLine(v.description, 200);
      if (d !== '') entry.description = d;
      setOwn(vars, name, entry);
    }
    info.variables = vars;
  }
  return info;
}

/**
 * Whether a server URL, its variables at their defaults, has no scheme and host (`/`, `/api/v1`, `//host/x`):
 * execution needs an absolute base URL, so such a server cannot be called as it is. Undefined when a variable
 * is not declared (what it stands for is unknown).
 */
function isRelative(server: ServerInfo): boolean | undefined {
  let unknown = false;
  const url = server.url.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const v = server.variables?.[name];
    if (v === undefined) unknown = true;
    return v?.default ?? '';
  });
  return unknown ? undefined : !ABSOLUTE.test(url);
}

/**
 * The servers of one list (`at`: the pointer of the list), in the order execution tries them: an `https://` server
 * goes before its plain `http://` twin (the same URL over http), so a spec listing `http://x` first still gets
 * https (a credential is never sent over plain http); otherwise the spec's order.
 */
function serverList(list: unknown[], at: string, ctx: BuildContext): Array<{ info: ServerInfo; at: string }> {
  const servers = list.map((s, i) => ({ info: serverInfo(s, ctx, `${at}/${i}`), at: `${at}/${i}` })).filter((s): s is { info: ServerInfo; at: string } => s.info !== undefined);
  for (const s of servers) warnUserinfo(ctx, s.at, s.info);
  const rest = (url: string): string => url.replace(/^https?:\/\//i, '').replace(/\/+$/, '');
  const httpsTwin = new Map<string, (typeof servers)[number]>();
  for (const s of servers) if (/^https:\/\//i.test(s.info.url) && !httpsTwin.has(rest(s.info.url))) httpsTwin.set(rest(s.info.url), s);
  const ordered: typeof servers = [];
  for (const s of servers) {
    if (ordered.includes(s)) continue;
    const twin = /^http:\/\//i.test(s.info.url) ? httpsTwin.get(rest(s.info.url)) : undefined;
    if (twin !== undefined && !ordered.includes(twin)) ordered.push(twin);
    ordered.push(s);
  }
  return ordered;
}

/**
 * Document servers (Swagger 2.0: scheme + host + basePath, https preferred; OAS 3: https before its http twin,
 * serverList). Execution calls the first one, so an absolute server goes before relative ones
 * (`["/", "http://adobe.local"]`); when there is none, the first call would fail, so the import says so now
 * (SERVER_RELATIVE, or SERVER_MISSING for a spec that names no server at all), naming the settings that give the
 * base URL. A URL spec's relative servers are resolved against its URL (serverInfo) and are absolute by then.
 */
export function documentServers(ctx: BuildContext): ServerInfo[] {
  const doc = ctx.doc;
  if (ctx.kind === 'swagger2') {
    const schemes = Array.isArray(doc.schemes) ? doc.schemes.filter((s): s is string => typeof s === 'string') : [];
    const scheme = schemes.length === 0 || schemes.includes('https') ? 'https' : (schemes[0] as string);
    const basePath = typeof doc.basePath === 'string' ? doc.basePath.replace(/\/$/, '') : '';
    if (typeof doc.host === 'string' && doc.host !== '') {
      const server = { url: `${scheme}://${stripInvisible(doc.host)}${basePath}` };
      warnUserinfo(ctx, '#/host', server);
      return [server];
    }
    if (ctx.baseUrl) return [{ url: new URL(basePath || '/', ctx.baseUrl).toString().replace(/\/$/, '') }];
    if (!basePath) {
      warnMissing(ctx, '#/host', 'has no `host` and no `basePath`');
      return [];
    }
    warnRelative(ctx, '#/basePath', basePath, 'has no `host`');
    return [{ url: basePath }];
  }
  const servers = serverList(Array.isArray(doc.servers) ? doc.servers : [], '#/servers', ctx);
  if (servers.length === 0) {
    warnMissing(ctx, '#/servers', Array.isArray(doc.servers) && doc.servers.length > 0 ? 'lists no server with a `url`' : 'has no `servers`');
    return [];
  }
  const relative = servers.filter((s) => isRelative(s.info) === true);
  if (relative.length > 0 && relative.length === servers.length) warnRelative(ctx, relative[0]!.at, relative[0]!.info.url, 'lists no absolute server');
  const ordered = [...servers.filter((s) => isRelative(s.info) !== true), ...relative];
  // execution calls the first document server: the others' variables are never filled into a request
  warnVariableDefaults(ctx, ordered[0]!.at, ordered[0]!.info);
  return ordered.map((s) => s.info);
}

/** The settings that give a catalog its base URL, for the warnings below. */
const BASE_URL_SETTINGS =
  '(serve, call), the <CATALOG>_BASE_URL environment variable (the catalog name in capitals), or catalogs.<catalog>.baseUrl in the config file';

function warnRelative(ctx: BuildContext, at: string, url: string, why: string): void {
  warn(
    ctx,
    'SERVER_RELATIVE',
    at,
    `the API's server URL ${JSON.stringify(url)} is relative and the spec ${why}, so calls have no host to go to until you set the base URL: ` +
      `--base-url https://<host>${url === '/' ? '' : url} ${BASE_URL_SETTINGS}; or import the spec from its URL, which relative servers resolve against`,
  );
}

/** A spec that names no server at all: OAS 3 without `servers` (from a file or a URL), Swagger 2.0 from a file without `host` and `basePath`. */
function warnMissing(ctx: BuildContext, at: string, why: string): void {
  warn(
    ctx,
    'SERVER_MISSING',
    at,
    `the spec ${why}, so calls have no host to go to until you set the base URL: --base-url https://<host>/<base path> ${BASE_URL_SETTINGS}`,
  );
}

/** `//host/path` read from a file: taken as https, and said so (an http-only API needs the base URL set). */
function warnProtocolRelative(ctx: BuildContext, at: string, url: string): void {
  if (ctx.diagnostics.some((d) => d.code === 'SERVER_PROTOCOL_RELATIVE' && d.pointer === at)) return;
  warn(
    ctx,
    'SERVER_PROTOCOL_RELATIVE',
    at,
    `the API's server URL ${JSON.stringify(url)} has no scheme (protocol-relative) and the spec was read from a file, so it is taken as https:${url}; ` +
      `if the API answers only over http, set the base URL: --base-url http:${url} ${BASE_URL_SETTINGS}`,
  );
}

/**
 * A server URL (its variables at their defaults) with a user name or password: execution never sends one (a base
 * URL with userinfo is refused, an operation's server too), so the import says so now (SERVER_USERINFO), naming the
 * settings to use instead. The userinfo itself is never repeated: it is a credential.
 */
function warnUserinfo(ctx: BuildContext, at: string, server: ServerInfo): void {
  let url: URL;
  try {
    url = new URL(server.url.replace(/\{([^}]+)\}/g, (_m, name: string) => server.variables?.[name]?.default ?? 'x'));
  } catch {
    return;
  }
  if (url.username === '' && url.password === '') return;
  // a path item's servers are every one of its operations': said once
  if (ctx.diagnostics.some((d) => d.code === 'SERVER_USERINFO' && d.pointer === at)) return;
  warn(
    ctx,
    'SERVER_USERINFO',
    at,
    `the API's server URL ${url.protocol}//${url.host} carries a user name or password (user:password@), which api-catalog never sends from a URL: calls to it are refused until you ` +
      `set a base URL without them (--base-url, the <CATALOG>_BASE_URL environment variable or catalogs.<catalog>.baseUrl in the config file) ` +
      'and put the credential in the credential environment variables (<CATALOG>_USERNAME and <CATALOG>_PASSWORD for HTTP basic)',
  );
}

/**
 * A server URL whose variables without an `enum` execution fills with the spec's `default` (F6: arguments never
 * reach them): Telegram's `bot{token}` with the spec author's sample token, Intellifi's `{customer}` sub-domain
 * `brain`. Every call would go there, so the import says so (SERVER_VARIABLE_DEFAULT), naming each such variable
 * and its default, and the base URL settings that replace the server (a URL with `<name>` in each variable's place).
 * A variable whose name says it holds a credential (credentialNamed: `token`, `apiKey`) keeps its default unsaid.
 */
function warnVariableDefaults(ctx: BuildContext, at: string, server: ServerInfo): void {
  const used = new Set([...server.url.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!));
  const free = [...used].filter((name) => {
    const v = server.variables?.[name];
    return v !== undefined && (v.enum === undefined || v.enum.length === 0);
  });
  if (free.length === 0) return;
  // a path item's servers are every one of its operations': said once
  if (ctx.diagnostics.some((d) => d.code === 'SERVER_VARIABLE_DEFAULT' && d.pointer === `${at}/variables`)) return;
  const named = free.map((name) =>
    credentialNamed(name)
      ? `{${name}} (default not repeated: its name says it holds a credential)`
      : `{${name}} (default ${JSON.stringify(server.variables![name]!.default)})`,
  );
  let example = server.url.replace(/\{([^}]+)\}/g, (_m, name: string) => (free.includes(name) ? `<${name}>` : (server.variables?.[name]?.default ?? `<${name}>`)));
  if (!ABSOLUTE.test(example)) example = `https://<host>${example.startsWith('/') ? '' : '/'}${example}`;
  const secret = free.some(credentialNamed) ? '; that base URL then holds the credential, so keep the setting as secret as one (dry runs and errors show the URL)' : '';
  warn(
    ctx,
    'SERVER_VARIABLE_DEFAULT',
    `${at}/variables`,
    `the API's server URL ${JSON.stringify(server.url)} has ${free.length === 1 ? 'a variable' : 'variables'} without an enum, ${named.join(', ')}: ` +
      `calls fill in the spec's default, likely the author's sample (someone else's tenant, account or token), until you set the base URL: ` +
      `--base-url ${example} ${BASE_URL_SETTINGS}${secret}`,
  );
}

/** An operation's own servers, else its path item's (https before an http twin, serverList); none: the document's. */
export function effectiveServers(raw: RawOperation, ctx: BuildContext): ServerInfo[] {
  if (ctx.kind === 'swagger2') return [];
  for (const [holder, at] of [[raw.op, raw.at], [raw.pathItem, raw.at.replace(/\/[^/]+$/, '')]] as const) {
    if (Array.isArray(holder.servers) && holder.servers.length > 0) {
      const servers = serverList(holder.servers, `${at}/servers`, ctx);
      // execution calls the first of these on a trusted origin: any of them may be the one
      for (const s of servers) warnVariableDefaults(ctx, s.at, s.info);
      return servers.map((s) => s.info);
    }
  }
  return [];
}

function normalizeSecurity(list: unknown): SecurityRequirement[] {
  if (!Array.isArray(list)) return [];
  const out: SecurityRequirement[] = [];
  for (const req of list) {
    if (!isObject(req)) continue;
    const r: SecurityRequirement = {};
    for (const name of Object.keys(req)) {
      const scopes = req[name];
      setOwn(r, name, Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string') : []);
    }
    out.push(r);
  }
  return out;
}

export function effectiveSecurity(op: Record<string, unknown>, ctx: BuildContext): SecurityRequirement[] {
  return Object.hasOwn(op, 'security') ? normalizeSecurity(op.security) : normalizeSecurity(ctx.doc.security);
}
