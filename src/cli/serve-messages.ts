// What `serve --http` tells people: the URL clients use (one the Host check accepts), the client configurations in
// each client's own shape (the label always matches the JSON under it), and a listen failure as one line naming the
// port and the flag that fixes it.
import { isWildcardHost, parseAllowHost, type HttpConfig } from '../config.js';
import { AppError } from '../errors.js';
import { clientConfigs } from '../server/auth/client-config.js';

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
