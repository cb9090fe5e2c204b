// Argument parsing for the CLI subcommands, on Node's util.parseArgs: `--name value`, `--name=value`, boolean
// `--flag`, repeatable valued flags. Only src/cli/ reads argv; this turns parse failures into AppError
// CONFIG_INVALID naming the command and the option, with where to look for help.
import { parseArgs } from 'node:util';
import { SERVE_OPTIONS, flagKey, type OptionSpec, type ServeFlags } from '../config.js';
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
 * Parses `serve` argv into flags, from the option table (SERVE_OPTIONS): valued flags keep their last value
 * (lists keep every one), boolean flags are true (`--no-x` flags set x to false). Throws CONFIG_INVALID naming
 * an unknown flag or a missing value. `--verbose` is accepted and ignored.
 */
export function parseServeArgs(argv: readonly string[]): ServeFlags {
  const withFlag = (SERVE_OPTIONS as readonly OptionSpec[]).filter((o) => o.flag !== undefined);
  const a = splitArgs(
    'serve',
    argv,
    withFlag.filter((o) => o.type !== 'boolean').map((o) => o.flag as string),
    [...withFlag.filter((o) => o.type === 'boolean').map((o) => o.flag as string), '--verbose'],
  );
  if (a.positionals.length > 0) {
    throw new AppError('CONFIG_INVALID', `serve: unexpected argument ${JSON.stringify(a.positionals[0])}; run \`api-catalog serve --help\``);
  }
  const flags: Record<string, unknown> = {};
  for (const o of withFlag) {
    const flag = o.flag as string;
    const key = flagKey(flag);
    if (o.type === 'boolean') {
      if (a.booleans.has(flag)) flags[key] = !o.negate;
    } else {
      const values = a.values[flag];
      if (values !== undefined) flags[key] = o.type === 'list' ? values : values.at(-1);
    }
  }
  return flags as ServeFlags;
}
