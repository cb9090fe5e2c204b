// `api-catalog call <name> --args '{...}'`: runs an operation through the same execute flow as execute_tool
// (validation, read-only, confirmation, dry run); prints the envelope as JSON. No describe step for people.
import { AppError } from '../errors.js';
import { splitArgs } from './args.js';
import { executeTool } from '../server/core/execute.js';
import { toolNames } from '../server/core/names.js';
import { cliContextFromArgs } from './domains.js';

const HELP = `usage: api-catalog call <name> --args '{...}' [--dry-run] [--confirm] [--fields <f>] [--base-url <url>] [--read-only] [--registry <dir>]... [--config <file.json>]

Validates the arguments and calls the operation. --dry-run prints the exact request instead (secrets redacted).
Destructive operations need --confirm. Credentials come from the env vars \`describe\` names.
--config (or env API_CATALOG_CONFIG) reads the same per-catalog config file as \`serve --config\`.
Exit codes: 0 success, 1 refused or failed.`;

export async function run(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h') || argv.length === 0) {
    process.stdout.write(HELP + '\n');
    return argv.length === 0 ? 2 : 0;
  }
  const a = splitArgs('call', argv, ['--registry', '--args', '--base-url', '--fields', '--config'], ['--dry-run', '--confirm', '--read-only', '--json']);
  const name = a.positionals[0];
  if (name === undefined || a.positionals.length > 1) {
    throw new AppError('CONFIG_INVALID', `call: give exactly one operation name, got ${a.positionals.length}; see \`api-catalog call --help\``);
  }
  let args: unknown = {};
  const raw = a.values['--args']?.[0];
  if (raw !== undefined) {
    try {
      args = JSON.parse(raw);
    } catch {
      throw new AppError('CONFIG_INVALID', `call: --args is not valid JSON; quote it like --args '{"owner": "octo"}'`);
    }
  }
  const { set, settings } = cliContextFromArgs(a);
  const input: Record<string, unknown> = { tool_name: name, args };
  if (a.booleans.has('--dry-run')) input.dry_run = true;
  if (a.booleans.has('--confirm')) input.confirm = name;
  if (a.values['--fields']) input.fields = a.values['--fields'][0];
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  const { envelope } = await executeTool(set, input, toolNames(), { settings, signal: controller.signal });
  process.stdout.write(JSON.stringify(envelope, null, 2) + '\n');
  return envelope.success ? 0 : 1;
}
