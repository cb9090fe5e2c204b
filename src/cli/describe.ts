// `api-catalog describe <name>...`: the three levels of describe_tools for people (same core), or --json.
import { oneOf, splitArgs, UsageError, type SplitArgs } from './args.js';
import { shellLine, shellWord } from './shell.js';
import type { CatalogSet, ExecutionSettings } from '../server/core/catalogs.js';
import { DETAIL_LEVELS, describeTools } from '../server/core/describe.js';
import { LIMITS, toolNames } from '../server/core/names.js';
import { catalogFlags, cliContextFromArgs } from './domains.js';
import type { Envelope } from '../server/core/envelope.js';
import { errorLine, forPeople } from './wording.js';

const HELP = `usage: api-catalog describe <name>... [--detail summary|parameters|full] [--parameter <p>] [--json] [--registry <dir>]... [--config <file.json>]

Shows how to call operations (at most 5 at once). Default detail: parameters.`;

/** The command line that runs an operation with these arguments, safe to paste into bash, zsh or sh. */
export function exampleCommand(name: string, args: unknown): string {
  return `api-catalog call ${shellWord(name)} --args ${shellWord(JSON.stringify(args ?? {}))}`;
}

/**
 * A real operation of the loaded catalogs for the examples in messages (a name another API uses would not resolve):
 * the shortest name of a read-only operation; with `withArgs`, of one that takes required arguments (to show
 * --args); else the shortest name. Undefined when the catalogs have none.
 */
export function exampleOperation(set: CatalogSet, withArgs = false): string | undefined {
  const pick = (keep: (op: CatalogSet['operations'][number]) => boolean): string | undefined =>
    set.operations.filter(keep).sort((a, b) => a.name.length - b.name.length || (a.name < b.name ? -1 : 1))[0]?.name;
  return (withArgs ? pick((o) => o.readOnly && (o.inputSchema.required?.length ?? 0) > 0) : undefined) ?? pick((o) => o.readOnly) ?? pick(() => true);
}

/** The example call describe shows for an operation (`api-catalog call <name> --args '{...}'`), or undefined. */
export function exampleCall(set: CatalogSet, settings: ExecutionSettings, name: string): string | undefined {
  const { envelope } = describeTools(set, { tool_names: [name] }, toolNames(), { settings });
  const tool = envelope.success ? (envelope.value as { tools: Array<{ example?: { args: unknown } }> }).tools[0] : undefined;
  return tool?.example !== undefined ? exampleCommand(name, tool.example.args) : undefined;
}

/**
 * The hint for a command given no operation name (", e.g. ...; find names with ..."): an example with a real name of the catalogs the flags load (and
 * those flags), and where names are found. Without the catalogs (they do not load), the hint alone.
 */
export function nameHint(command: 'describe' | 'call', a: SplitArgs): string {
  const flags = catalogFlags(a);
  let example: string | undefined;
  try {
    const { set, settings } = cliContextFromArgs(a);
    const name = exampleOperation(set, command === 'call');
    if (name !== undefined) example = command === 'call' ? (exampleCall(set, settings, name) ?? shellLine(['api-catalog', 'call', name])) : shellLine(['api-catalog', 'describe', name]);
  } catch {
    // the catalogs do not load: the command says why once it has a name
  }
  const search = `${shellLine(['api-catalog', 'search'])} "<what you want to do>"${flags.length > 0 ? ` ${shellLine(flags)}` : ''}`;
  return `${example !== undefined ? `, e.g. ${[example, ...flags.map(shellWord)].join(' ')}` : ''}; find names with ${search}`;
}

/**
 * The envelope in the CLI's words (wording.ts): the core's message, next steps and notes name the meta-tools and
 * their arguments; here they name commands and flags (`flags`: the --registry/--config given, for the commands it
 * points to). The API's own text (api_text, summaries, descriptions) is left as it is.
 */
export function forTheCli(envelope: Envelope, flags: readonly string[] = []): Envelope {
  const tail = flags.length > 0 ? ` ${shellLine(flags)}` : '';
  const tool = (t: Record<string, any>): Record<string, any> => {
    const out = { ...t };
    if (t.error) out.error = { ...t.error, message: forPeople(t.error.message), ...(t.error.next !== undefined ? { next: forPeople(t.error.next) } : {}) };
    if (typeof t.inputSchemaTruncated === 'string') {
      out.inputSchemaTruncated = t.inputSchemaTruncated.replace(/call \S+ with "parameter": "<name>"/, `run ${shellLine(['api-catalog', 'describe', t.name])} --parameter <name>${tail}`);
    }
    if (Array.isArray(t.notes)) out.notes = t.notes.map((n: string) => (/^Destructive: /.test(n) ? `Destructive: api-catalog call runs it only with --confirm, once you are sure.` : n));
    return out;
  };
  if (!envelope.success) {
    const details = envelope.error.details as { tools?: Array<Record<string, any>> } | undefined;
    return {
      ...envelope,
      error: { ...envelope.error, message: forPeople(envelope.error.message), ...(details?.tools ? { details: { ...details, tools: details.tools.map(tool) } } : {}) },
      ...(envelope.instruction !== undefined ? { instruction: forPeople(envelope.instruction) } : {}),
    };
  }
  const value = envelope.value as { tools: Array<Record<string, any>> };
  const tools = value.tools.map(tool);
  // the next step: the call that runs each described operation (its example at the parameters level)
  const runnable = tools.filter((t) => !t.error && t.method !== undefined);
  const runLine = (t: Record<string, any>): string => {
    const command = t.example !== undefined ? exampleCommand(t.name, t.example.args) : `${shellLine(['api-catalog', 'call', t.name])} --args '{...}'`;
    return `${command}${tail}${t.destructive ? ' --confirm' : ''}${t.example !== undefined ? '' : ' (the arguments as the parameters above say)'}`;
  };
  let instruction = envelope.instruction;
  if (runnable.length === 1) {
    const only = runnable[0] as Record<string, any>;
    instruction = only.destructive ? `Only if you mean this destructive operation: ${runLine(only)}` : `Run it with ${runLine(only)}`;
  } else if (runnable.length > 1) {
    const lines = runnable.map((t) => (t.destructive ? `${runLine(t)} (destructive: only if you mean it)` : runLine(t)));
    instruction = `Run each with: ${lines.join('; ')}`;
  }
  return { ...envelope, value: { ...value, tools }, ...(instruction !== undefined ? { instruction } : {}) };
}

/** What stands for the API's text when the spec gives an operation no summary and no description. */
const NO_TEXT = '(the spec gives no summary or description)';

/** One described tool as the describe command prints it; `flags` (--registry, --config) go on its example call. */
export function render(tool: Record<string, any>, flags: readonly string[] = []): string {
  if (tool.error) return `${tool.name}: ${tool.error.message}${tool.error.suggestions?.length ? ` (did you mean ${tool.error.suggestions.join(', ')}?)` : ''}`;
  if (tool.parameter) return `${tool.name} — parameter ${tool.parameter.name}\n${JSON.stringify(tool.parameter, null, 2)}`;
  const head = `${tool.name}  ${tool.method} ${tool.path}${tool.destructive ? '  [destructive]' : ''}`;
  // Level 1 (summary) has no parameters; an operation the spec gives no text still shows its parameters
  if (tool.parameters === undefined) return `${head}\n  ${tool.summary || NO_TEXT}`;
  // Level 2: each parameter is `type[, required]`, or { type, from } when other operations give its value
  const params = Object.entries(tool.parameters as Record<string, string | { type: string; from: string[] }>).map(([name, p]) =>
    typeof p === 'string' ? `  ${name}: ${p}` : `  ${name}: ${p.type} (from ${p.from.join(', ')})`,
  );
  const lines = [head, `  ${tool.api_text || NO_TEXT}`, '', 'parameters:', ...params, '', `returns: ${tool.returns}`];
  if (tool.example) lines.push(`example: ${exampleCommand(tool.name, tool.example.args)}${flags.length > 0 ? ` ${shellLine(flags)}` : ''}`);
  lines.push(`credentials: ${tool.credentials}`);
  for (const w of tool.warnings ?? []) lines.push(`warning: ${w}`);
  return lines.join('\n');
}

export async function run(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  const a = splitArgs('describe', argv, ['--registry', '--detail', '--parameter', '--config'], ['--json']);
  if (a.positionals.length === 0) throw new UsageError(`describe: give one or more operation names${nameHint('describe', a)}`);
  // the values describe_tools would refuse as "invalid arguments", said as the flags they came from
  const detail = a.values['--detail'] !== undefined ? oneOf('describe', '--detail', a.values['--detail'][0] as string, DETAIL_LEVELS) : undefined;
  const distinct = new Set(a.positionals.map((n) => n.trim()));
  if (distinct.size > LIMITS.describeMax) {
    throw new UsageError(`describe: at most ${LIMITS.describeMax} operations at once, got ${distinct.size}; describe the rest in another run`);
  }
  const { set, settings } = cliContextFromArgs(a);
  const input: Record<string, unknown> = { tool_names: a.positionals };
  if (detail !== undefined) input.detail = detail;
  if (a.values['--parameter']) input.parameter = a.values['--parameter'][0];
  const flags = catalogFlags(a);
  const envelope = forTheCli(describeTools(set, input, toolNames(), { settings }).envelope, flags);
  const full = input.detail === 'full';
  // a name that fails fails the command (exit 1), even when the others are described: a script must see it
  const failed = envelope.success && (envelope.value as { tools: Array<Record<string, any>> }).tools.some((t) => t.error);
  if (a.booleans.has('--json') || (full && envelope.success)) {
    process.stdout.write(JSON.stringify(envelope, null, 2) + '\n');
    return envelope.success && !failed ? 0 : 1;
  }
  if (!envelope.success) {
    const tools = (envelope.error.details as { tools?: Array<Record<string, any>> } | undefined)?.tools;
    process.stderr.write(`${errorLine('describe', envelope.error.message)}\n${(tools ?? []).map((t) => render(t)).join('\n')}\n`);
    return 1;
  }
  // what was described on stdout; each name that failed on stderr, with its suggestions
  const tools = (envelope.value as { tools: Array<Record<string, any>> }).tools;
  const described = tools.filter((t) => !t.error);
  if (described.length > 0) process.stdout.write(described.map((t) => render(t, flags)).join('\n\n') + '\n');
  if (failed) process.stderr.write(tools.filter((t) => t.error).map((t) => `api-catalog describe: ${render(t)}`).join('\n') + '\n');
  return failed ? 1 : 0;
}
