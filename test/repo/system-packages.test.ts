// The system packages the test suite drives (Redis, nginx, HAProxy, Chromium, openssl) are the ones .ci/run installs,
// and README.md (beside `npm test`) and docs/DEVELOPMENT.md name them in one `apt-get install` line: the first-hour
// audit found the README promising `npm test` "with nothing beside the clone" while those tests fail without them.
// Each test helper that needs one fails naming its package and the apt-get line.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../helpers/mcp.js';

const read = (f: string): string => readFileSync(join(REPO_ROOT, f), 'utf8');
/** What .ci/run installs when missing: its `need+=(<package>)` lines. */
const installed = [...read('.ci/run').matchAll(/need\+=\(([\w-]+)\)/g)].map((m) => m[1] as string);
const line = `apt-get install ${installed.join(' ')}`;

describe('the system packages of the test suite', () => {
  test('.ci/run installs the five the tests drive', () => {
    expect([...installed].sort()).toEqual(['chromium', 'haproxy', 'nginx', 'openssl', 'redis-server']);
  });

  test('README.md names them next to `npm test`, with the apt-get line and .ci/run', () => {
    const readme = read('README.md');
    const block = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    // the first screen keeps its two set-up commands
    expect(block.trim().split('\n').map((l) => l.split('#')[0]?.trim())).toEqual(['npm install && npm start', 'npm test']);
    const testLine = block.split('\n').find((l) => l.startsWith('npm test')) ?? '';
    for (const p of installed) expect(testLine, p).toContain(p);
    const firstScreen = readme.slice(0, readme.indexOf('## Contents'));
    expect(firstScreen).toContain(line);
    expect(firstScreen).toContain('.ci/run');
    expect(firstScreen).not.toMatch(/with nothing beside the clone:\n/);
  });

  test('docs/DEVELOPMENT.md names them, the apt-get line and .ci/run', () => {
    const dev = read('docs/DEVELOPMENT.md');
    expect(dev).toContain(line);
    expect(dev).toContain('.ci/run');
  });

  test('.ci/run no longer says it needs ../shared', () => {
    const head = read('.ci/run').split('\n').slice(0, 4).join('\n');
    expect(head).not.toMatch(/with \.\.\/shared beside it/);
    expect(head).toMatch(/optional/);
  });

  test.each([
    ['test/helpers/redis.ts', 'redis-server'],
    ['test/helpers/balancer.ts', '${kind}'],
    ['test/helpers/tls.ts', 'openssl'],
    ['test/helpers/explorer.ts', 'chromium'],
    ['test/explorer/look.test.ts', 'chromium'],
  ])('%s fails naming the package and its apt-get line', (file, pkg) => {
    expect(read(file)).toContain(`apt-get install ${pkg}`);
  });
});
