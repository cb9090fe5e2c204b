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

/** The embeddings endpoint flags serve, search and eval accept (the key comes from the environment only). */
export const EMBEDDINGS_FLAGS = ['--embeddings-url', '--embeddings-model', '--embeddings-dimensions'] as const;

/** The embeddings flags given, or undefined when none was. */
export function embeddingsFlags(a: SplitArgs): { url?: string; model?: string; dimensions?: string } | undefined {
  const out: { url?: string; model?: string; dimensions?: string } = {};
  const url = a.values['--embeddings-url']?.at(-1);
  const model = a.values['--embeddings-model']?.at(-1);
  const dimensions = a.values['--embeddings-dimensions']?.at(-1);
  if (url !== undefined) out.url = url;
  if (model !== undefined) out.model = model;
  if (dimensions !== undefined) out.dimensions = dimensions;
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * Parses `serve` argv into flags. Throws CONFIG_INVALID naming an unknown flag or a missing value.
 * Boolean flags: --read-only, --no-require-describe, --http, --allow-remote, --no-explorer (and --verbose, accepted).
 */
export function parseServeArgs(argv: readonly string[]): ServeFlags {
  const a = splitArgs(
    'serve',
    argv,
    ['--registry', '--base-url', '--prefix', '--host', '--port', '--allow-origin', '--allow-host', '--config', '--search-log', '--search-log-max-bytes', '--include-domains', '--exclude-domains', '--exclude-tools', '--state', '--rate-limit', '--read-rate-limit', ...EMBEDDINGS_FLAGS],
    ['--read-only', '--no-require-describe', '--http', '--allow-remote', '--verbose', '--no-explorer'],
  );
  if (a.positionals.length > 0) {
    throw new AppError('CONFIG_INVALID', `serve: unexpected argument ${JSON.stringify(a.positionals[0])}; run \`api-catalog serve --help\``);
  }
  const last = (flag: string): string | undefined => a.values[flag]?.at(-1);
  const flags: ServeFlags = {};
  if (a.values['--registry']) flags.registry = a.values['--registry'];
  if (a.values['--allow-origin']) flags.allowOrigin = a.values['--allow-origin'];
  if (a.values['--allow-host']) flags.allowHost = a.values['--allow-host'];
  if (a.values['--include-domains']) flags.includeDomains = a.values['--include-domains'];
  if (a.values['--exclude-domains']) flags.excludeDomains = a.values['--exclude-domains'];
  if (a.values['--exclude-tools']) flags.excludeTools = a.values['--exclude-tools'];
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
  const searchLog = last('--search-log');
  if (searchLog !== undefined) flags.searchLog = searchLog;
  const searchLogMaxBytes = last('--search-log-max-bytes');
  if (searchLogMaxBytes !== undefined) flags.searchLogMaxBytes = searchLogMaxBytes;
  if (a.booleans.has('--no-explorer')) flags.explorer = false;
  const embeddings = embeddingsFlags(a);
  if (embeddings !== undefined) flags.embeddings = embeddings;
  const state = last('--state');
  if (state !== undefined) flags.state = state;
  const rateLimit = last('--rate-limit');
  if (rateLimit !== undefined) flags.rateLimit = rateLimit;
  const readRateLimit = last('--read-rate-limit');
  if (readRateLimit !== undefined) flags.readRateLimit = readRateLimit;
  if (a.booleans.has('--read-only')) flags.readOnly = true;
  if (a.booleans.has('--no-require-describe')) flags.requireDescribe = false;
  if (a.booleans.has('--http')) flags.http = true;
  if (a.booleans.has('--allow-remote')) flags.allowRemote = true;
  return flags;
}
