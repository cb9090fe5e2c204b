// `api-catalog domains`: the catalog map for people (same core as list_domains). Also exports the small
// catalog/settings setup that `describe` and `call` share.
import { loadServerConfig } from '../config.js';
import { knownName, splitArgs, type SplitArgs } from './args.js';
import { shellLine } from './shell.js';
import { errorLine } from './wording.js';
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
  const input = wanted !== undefined ? { catalog: knownName('domains', '--catalog', wanted, 'catalog', set.catalogs.map((c) => c.meta.name), shellLine(['api-catalog', 'domains', ...catalogFlags(a)])) } : {};
  // a person's listing: every domain, never folded into groups as an agent's map is
  const env = listDomains(set, input, toolNames(), { settings, complete: true });
  if (a.booleans.has('--json')) {
    process.stdout.write(JSON.stringify(env, null, 2) + '\n');
    return env.success ? 0 : 1;
  }
  if (!env.success) {
    process.stderr.write(`${errorLine('domains', env.error.message)}\n`);
    return 1;
  }
  const v = env.value as { totalDomains: number; totalTools: number; domains: Array<{ name: string; toolCount: number; description: string }> };
  const width = Math.max(6, ...v.domains.map((d) => d.name.length));
  const lines = v.domains.map((d) => `${d.name.padEnd(width)}  ${String(d.toolCount).padStart(4)}  ${d.description}`);
  process.stdout.write(`${v.totalDomains} domains, ${v.totalTools} operations\n\n${lines.join('\n')}\n`);
  return 0;
}
