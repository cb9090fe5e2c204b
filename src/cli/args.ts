// Argument parsing for the CLI subcommands, on Node's util.parseArgs: `--name value`, `--name=value`, boolean
// `--flag`, repeatable valued flags. Only src/cli/ reads argv. A bad flag or command is a UsageError: one line
// that names the command and the bad flag, with "did you mean" and where the options are listed (exit 2).
import { parseArgs } from 'node:util';
import { SERVE_OPTIONS, flagKey, httpFlagsWithoutHttp, resolveOptions, type OptionSpec, type ServeFlags } from '../config.js';
import { endpointUrl, FUSIONS } from '../embeddings/config.js';
import { closest } from '../did-you-mean.js';
import { AppError, isAppError } from '../errors.js';

export { closest };

/**
 * A mistake on the command line (unknown flag or command, a flag without its value, a stray argument). The CLI
 * prints its message as one line and exits 2. CONFIG_INVALID for callers that handle AppErrors alike.
 */
export class UsageError extends AppError {
  readonly usage = true;
  constructor(message: string) {
    super('CONFIG_INVALID', message);
    this.name = 'UsageError';
  }
}

export function isUsageError(err: unknown): err is UsageError {
  return err instanceof UsageError;
}

/** " (did you mean --limit?)" or "". */
export function didYouMean(typed: string, candidates: readonly string[]): string {
  const near = closest(typed, candidates);
  return near.length === 0 ? '' : ` (did you mean ${near.join(' or ')}?)`;
}

/** "a", "a or b", "a, b or c". */
function orList(values: readonly string[]): string {
  return values.length <= 1 ? (values[0] ?? '') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}

// Checks of a flag's value, shared by every command: a value of the wrong kind is a mistake on the command line
// (UsageError, exit 2) that names the flag, what it takes and what was given, with "did you mean" where one is close.

/** `value` of `flag` must be one of `allowed`: "describe: --detail must be summary, parameters or full, got "ful" (did you mean full?)". */
export function oneOf<T extends string>(command: string, flag: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${command}: ${flag} must be ${orList(allowed)}, got ${JSON.stringify(value)}${didYouMean(value, allowed)}`);
}

/** `value` of `flag` as a whole number within `min`..`max` (digits only: no sign, no decimals, no unit). */
export function wholeNumber(command: string, flag: string, value: string, range: { min?: number; max?: number } = {}): number {
  const min = range.min ?? 0;
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (Number.isSafeInteger(n) && n >= min && (range.max === undefined || n <= range.max)) return n;
  const what = range.max !== undefined ? ` from ${min} to ${range.max}` : min > 0 ? ` >= ${min}` : '';
  throw new UsageError(`${command}: ${flag} must be a whole number${what}, got ${JSON.stringify(value)}`);
}

/** `raw` of `flag` as a JSON object; `example` is a value that works, shown quoted as the shell needs it. */
export function jsonObject(command: string, flag: string, raw: string, example: string): Record<string, unknown> {
  const like = `like ${flag} '${example}'`;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    const why = err instanceof Error ? err.message.replace(/^.*?JSON[^:]*: ?/, '').slice(0, 80) : '';
    throw new UsageError(`${command}: ${flag} is not valid JSON${why ? ` (${why})` : ''}; quote it whole in single quotes, ${like}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    throw new UsageError(`${command}: ${flag} must be a JSON object, got ${kind}; ${like}`);
  }
  return value as Record<string, unknown>;
}

/**
 * `value` of `flag` must be one of the loaded `names` (a domain, a catalog): the closest, all of them when they are
 * few, and the command that lists them (`listedBy`).
 */
export function knownName(command: string, flag: string, value: string, what: string, names: readonly string[], listedBy: string): string {
  if (names.includes(value)) return value;
  const which = names.length <= 8 ? `the ${what}s are ${names.join(', ')} (\`${listedBy}\` describes them)` : `\`${listedBy}\` lists the ${what}s`;
  // With several catalogs every name carries its catalog's prefix (stripe.customers): a bare `customers`, or a typo
  // of it, is far from the whole name but is the part after the prefix: the catalogs that have it exactly, else
  // the ones close to it, then the names close as a whole.
  const bare = (n: string): string => n.slice(n.indexOf('.') + 1);
  const prefixed = value.includes('.') ? [] : names.filter((n) => n.includes('.'));
  const wanted = closest(value, [...new Set(prefixed.map(bare))]);
  const byBare = prefixed.filter((n) => wanted.includes(bare(n))).sort((a, b) => wanted.indexOf(bare(a)) - wanted.indexOf(bare(b)));
  const exact = prefixed.filter((n) => bare(n) === value);
  const near = exact.length > 0 ? exact : [...new Set([...byBare, ...closest(value, names)])].slice(0, 3);
  const hint = near.length === 0 ? '' : ` (did you mean ${near.join(' or ')}?)`;
  throw new UsageError(`${command}: ${flag} ${JSON.stringify(value)} is not a ${what} here${hint}; ${which}`);
}

/** The embeddings flags several commands share (search, import, embed, eval): their values, checked before any work. */
export function checkEmbeddingsFlags(command: string, values: { 'embeddings-url'?: string | undefined; 'embeddings-dimensions'?: string | undefined; fusion?: string | undefined }): void {
  const url = values['embeddings-url'];
  if (url !== undefined) {
    try {
      endpointUrl(url.trim());
    } catch (err) {
      if (!isAppError(err)) throw err;
      throw new UsageError(`${command}: --embeddings-url ${err.message.replace(/^embeddings: URL /, '')}`);
    }
  }
  const dimensions = values['embeddings-dimensions'];
  if (dimensions !== undefined) wholeNumber(command, '--embeddings-dimensions', dimensions, { min: 1, max: 16_384 });
  if (values.fusion !== undefined) oneOf(command, '--fusion', values.fusion, FUSIONS);
}

export type OptionTable = Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }>;

function helpHint(command: string): string {
  return `run \`api-catalog ${command} --help\` for its options`;
}

/** Why util.parseArgs refused argv, found from its tokens (its own messages quote unevenly and suggest nothing). */
function usageProblem(command: string, argv: readonly string[], options: OptionTable, positionals: boolean): UsageError {
  const { tokens } = parseArgs({ args: [...argv], options, allowPositionals: true, strict: false, tokens: true });
  const flags = Object.keys(options).map((k) => `--${k}`);
  for (const t of tokens) {
    if (t.kind === 'option') {
      const spec = options[t.name];
      if (spec === undefined) {
        return new UsageError(`${command}: unknown option ${JSON.stringify(t.rawName)}${didYouMean(t.rawName.startsWith('--') ? t.rawName : `--${t.name}`, flags)}; ${helpHint(command)}`);
      }
      if (spec.type === 'string' && t.value === undefined) return new UsageError(`${command}: ${t.rawName} needs a value (${t.rawName} <value>)`);
      // `--offset -1`: a value that looks like an option is refused as ambiguous; it can only follow "="
      if (spec.type === 'string' && t.inlineValue === false && t.value?.startsWith('-')) {
        return new UsageError(`${command}: ${t.rawName} needs a value; one that starts with "-" goes after "=" (${t.rawName}=${t.value})`);
      }
      if (spec.type === 'boolean' && t.inlineValue === true) return new UsageError(`${command}: ${t.rawName} takes no value (write ${t.rawName} alone)`);
    } else if (t.kind === 'positional' && !positionals) {
      return new UsageError(`${command}: unexpected argument ${JSON.stringify(t.value)}; ${helpHint(command)}`);
    }
  }
  return new UsageError(`${command}: cannot read the arguments; ${helpHint(command)}`);
}

// Flags that name a folder or file, where an empty value (`--registry ""`, `--registry "$DIR"` with DIR unset) is
// a mistake on the command line, whatever the command: one line and exit 2, before the config's schema sees it.
const EMPTY_REFUSED: Record<string, string> = { registry: 'a registry folder, e.g. --registry registry/github', config: 'a config file, e.g. --config api-catalog.json' };

function emptyValue(command: string, flag: string, takes: string): string {
  return `${command}: ${flag} is empty; it takes ${takes} (is a shell variable unset?)`;
}

/**
 * util.parseArgs (strict) for a subcommand, with its failures turned into one-line UsageErrors: an unknown
 * option with "did you mean", a valued option without its value, a value on a boolean, a stray argument, an
 * empty folder or file name (EMPTY_REFUSED).
 */
export function parseCommand<T extends OptionTable>(command: string, argv: readonly string[], options: T, config: { positionals?: boolean } = {}) {
  const positionals = config.positionals !== false;
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: positionals, strict: true });
  } catch (err) {
    if ((err as { code?: unknown }).code?.toString().startsWith('ERR_PARSE_ARGS')) throw usageProblem(command, argv, options, positionals);
    throw err;
  }
  for (const [name, takes] of Object.entries(EMPTY_REFUSED)) {
    if (options[name]?.type !== 'string') continue;
    const v: unknown = (parsed.values as Record<string, unknown>)[name];
    if (v === '' || (Array.isArray(v) && v.includes(''))) throw new UsageError(emptyValue(command, `--${name}`, takes));
  }
  return parsed;
}

/** Flags and positionals of a subcommand: valued flags collect every occurrence. Keys keep their `--`. */
export interface SplitArgs {
  positionals: string[];
  values: Record<string, string[]>;
  booleans: Set<string>;
}

/**
 * Splits argv by a flag table (flag names with their leading `--`). Throws a UsageError on an unknown flag
 * (with "did you mean") or a missing value, naming it. `--verbose` is always accepted (stack traces).
 */
export function splitArgs(command: string, argv: readonly string[], valued: readonly string[], booleans: readonly string[]): SplitArgs {
  const options: OptionTable = {};
  for (const v of valued) options[v.slice(2)] = { type: 'string', multiple: true };
  for (const b of booleans) options[b.slice(2)] = { type: 'boolean' };
  options.verbose ??= { type: 'boolean' };
  const parsed = parseCommand(command, argv, options);
  const out: SplitArgs = { positionals: parsed.positionals, values: {}, booleans: new Set() };
  for (const [name, value] of Object.entries(parsed.values)) {
    if (Array.isArray(value)) out.values[`--${name}`] = value.map(String);
    else if (value === true && name !== 'verbose') out.booleans.add(`--${name}`);
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
    throw new UsageError(`serve: unexpected argument ${JSON.stringify(a.positionals[0])}; run \`api-catalog serve --help\` for its options`);
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

/**
 * Each value given by a `serve` flag, checked by its option's own schema (the one the config applies to env and
 * file values too): a bad one is a mistake on the command line, "serve: --port must be an integer from 0 to 65535,
 * got "3333x"" (UsageError, exit 2), also for an HTTP-only flag given without --http. Then an HTTP-only flag
 * without --http is one too: "serve: --port applies to --http: add --http". Env and file values stay the config's
 * to refuse (exit 1). `command`: another command that takes some of serve's flags (call --base-url).
 */
export function checkServeFlags(flags: ServeFlags, command = 'serve'): void {
  const f = flags as Record<string, unknown>;
  for (const o of SERVE_OPTIONS as readonly OptionSpec[]) {
    if (o.flag === undefined || o.type === 'boolean') continue;
    const key = flagKey(o.flag);
    if (f[key] === undefined) continue;
    try {
      resolveOptions({ http: true, [key]: f[key] } as ServeFlags, {});
    } catch (err) {
      if (!isAppError(err)) throw err;
      throw new UsageError(`${command}: ${err.message.replace(/^config: /, '')}`);
    }
  }
  // `serve --port 8080` without --http would start a stdio server that ignores the port: refused, naming the fix
  const httpOnly = httpFlagsWithoutHttp(flags);
  if (httpOnly.length > 0) {
    const which = httpOnly.length === 1 ? `${httpOnly[0]} applies` : `${httpOnly.slice(0, -1).join(', ')} and ${httpOnly.at(-1)} apply`;
    throw new UsageError(`${command}: ${which} to --http: add --http (without it serve speaks stdio and takes no HTTP options)`);
  }
}
