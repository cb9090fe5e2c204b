// Several --registry flags: search combines them as domains and describe do (one namespace, names prefixed with the
// catalog's), instead of searching only the last one. The real command functions, in-process.
import { describe, expect, it } from 'vitest';
import { run as describeRun } from '../../src/cli/describe.js';
import { run as domainsRun } from '../../src/cli/domains.js';
import { run as searchRun } from '../../src/cli/search.js';
import { runCaptured } from '../helpers/cli.js';
import { fixtureRegistry } from '../helpers/mcp.js';

const petstore = fixtureRegistry('petstore');
const zoo = fixtureRegistry('zoo');
const both = ['--registry', petstore, '--registry', zoo];
/** Names that are empty in every env var that could add or replace registries. */
const env = { API_CATALOG_REGISTRY: '', API_CATALOG_CONFIG: '' };

describe('search with two --registry', () => {
  it('searches both catalogs, under the names domains and describe use', async () => {
    const r = await runCaptured(searchRun, ['pet', ...both, '--json'], env);
    expect(r.code, r.stderr).toBe(0);
    const names = (JSON.parse(r.stdout) as { results: Array<{ name: string }> }).results.map((h) => h.name);
    expect(names).toEqual(expect.arrayContaining(['petstore.pets.get', 'zoo.pets.create']));
    // the domains it searched are the ones domains lists for the same flags
    const domains = JSON.parse((await runCaptured(domainsRun, [...both, '--json'], env)).stdout) as { value: { domains: Array<{ name: string }> } };
    const listed = domains.value.domains.map((d) => d.name);
    const hits = JSON.parse(r.stdout) as { results: Array<{ domain: string }> };
    for (const h of hits.results) expect(listed).toContain(h.domain);
    // and describe finds a name it printed, given the same flags
    const d = await runCaptured(describeRun, ['petstore.pets.get', ...both], env);
    expect(d.code, d.stderr).toBe(0);
    expect(d.stdout).toMatch(/^petstore\.pets\.get {2}GET \/pets\/\{petId\}/);
  });

  it('the table names both catalogs and the describe step carries the same flags', async () => {
    const r = await runCaptured(searchRun, ['keeper', ...both], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {2}1\. \d\.\d{3} {2}zoo\.keepers\.list/);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe(`1-1 of 1 in petstore, zoo; next: api-catalog describe <name> --registry ${petstore} --registry ${zoo}`);
  });
});
