// `serve --help` names every credential variable a catalog may read: besides <CATALOG>_TOKEN, _API_KEY, _USERNAME and
// _PASSWORD, the per-scheme <CATALOG>_<SCHEME>_API_KEY of a catalog with an operation that takes two or more API keys
// (before, the help named only <CATALOG>_API_KEY, and such a catalog ignores it). docs/CLI.md (generated from the
// help, `node scripts/docs.mjs`) and docs/CONFIGURATION.md say the same. Real parts: the built CLI.
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { builtCli } from '../helpers/mcp.js';
import { runProcess } from '../helpers/run.js';

const LINE = 'as alternatives) reads each from its own <CATALOG>_<SCHEME>_API_KEY (renamed by credentials["apiKey:<scheme>"]).';

it('serve --help names <CATALOG>_<SCHEME>_API_KEY beside <CATALOG>_API_KEY; docs/CLI.md has the same lines', async () => {
  const r = await runProcess(process.execPath, [builtCli(), 'serve', '--help'], { env: { PATH: process.env.PATH ?? '' } });
  expect(r.status, r.stderr).toBe(0);
  expect(r.stdout).toContain('credentials come from <CATALOG>_TOKEN, _API_KEY, _USERNAME, _PASSWORD (or the names the file gives)');
  expect(r.stdout).toContain(`A catalog with an operation that takes two or more API keys (together or\n${LINE}`);
  expect(readFileSync('docs/CLI.md', 'utf8')).toContain(LINE);
  expect(readFileSync('docs/CONFIGURATION.md', 'utf8')).toContain('env `<CATALOG>_<SCHEME>_API_KEY` for each');
});
