// Argument parsing for the CLI subcommands, on Node's util.parseArgs: `--name value`, `--name=value`, boolean
// `--flag`, repeatable valued flags. Only src/cli/ reads argv; this turns parse failures into AppError
// CONFIG_INVALID naming the command and the option, with where to look for help.
import { parseArgs } from 'node:util';
import type { ServeFlags } from '../config.js';
import { AppError } from '../errors.js';

/** Flags and positionals of a subcommand: valued flags collect every occurrence. Keys keep their `--`. */
export interface SplitArgs {
  positionals: string[];
  values: Record<string, string[]>;
  booleans: Set<string>;
}

function optionIn(message: string): string {
  return /'(--?[^'\s<=]+)/.exec(message)?.[1] ?? '';
}

/**
 * Splits argv by a flag table (flag names with their leading `--`). Throws CONFIG_INVALID on an unknown flag
 * or a missing value, naming it.
 */
export function splitArgs(command: string, argv: readonly string[], valued: readonly string[], booleans: readonly string[]): SplitArgs {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {};
  for (const v of valued) options[v.slice(2)] = { type: 'string', multiple: true };
  for (const b of booleans) options[b.slice(2)] = { type: 'boolean' };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    const code = (err as { code?: string }).code;
    const option = optionIn(message);
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && valued.includes(option)) {
      throw new AppError('CONFIG_INVALID', `${command}: ${option} needs a value`);
    }
    throw new AppError(
      'CONFIG_INVALID',
      `${command}: unknown option ${JSON.stringify(option || message)}; run \`api-catalog ${command} --help\``,
    );
  }
  const out: SplitArgs = { positionals: parsed.positionals, values: {}, booleans: new Set() };
  for (const [name, value] of Object.entries(parsed.values)) {
    if (Array.isArray(value)) out.values[`--${name}`] = value.map(String);
    else if (value === true) out.booleans.add(`--${name}`);
  }
  return out;
}

/**
 * Parses `serve` argv into flags. Throws CONFIG_INVALID naming an unknown flag or a missing value.
 * Boolean flags: --read-only, --no-require-describe, --http, --allow-remote (and --verbose, accepted).
 */
export function parseServeArgs(argv: readonly string[]): ServeFlags {
  const a = splitArgs(
    'serve',
    argv,
    ['--registry', '--base-url', '--prefix', '--host', '--port', '--allow-origin', '--allow-host', '--config', '--oauth-issuer', '--public-url'],
    ['--read-only', '--no-require-describe', '--http', '--allow-remote', '--verbose'],
  );
  if (a.positionals.length > 0) {
    throw new AppError('CONFIG_INVALID', `serve: unexpected argument ${JSON.stringify(a.positionals[0])}; run \`api-catalog serve --help\``);
  }
  const last = (flag: string): string | undefined => a.values[flag]?.at(-1);
  const flags: ServeFlags = {};
  if (a.values['--registry']) flags.registry = a.values['--registry'];
  if (a.values['--allow-origin']) flags.allowOrigin = a.values['--allow-origin'];
  if (a.values['--allow-host']) flags.allowHost = a.values['--allow-host'];
  const baseUrl = last('--base-url');
  if (baseUrl !== undefined) flags.baseUrl = baseUrl;
  const prefix = last('--prefix');
  if (prefix !== undefined) flags.prefix = prefix;
  const host = last('--host');
  if (host !== undefined) flags.host = host;
  const port = last('--port');
  if (port !== undefined) flags.port = port;
  const config = last('--config');
  if (config !== undefined) flags.config = config;
  const oauthIssuer = last('--oauth-issuer');
  if (oauthIssuer !== undefined) flags.oauthIssuer = oauthIssuer;
  const publicUrl = last('--public-url');
  if (publicUrl !== undefined) flags.publicUrl = publicUrl;
  if (a.booleans.has('--read-only')) flags.readOnly = true;
  if (a.booleans.has('--no-require-describe')) flags.requireDescribe = false;
  if (a.booleans.has('--http')) flags.http = true;
  if (a.booleans.has('--allow-remote')) flags.allowRemote = true;
  return flags;
}
