// `api-catalog domains`: the catalog map for people (same core as list_domains). Also exports the small
// catalog/settings setup that `describe` and `call` share.
import { loadServerConfig } from '../config.js';
import { knownName, splitArgs, type SplitArgs } from './args.js';
import { shellLine } from './shell.js';
import { errorLine, forPeople } from './wording.js';
import { credentialsLine } from '../server/core/describe-brief.js';
import { loadCatalogSet, settingsFromConfig, type CatalogSet, type ExecutionSettings } from '../server/core/catalogs.js';
import { listDomains } from '../server/core/domains.js';
import { toolNames } from '../server/core/names.js';

export interface CliContextOptions {
  registries: string[];
  baseUrl?: string;
  /** Only `true` from a flag; otherwise API_CATALOG_READ_ONLY decides. */
  readOnly?: boolean;
  /** `--config`; otherwise API_CATALOG_CONFIG. */
  configPath?: string;
  /** `--allow-http-credentials`: credentials may go over plain http to non-loopback hosts. */
  allowHttpCredentials?: boolean;
}

/**
 * Loads the catalogs and execution settings for the people-facing commands exactly as `serve` does:
 * flags over env, then the per-catalog config file (lowest precedence).
 */
export function cliContext(options: CliContextOptions): { set: CatalogSet; settings: ExecutionSettings } {
  const { config, file } = loadServerConfig(
    {
      ...(options.registries.length > 0 ? { registry: options.registries } : {}),
      ...(options.baseUrl !== undefined ? { baseUrl: options.baseUrl } : {}),
      ...(options.readOnly === true ? { readOnly: true } : {}),
      ...(options.allowHttpCredentials === true ? { allowHttpCredentials: true } : {}),
      ...(options.configPath !== undefined ? { config: options.configPath } : {}),
    },
    process.env,
  );
  const set = loadCatalogSet(config.registries);
  return { set, settings: settingsFromConfig(config, set, process.env, file) };
}

/** The flags that choose the catalogs (--registry, --config), as typed, for the commands a message points to. */
export function catalogFlags(a: SplitArgs): string[] {
  return [...(a.values['--registry'] ?? []).flatMap((r) => ['--registry', r]), ...(a.values['--config'] ?? []).slice(0, 1).flatMap((c) => ['--config', c])];
}

/** cliContext from the common flags of a splitArgs result. */
export function cliContextFromArgs(a: SplitArgs) {
  const options: CliContextOptions = { registries: a.values['--registry'] ?? [] };
  const baseUrl = a.values['--base-url']?.[0];
  if (baseUrl !== undefined) options.baseUrl = baseUrl;
  if (a.booleans.has('--read-only')) options.readOnly = true;
  if (a.booleans.has('--allow-http-credentials')) options.allowHttpCredentials = true;
  const configPath = a.values['--config']?.[0];
  if (configPath !== undefined) options.configPath = configPath;
  return cliContext(options);
}

type Credential = { catalog?: string; scheme: string; envVars: string[]; set: boolean };

/**
 * The credentials of the listing as describe's Level 2 says an operation's (env var names and whether they are
 * set, never values): one line for one catalog; for several (`catalogs`: those listed), a line per catalog under
 * `credentials:` (`none` for one that needs none, unless some were left out of the answer).
 */
export function credentialLines(credentials: readonly Credential[], omitted: number | undefined, catalogs?: readonly string[]): string[] {
  const left = omitted !== undefined && omitted > 0;
  const more = left ? [`  (${omitted} more not listed; api-catalog describe <name> names those an operation uses)`] : [];
  if (catalogs === undefined) return [`credentials: ${credentialsLine(credentials)}`, ...more];
  const lines = catalogs.flatMap((c) => {
    const own = credentials.filter((x) => x.catalog === c);
    return own.length > 0 || !left ? [`  ${c}: ${credentialsLine(own)}`] : [];
  });
  return ['credentials:', ...lines, ...more];
}

const HELP = `usage: api-catalog domains [--registry <dir>]... [--catalog <name>] [--config <file.json>] [--json]

Lists the domains of the catalog(s) with their tool counts, and the credentials (env var names, set or not).`;

export async function run(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  const a = splitArgs('domains', argv, ['--registry', '--catalog', '--config'], ['--json']);
  const { set, settings } = cliContextFromArgs(a);
  const wanted = a.values['--catalog']?.[0];
  const catalog = wanted !== undefined ? knownName('domains', '--catalog', wanted, 'catalog', set.catalogs.map((c) => c.meta.name), shellLine(['api-catalog', 'domains', ...catalogFlags(a)])) : undefined;
  const input = catalog !== undefined ? { catalog } : {};
  // a person's listing: every domain, never folded into groups as an agent's map is
  const env = listDomains(set, input, toolNames(), { settings, complete: true });
  if (a.booleans.has('--json')) {
    const json = env.instruction !== undefined ? { ...env, instruction: forPeople(env.instruction) } : env;
    process.stdout.write(JSON.stringify(json, null, 2) + '\n');
    return env.success ? 0 : 1;
  }
  if (!env.success) {
    process.stderr.write(`${errorLine('domains', env.error.message)}\n`);
    return 1;
  }
  const v = env.value as {
    totalDomains: number;
    totalTools: number;
    domains: Array<{ name: string; toolCount: number; description: string }>;
    credentials?: Credential[];
    omittedCredentials?: number;
  };
  const width = Math.max(6, ...v.domains.map((d) => d.name.length));
  const lines = v.domains.map((d) => `${d.name.padEnd(width)}  ${String(d.toolCount).padStart(4)}  ${d.description}`);
  process.stdout.write(`${v.totalDomains} domains, ${v.totalTools} operations\n\n${lines.join('\n')}\n\n${credentialLines(v.credentials ?? [], v.omittedCredentials, set.catalogs.length > 1 ? (catalog !== undefined ? [catalog] : set.catalogs.map((c) => c.meta.name)) : undefined).join('\n')}\n`);
  return 0;
}
