// One "did you mean" for the command line and the config file (src/config/did-you-mean.ts): a mistyped flag and a
// mistyped config key are ranked alike, the config file's singular-for-plural and case matches included, and a tie
// goes to the name a swap of two letters explains.
import { describe, expect, test } from 'vitest';
import { parseServeArgs } from '../src/cli/args.js';
import { parseConfigFile } from '../src/config.js';
import { closest } from '../src/did-you-mean.js';

function thrown(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
  return 'no error';
}

describe('closest', () => {
  test('case and singular/plural first, then a start of 3+ letters, then a small edit distance', () => {
    expect(closest('readonly', ['readOnly', 'registries'])).toEqual(['readOnly']);
    expect(closest('registry', ['readOnly', 'registries'])).toEqual(['registries']);
    expect(closest('--registries', ['--registry', '--region'])).toEqual(['--registry']);
    expect(closest('rateLimit', ['rateLimitPerMinute', 'rateLimiter'])).toEqual(['rateLimiter', 'rateLimitPerMinute']);
    expect(closest('prot', ['host', 'port', 'http'])).toEqual(['port']);
    expect(closest('--prot', ['--port', '--registry'])).toEqual(['--port']);
    expect(closest('xyzzy', ['port', 'host'])).toEqual([]);
    expect(closest('', ['port'])).toEqual([]);
    expect(closest('port', ['host', 'post', 'part', 'sort'], 1)).toEqual(['part']);
  });

  test('a tie goes to the name a swap of two letters explains, not to the alphabet or the list order', () => {
    expect(closest('nicludeDomains', ['includeDomains', 'excludeDomains'])).toEqual(['includeDomains', 'excludeDomains']);
    expect(closest('xecludeDomains', ['includeDomains', 'excludeDomains'])).toEqual(['excludeDomains', 'includeDomains']);
    expect(closest('--htpt', ['--host', '--http'])).toEqual(['--http', '--host']);
  });
});

describe('the same suggestion where people meet it', () => {
  test('serve --htpt: --http first', () => {
    expect(thrown(() => parseServeArgs(['--htpt']))).toMatch(/^serve: unknown option "--htpt" \(did you mean --http or --host\?\)/);
  });

  test('serve.xecludeDomains in the config file: excludeDomains, not includeDomains', () => {
    expect(thrown(() => parseConfigFile(JSON.stringify({ serve: { xecludeDomains: ['x'] } }), 'typo.json'))).toMatch(/serve\.xecludeDomains is not a known key .*; did you mean "excludeDomains"\?$/);
  });
});

