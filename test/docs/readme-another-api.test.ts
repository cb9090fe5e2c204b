// README's "Another API" line, taken at its word: `--registry` serves a catalog instead of the embedded GitHub one,
// and the `args` it shows for serving both do serve both, under the operation names it gives (audit first51, defect 9:
// the line said "add --registry", and doing that served the new API alone). The built CLI over stdio, a real SDK
// client, the README's own args with its placeholder paths filled in.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { builtCli, call, connectTracedServe, fixtureRegistry, REPO_ROOT } from '../helpers/mcp.js';

const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
/** The paragraph that starts "Another API:", joined into one line. */
const paragraph = (/^Another API:[\s\S]*?(?=\n\n)/m.exec(readme)?.[0] ?? '').replace(/\n/g, ' ');

/** `args` after `serve`, the README's placeholders replaced by this clone and a fixture registry. */
function servedArgs(args: string[]): string[] {
  const filled = args.map((a) => a.replace('/path/to/api-catalog', REPO_ROOT).replace('/path/to/registry/<catalog>', fixtureRegistry('petstore')));
  expect(filled[0]).toBe(builtCli());
  expect(filled[1]).toBe('serve');
  return filled.slice(2);
}

async function catalogsServed(args: string[]): Promise<{ names: string[]; client: Awaited<ReturnType<typeof connectTracedServe>>['client'] }> {
  const { client } = await connectTracedServe(args);
  const r = await call(client, 'list_domains', {});
  expect(r.success, JSON.stringify(r.error)).toBe(true);
  const value = r.value as { catalog?: { name: string }; catalogs?: Array<{ name: string }> };
  return { names: value.catalogs?.map((c) => c.name) ?? [value.catalog?.name ?? ''], client };
}

describe('README: serving another API', () => {
  test('the line says --registry replaces the embedded catalog, and shows the args that serve both', () => {
    expect(paragraph).toMatch(/serves that catalog \*instead of\* GitHub/);
    expect(paragraph).toMatch(/"args": \[/);
  });

  test('one --registry serves that catalog alone, as it says', async () => {
    const { names, client } = await catalogsServed(['--registry', fixtureRegistry('petstore')]);
    await client.close();
    expect(names).toEqual(['petstore']);
  }, 60_000);

  test("its args serve GitHub and the other API, and GitHub's operations go by the name it gives", async () => {
    const shown = /"args": (\[[^\]]*\])/.exec(paragraph)?.[1];
    expect(shown, paragraph).toBeDefined();
    const { names, client } = await catalogsServed(servedArgs(JSON.parse(shown as string) as string[]));
    try {
      expect(names).toEqual(['github', 'petstore']);
      const named = /\(`(github\.[a-z_]+)`\)/.exec(paragraph)?.[1] as string;
      const d = await call(client, 'describe_tools', { tool_names: [named] });
      expect(d.success, JSON.stringify(d.error)).toBe(true);
    } finally {
      await client.close();
    }
  }, 120_000);
});
