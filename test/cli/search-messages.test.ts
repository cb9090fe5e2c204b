// What `search` says when it has nothing to show: an --offset past the end names the valid range (not
// "657-656 of 656"), a no-match "did you mean" offers only queries that find something and otherwise the next step,
// a bare --domain with several catalogs gets the prefixed domain(s) as "did you mean", and an empty --registry is one
// plain line with exit 2 (not the config schema's wording, exit 1).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, builtCli, fixtureRegistry } from '../helpers/mcp.js';

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [builtCli(), ...args], { cwd: REPO_ROOT, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const PETSTORE = ['--registry', fixtureRegistry('petstore')];
const TWO = [...PETSTORE, '--registry', fixtureRegistry('zoo')];

describe('search --offset past the results', () => {
  it('says there is nothing past the total and the offsets that work, exit 1', () => {
    const all = cli('search', 'pets', ...PETSTORE, '--json');
    const total = (JSON.parse(all.stdout) as { total: number }).total;
    expect(total).toBeGreaterThan(1);
    for (const offset of [String(total), '99999']) {
      const r = cli('search', 'pets', ...PETSTORE, '--offset', offset);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe(`no results past ${total} for "pets" in petstore; use an --offset from 0 to ${total - 1}\n`);
    }
    const last = cli('search', 'pets', ...PETSTORE, '--offset', String(total - 1));
    expect(last.code).toBe(0);
    expect(last.stdout).toMatch(new RegExp(`\\n${total}-${total} of ${total} in petstore; `));
  });
});

describe('search that finds nothing', () => {
  it('offers no correction that finds nothing either, and gives the next step', () => {
    // "plugh" corrects to "plug", which matches no operation of the GitHub catalog either
    const r = cli('search', 'xyzzy plugh');
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/did you mean/);
    expect(r.stdout).toBe('no operations match "xyzzy plugh" in github\nnext: `api-catalog domains` lists the domains; browse one with --domain <d> and an empty query, or try other words\n');
    const json = JSON.parse(cli('search', 'xyzzy plugh', '--json').stdout) as { suggest: { didYouMean: string[] } };
    expect(json.suggest.didYouMean).toEqual([]);
  });

  it('the next step carries the catalogs it searched', () => {
    const r = cli('search', 'blorp', ...PETSTORE);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`next: \`api-catalog domains --registry ${fixtureRegistry('petstore')}\` lists the domains`);
  });
});

describe('--domain with several catalogs', () => {
  it('a bare domain gets the prefixed ones that have it as "did you mean"', () => {
    const r = cli('search', 'list', ...TWO, '--domain', 'pets');
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^api-catalog search: --domain "pets" is not a domain here \(did you mean petstore\.pets or zoo\.pets\?\); /);
    const typo = cli('search', 'list', ...TWO, '--domain', 'kepers');
    expect(typo.stderr).toMatch(/ \(did you mean zoo\.keepers\?\); /);
  });
});

describe('an empty --registry', () => {
  it('is one plain line naming the flag, exit 2, for search and serve alike', () => {
    for (const args of [['search', 'x', '--registry', ''], ['domains', '--registry', ''], ['serve', '--registry', '']]) {
      const r = cli(...args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr).toBe(`api-catalog ${args[0]}: --registry is empty; it takes a registry folder, e.g. --registry registry/github (is a shell variable unset?)\n`);
    }
  });
});
