// `api-catalog call <name> --args '{...}'`: runs an operation through the same execute flow as execute_tool
// (validation, read-only, confirmation, dry run); prints the envelope as JSON. No describe step for people.
// The flow's next steps name tool arguments ("confirm", "dry_run"); here they name this command's flags.
import { isAppError } from '../errors.js';
import { checkFields } from '../execution/shape.js';
import { jsonObject, splitArgs, UsageError } from './args.js';
import type { Envelope } from '../server/core/envelope.js';
import { executeTool } from '../server/core/execute.js';
import { toolNames } from '../server/core/names.js';
import { nameHint } from './describe.js';
import { cliContextFromArgs } from './domains.js';
import { shellLine } from './shell.js';

const HELP = `usage: api-catalog call <name> --args '{...}' [--dry-run] [--confirm] [--fields <f>] [--base-url <url>] [--read-only] [--allow-http-credentials] [--registry <dir>]... [--config <file.json>]

Validates the arguments and calls the operation. --dry-run prints the exact request instead (secrets redacted).
Destructive operations need --confirm. Credentials come from the env vars \`describe\` names; they are sent
over plain http only to loopback hosts unless --allow-http-credentials (or the config file) allows it.
--config (or env API_CATALOG_CONFIG) reads the same per-catalog config file as \`serve --config\`.
Exit codes: 0 success, 1 refused or failed, 2 a mistake on the command line.`;

/** How this command's flags say what execute_tool's arguments say, for the flow's messages and next steps. */
function forTheCli(envelope: Envelope, name: string, argv: readonly string[]): Envelope {
  if (envelope.success) {
    if ((envelope.value as { dry_run?: unknown }).dry_run === true && envelope.instruction !== undefined && !/read-only/.test(envelope.instruction)) {
      return { ...envelope, instruction: 'Run the same command without --dry-run to send this request.' };
    }
    return envelope;
  }
  const again = (flag: string): string => shellLine(['api-catalog', 'call', name, ...argv.filter((a) => a !== flag && a !== name), flag]);
  switch (envelope.error.code) {
    case 'CONFIRMATION_REQUIRED': {
      const message = envelope.error.message.replace(/^execute_tool: /, 'call: ').replace(/; it needs "confirm": ".*"$/, '; add --confirm to run it');
      return {
        ...envelope,
        error: { ...envelope.error, message, details: { flag: '--confirm' } },
        instruction: `Check that this is what you want, then run it again with --confirm: ${again('--confirm')}`,
      };
    }
    case 'UNKNOWN_TOOL':
      return { ...envelope, error: { ...envelope.error, message: envelope.error.message.replace(/^execute_tool: /, 'call: ') }, instruction: 'Check the suggestions, or find the name with api-catalog search "<what you want to do>".' };
    case 'INVALID_ARGUMENTS':
      return { ...envelope, error: { ...envelope.error, message: envelope.error.message.replace(/^execute_tool: /, 'call: ') }, instruction: `Fix the listed fields in --args; api-catalog describe ${name} --detail full shows the schema.` };
    case 'UNSAFE_REQUEST': {
      const upstream = (envelope.error.details as { upstream?: { configKey?: string; flag?: string } } | undefined)?.upstream;
      if (upstream?.flag === undefined) return envelope;
      return { ...envelope, instruction: `Use an https base URL (--base-url), or, on a network you trust, run it again with ${upstream.flag} (or set ${upstream.configKey} in the config file).` };
    }
    default:
      return { ...envelope, error: { ...envelope.error, message: envelope.error.message.replace(/^execute_tool: /, 'call: ') } };
  }
}

export async function run(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  const a = splitArgs('call', argv, ['--registry', '--args', '--base-url', '--fields', '--config'], ['--dry-run', '--confirm', '--read-only', '--json', '--allow-http-credentials']);
  const name = a.positionals[0];
  if (name === undefined || a.positionals.length > 1) {
    throw new UsageError(
      name === undefined
        ? `call: give the operation's name${nameHint('call', a)}`
        : `call: one operation at a time (got ${a.positionals.length}: ${a.positionals.map((p) => JSON.stringify(p)).join(' ')}); quote --args as one word`,
    );
  }
  // --args that is not a JSON object, or --fields that does not parse, is a mistake on the command line (exit 2);
  // arguments that parse but do not fit the operation's schema are the operation's refusal (exit 1).
  const raw = a.values['--args']?.[0];
  const args = raw !== undefined ? jsonObject('call', '--args', raw, '{"name": "value"}') : {};
  const fields = a.values['--fields']?.[0];
  if (fields !== undefined) {
    try {
      checkFields(fields);
    } catch (err) {
      if (!isAppError(err)) throw err;
      throw new UsageError(`call: --fields ${err.message.replace(/^fields: /, '')}`);
    }
  }
  const { set, settings } = cliContextFromArgs(a);
  const input: Record<string, unknown> = { tool_name: name, args };
  if (a.booleans.has('--dry-run')) input.dry_run = true;
  if (a.booleans.has('--confirm')) input.confirm = name;
  if (fields !== undefined) input.fields = fields;
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  const { envelope } = await executeTool(set, input, toolNames(), { settings, signal: controller.signal });
  process.stdout.write(JSON.stringify(forTheCli(envelope, name, argv), null, 2) + '\n');
  return envelope.success ? 0 : 1;
}
