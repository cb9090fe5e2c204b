// `api-catalog call <name> --args '{...}'`: runs an operation through the same execute flow as execute_tool
// (validation, read-only, confirmation, dry run); prints the envelope as JSON. No describe step for people.
// The flow's next steps name tool arguments ("confirm", "dry_run"); here they name this command's flags.
import { isAppError } from '../errors.js';
import { checkFields } from '../execution/projection.js';
import { checkServeFlags, jsonObject, splitArgs, UsageError } from './args.js';
import { fixSentence, placeholderFix, type WouldRefuse } from '../server/core/dry-run.js';
import type { Envelope } from '../server/core/envelope.js';
import { executeTool } from '../server/core/execute.js';
import { toolNames } from '../server/core/names.js';
import { nameHint } from './describe.js';
import { cliContextFromArgs } from './domains.js';
import { shellLine } from './shell.js';
import { forPeople, readOnlySource } from './wording.js';

const HELP = `usage: api-catalog call <name> --args '{...}' [--dry-run] [--confirm] [--fields <f>] [--base-url <url>] [--read-only] [--allow-http-credentials] [--registry <dir>]... [--config <file.json>]

Validates the arguments and calls the operation. --dry-run prints the exact request instead (secrets redacted).
Destructive operations need --confirm. Credentials come from the env vars \`describe\` names; they are sent
over plain http only to loopback hosts unless --allow-http-credentials (or the config file) allows it.
--config (or env API_CATALOG_CONFIG) reads the same per-catalog config file as \`serve --config\`.
Exit codes: 0 success, 1 refused or failed (with --dry-run: also when the real call would be refused), 2 a mistake
on the command line.`;

/**
 * How this command's flags say what execute_tool's arguments say, for the flow's messages and next steps; the
 * core's words for agents (tool names, "the server", "ask the operator") in the CLI's (wording.ts).
 */
function forTheCli(envelope: Envelope, name: string, argv: readonly string[], destructive = false): Envelope {
  if (envelope.success) {
    const value = envelope.value as { dry_run?: unknown; read_only_mode?: unknown; would_refuse?: WouldRefuse[] };
    if (value.dry_run === true && value.read_only_mode === true) {
      const source = readOnlySource(argv, process.env);
      return { ...envelope, instruction: `The request was not sent: this catalog is read-only (${source.set}); ${source.lift} and run it again without --dry-run to send it.` };
    }
    // placeholders, a credential not set, a credential over plain http: the fix, not "send"
    if (value.dry_run === true && Array.isArray(value.would_refuse) && value.would_refuse.length > 0) return { ...envelope, instruction: fixSentence(name, value.would_refuse, 'cli') };
    // a destructive operation runs only with --confirm: the next step says so, as the command that sends it
    if (value.dry_run === true && destructive && !argv.includes('--confirm')) {
      const send = shellLine(['api-catalog', 'call', name, ...argv.filter((a) => a !== '--dry-run' && a !== name), '--confirm']);
      return { ...envelope, instruction: `This operation is destructive: to send this request, run the same command without --dry-run and with --confirm, once you are sure: ${send}` };
    }
    if (value.dry_run === true) return { ...envelope, instruction: 'Run the same command without --dry-run to send this request.' };
    return envelope.instruction !== undefined ? { ...envelope, instruction: forPeople(envelope.instruction) } : envelope;
  }
  const again = (flag: string): string => shellLine(['api-catalog', 'call', name, ...argv.filter((a) => a !== flag && a !== name), flag]);
  const error = { ...envelope.error, message: forPeople(envelope.error.message) };
  switch (envelope.error.code) {
    case 'CONFIRMATION_REQUIRED': {
      const message = error.message.replace(/; it needs "confirm": ".*"$/, '; add --confirm to run it');
      return {
        ...envelope,
        error: { ...error, message, details: { flag: '--confirm' } },
        instruction: `Check that this is what you want, then run it again with --confirm: ${again('--confirm')}`,
      };
    }
    case 'UNKNOWN_TOOL': {
      const suggestions = (envelope.error.details as { suggestions?: unknown[] } | undefined)?.suggestions ?? [];
      const search = 'find the name with api-catalog search "<what you want to do>".';
      return { ...envelope, error, instruction: suggestions.length > 0 ? `Check the suggestions, or ${search}` : `No operation has a name close to it: ${search}` };
    }
    case 'INVALID_ARGUMENTS': {
      const placeholders = (envelope.error.details as { placeholders?: string[] } | undefined)?.placeholders ?? [];
      if (placeholders.length > 0) {
        const fix = placeholderFix(placeholders, 'cli');
        return { ...envelope, error, instruction: `${fix[0]?.toUpperCase()}${fix.slice(1)}, then run it again; api-catalog describe ${name} --detail full shows the schema.` };
      }
      return { ...envelope, error, instruction: `Fix the listed fields in --args; api-catalog describe ${name} --detail full shows the schema.` };
    }
    case 'READ_ONLY_MODE': {
      // which flag, env var or config key made it read-only, and how to lift it
      const source = readOnlySource(argv, process.env);
      return {
        ...envelope,
        error: { ...error, message: error.message.replace(/this catalog is read-only/, `this catalog is read-only (${source.set})`) },
        instruction: `Only operations that read (GET/HEAD that run no write action, or marked x-api-catalog-read-only) run while it is read-only; ${source.lift} and run it again to send this ${(envelope.error.details as { method?: string } | undefined)?.method ?? 'write'} request.`,
      };
    }
    case 'AUTH_MISSING':
      return { ...envelope, error, instruction: 'Set the environment variable(s) named above (describe lists what each must hold), then run it again.' };
    case 'UNSAFE_REQUEST': {
      const refusal = envelope.error.details as { configKey?: string; flag?: string } | undefined;
      if (refusal?.flag === undefined) return { ...envelope, error, ...(envelope.instruction !== undefined ? { instruction: forPeople(envelope.instruction) } : {}) };
      return { ...envelope, error, instruction: `Use an https base URL (--base-url), or, on a network you trust, run it again with ${refusal.flag} (or set ${refusal.configKey} in the config file).` };
    }
    default:
      return { ...envelope, error, ...(envelope.instruction !== undefined ? { instruction: forPeople(envelope.instruction) } : {}) };
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
  // arguments that parse but do not fit the operation's schema are the operation's refusal (exit 1). (execute_tool's
  // flow checks --fields again, as its own first refusal, after the arguments: this check is what makes it exit 2.)
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
  const baseUrl = a.values['--base-url']?.[0];
  if (baseUrl !== undefined) checkServeFlags({ baseUrl }, 'call');
  const { set, settings } = cliContextFromArgs(a);
  const input: Record<string, unknown> = { tool_name: name, args };
  if (a.booleans.has('--dry-run')) input.dry_run = true;
  if (a.booleans.has('--confirm')) input.confirm = name;
  if (fields !== undefined) input.fields = fields;
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  const { envelope } = await executeTool(set, input, toolNames(), { settings, signal: controller.signal });
  const destructive = (set.byName.get(envelope.tool) ?? set.byName.get(name))?.op.destructive === true;
  process.stdout.write(JSON.stringify(forTheCli(envelope, name, argv, destructive), null, 2) + '\n');
  // a dry run whose real call would be refused (placeholders, a credential not set or over plain http) exits 1, as
  // the call would: `call X --dry-run && call X` stops there
  const wouldRefuse = envelope.success && Array.isArray((envelope.value as { would_refuse?: unknown[] }).would_refuse);
  return envelope.success && !wouldRefuse ? 0 : 1;
}
