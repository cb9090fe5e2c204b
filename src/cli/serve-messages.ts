// What `serve --http` tells people: the client configurations in each client's own shape (the label always
// matches the JSON under it), and a listen failure as one line naming the port and the flag that fixes it.
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
