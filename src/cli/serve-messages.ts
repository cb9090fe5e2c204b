// What `serve --http` tells people: the start banner, with the URL clients use (one the Host check accepts) and
// the client configurations in each client's own shape (the label always matches the JSON under it), and a listen
// failure as one line naming the port and the flag that fixes it.
import { isWildcardHost, parseAllowHost, type HttpConfig } from '../config.js';
import { AppError } from '../errors.js';
import { authorizationPlaceholder, clientConfigs } from '../server/auth/client-config.js';
import type { SignerSource } from '../server/signing.js';

/** Where the HTTP server's signing key came from, for the start-up banner (never the key). */
const SIGNING_SOURCES: Record<SignerSource, string> = {
  env: 'API_CATALOG_SIGNING_KEY',
  state: 'generated once, shared through the state store',
  process: 'random for this process (replicas behind one balancer need --state, or API_CATALOG_SIGNING_KEY for all but confirmations)',
};

/** What the start banner of `serve --http` reports, once the server listens. */
export interface BannerFacts {
  /** The catalogs served, with their operation counts. */
  what: string;
  /** The served catalogs' names, when more than one: each takes its caller's token from its own header. */
  catalogNames?: readonly string[];
  /** The handle's URL (the bound address) and port. */
  listening: string;
  port: number;
  http: Pick<HttpConfig, 'host' | 'publicUrl' | 'allowHosts' | 'authToken' | 'oauthIssuer' | 'explorer'>;
  /** OAuth: the resource tokens name and the Protected Resource Metadata URL. */
  oauth?: { resource: string; metadataUrl: string };
  /** Named tokens: the names in force (the file as read at start, or as re-read since), how many, from where. */
  tokens?: { names: string[]; size: number; file: string };
  state: { where: string; shared: boolean };
  shutdownGraceMs: number;
  auditLog?: string;
  signing: SignerSource;
  version: string | undefined;
  watch: boolean;
}

/** The start banner of `serve --http` (stderr): where clients connect and how, and what this replica runs with. */
export function httpBanner(f: BannerFacts): string {
  const h = f.http;
  // The token itself is never printed: the config shows where it goes, with a placeholder naming whose it is.
  const authorization = authorizationPlaceholder({
    staticToken: h.authToken !== undefined,
    oauth: h.oauthIssuer !== undefined,
    ...(f.tokens !== undefined ? { tokenNames: f.tokens.names } : {}),
  });
  // what clients use: never the wildcard address, which the server's own Host check refuses
  const client = bannerUrl(f.listening, f.port, h);
  return [
    `api-catalog: serving ${f.what} over Streamable HTTP`,
    `  URL: ${client.url}`,
    ...(client.note !== undefined ? [`  Note: ${client.note}`] : []),
    ...(f.oauth !== undefined ? [`  OAuth: tokens from ${h.oauthIssuer} for resource ${f.oauth.resource}; metadata at ${f.oauth.metadataUrl}`] : []),
    ...(h.explorer ? [`  Catalog explorer: ${client.url.replace(/\/mcp$/, '/')}`] : []),
    ...clientConfigLines(client.url, authorization),
    f.catalogNames !== undefined && f.catalogNames.length > 1
      ? `  Upstream credentials: send header X-Upstream-Token-<catalog> (${f.catalogNames.slice(0, 3).map((n) => `X-Upstream-Token-${n}`).join(', ')}${f.catalogNames.length > 3 ? ', ...' : ''}) with each request, or set the env vars \`api-catalog describe <name>\` names.`
      : '  Upstream credential: send header X-Upstream-Token with each request, or set the env vars `api-catalog describe <name>` names.',
    `  State: ${f.state.where}${f.state.shared ? ' (shared: replicas serve each other\'s legacy sessions and share rate limits)' : ' (this process only)'}`,
    `  Probes: ${f.listening.replace(/\/mcp$/, '')}/healthz (live), /readyz (ready), /metrics (Prometheus); shutdown grace ${f.shutdownGraceMs / 1000} s`,
    ...(f.tokens !== undefined ? [`  Named tokens: ${f.tokens.size} from ${f.tokens.file} (re-read on change)`] : []),
    `  Audit log: ${f.auditLog ?? 'on the log stream (event "audit")'}`,
    // the key alone carries handles between replicas, not the record of used confirmations (one approval, one call)
    `  Signing key: ${SIGNING_SOURCES[f.signing]}${f.signing === 'env' && !f.state.shared ? ' (confirmations are accepted by this process only: several replicas need --state)' : ''}`,
    `  Catalog version: ${f.version ?? 'unknown'}; reloaded on SIGHUP${f.watch ? ' and when a registry\'s catalog.json changes' : ''}`,
    '  Stop with Ctrl-C.',
    '',
  ].join('\n');
}

/**
 * Banner lines with a ready-to-paste config for each kind of client (client-config.ts's, as the /mcp page shows
 * them). `authorization` (the bearer placeholder) never holds a secret.
 */
export function clientConfigLines(url: string, authorization?: string): string[] {
  return clientConfigs(url, authorization).flatMap((c) => [
    `  Client config, ${c.clients.map((k) => `${k.name} (${k.file})`).join(' and ')}:`,
    '  ' + JSON.stringify(c.config),
  ]);
}

/**
 * The MCP URL the banner gives clients: one the server's own Host check accepts. The --public-url when set (the URL
 * clients use, and OAuth's audience); on a wildcard bind (0.0.0.0, ::), whose address is no Host the server takes, the
 * first --allow-host name that fits the port, else loopback, with `note` saying what to set for other machines.
 */
export function bannerUrl(listening: string, port: number, h: Pick<HttpConfig, 'host' | 'publicUrl' | 'allowHosts'>): { url: string; note?: string } {
  if (h.publicUrl !== undefined) return { url: h.publicUrl };
  if (!isWildcardHost(h.host)) return { url: listening };
  const path = new URL(listening).pathname;
  const named = h.allowHosts.map(parseAllowHost).find((a) => a !== undefined && (a.port === undefined || a.port === String(port)));
  const note =
    `listening on all interfaces (${h.host}), but requests must name a Host this server accepts: loopback, --allow-host ` +
    'values, the --public-url host; for other machines set --allow-host <the name they use>, or --public-url https://<name>/mcp behind a TLS proxy';
  return named !== undefined ? { url: `http://${named.host}:${port}${path}` } : { url: `http://127.0.0.1:${port}${path}`, note };
}

/** A failure to listen as an AppError that names the address and the flag to change; other errors unchanged. */
export function listenError(err: unknown, host: string, port: number): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (code === 'EADDRINUSE') {
    return new AppError(
      'CONFIG_INVALID',
      `serve: port ${port} is already in use on ${host} (another server is listening at ${where}); choose another with --port <n> (or --port 0 for any free port), or stop the other process`,
    );
  }
  if (code === 'EACCES') {
    return new AppError('CONFIG_INVALID', `serve: not allowed to listen on port ${port} (ports below 1024 need privileges); choose another with --port <n>`);
  }
  if (code === 'EADDRNOTAVAIL') {
    return new AppError('CONFIG_INVALID', `serve: ${host} is not an address of this machine; choose one with --host (default 127.0.0.1)`);
  }
  return err;
}
