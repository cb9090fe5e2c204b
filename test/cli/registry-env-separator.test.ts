// API_CATALOG_REGISTRY names several registry folders separated by `:` (like PATH), where every other list option
// takes commas. Written the other way, the value is one folder that does not exist: the error says which separator
// to use. The built CLI, as a user runs it.
import { describe, expect, it } from 'vitest';
import { builtCli, fixtureRegistry } from '../helpers/mcp.js';
import { runProcess } from '../helpers/run.js';

const petstore = fixtureRegistry('petstore');
const zoo = fixtureRegistry('zoo');
const domains = (registry: string) =>
  runProcess(process.execPath, [builtCli(), 'domains', '--json'], { env: { PATH: process.env.PATH ?? '', API_CATALOG_REGISTRY: registry } });

describe('API_CATALOG_REGISTRY with several folders', () => {
  it('separated by `:`: serves both', async () => {
    const r = await domains(`${petstore}:${zoo}`);
    expect(r.status, r.stderr).toBe(0);
    const value = (JSON.parse(r.stdout) as { value: { catalogs: Array<{ name: string }> } }).value;
    expect(value.catalogs.map((c) => c.name)).toEqual(['petstore', 'zoo']);
  });

  it('separated by a comma: the folder does not exist, and the error says to separate folders with `:`', async () => {
    const r = await domains(`${petstore},${zoo}`);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toContain(`${petstore},${zoo} does not exist`);
    expect(r.stderr).toContain('separate folders with `:`');
  });
});
