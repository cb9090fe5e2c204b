// `api-catalog domains`: the catalog map for people (same core as list_domains). Also exports the small
// catalog/settings setup that `describe` and `call` share.
import { resolveBaseUrls, resolveServerConfig, splitArgs } from '../config.js';
import { loadCatalogSet, type CatalogSet, type ExecutionSettings } from '../server/core/catalogs.js';
import { listDomains } from '../server/core/domains.js';
import { toolNames } from '../server/core/names.js';

/** Loads the catalogs and execution settings from `--registry`, `--base-url`, `--read-only` and env. */
export function cliContext(registries: string[], baseUrl?: string, readOnly = false): { set: CatalogSet; settings: ExecutionSettings } {
  const config = resolveServerConfig(
    { registry: registries.length > 0 ? registries : undefined, ...(baseUrl !== undefined ? { baseUrl } : {}), readOnly },
    process.env,
  );
  const set = loadCatalogSet(config.registries);
  const baseUrls = resolveBaseUrls(config, set.catalogs.map((c) => c.meta.name), process.env);
  return { set, settings: { baseUrls, readOnly: config.readOnly, env: process.env, timeouts: config.timeouts } };
}

const HELP = `usage: api-catalog domains [--registry <dir>]... [--catalog <name>] [--json]

Lists the domains of the catalog(s) with their tool counts.`;

export async function run(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP + '\n');
    return 0;
  }
  const a = splitArgs('domains', argv, ['--registry', '--catalog'], ['--json']);
  const { set } = cliContext(a.values['--registry'] ?? []);
  const input = a.values['--catalog']?.[0] !== undefined ? { catalog: a.values['--catalog'][0] } : {};
  const env = listDomains(set, input, toolNames());
  if (a.booleans.has('--json')) {
    process.stdout.write(JSON.stringify(env, null, 2) + '\n');
    return env.success ? 0 : 1;
  }
  if (!env.success) {
    process.stderr.write(`api-catalog domains: ${env.error.message}\n`);
    return 1;
  }
  const v = env.value as { totalDomains: number; totalTools: number; domains: Array<{ name: string; toolCount: number; description: string }> };
  const width = Math.max(6, ...v.domains.map((d) => d.name.length));
  const lines = v.domains.map((d) => `${d.name.padEnd(width)}  ${String(d.toolCount).padStart(4)}  ${d.description}`);
  process.stdout.write(`${v.totalDomains} domains, ${v.totalTools} operations\n\n${lines.join('\n')}\n`);
  return 0;
}
