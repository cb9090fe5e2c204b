// `npm run docs -- --check` checks everything `npm run docs` rewrites, the option table and docs/config.schema.json
// of `npm run config-schema` included (before, --check skipped them and passed a stale table). Run in a scratch
// checkout with no generated blocks, so only config-schema's files are compared and this checkout is never written.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/run.js';
import { scratchCheckout } from '../helpers/scratch-checkout.js';

const TABLE = 'docs/CONFIGURATION.md';
const SCHEMA = 'docs/config.schema.json';

describe('docs --check and config-schema --check', () => {
  it('fail on a stale option table or schema, write nothing, and pass once config-schema has rewritten them', async () => {
    const root = scratchCheckout('config-check-', { specs: {}, copy: [TABLE, SCHEMA], files: { 'README.md': '# scratch\n' } });
    const node = (...args: string[]) => runProcess(process.execPath, args, { cwd: root });
    // this build's table and schema, whatever the checkout's copies say
    const first = await node('scripts/config-schema.mjs');
    expect(first.status, first.stderr).toBe(0);
    const current = readFileSync(join(root, TABLE), 'utf8');
    expect((await node('scripts/docs.mjs', '--check')).status).toBe(0);

    const lines = current.split('\n');
    const at = lines.findIndex((l) => l.startsWith('<!-- options:start'));
    expect(at).toBeGreaterThan(0);
    const stale = [...lines.slice(0, at + 3), '| `stale.option` | a row that is not in src/config | | |', ...lines.slice(at + 3)].join('\n');
    writeFileSync(join(root, TABLE), stale);
    const docs = await node('scripts/docs.mjs', '--check');
    expect(docs.status, docs.stdout + docs.stderr).toBe(1);
    expect(docs.stdout).toContain(`${TABLE}: stale: the option table or schema of src/config/`);
    expect(docs.stdout).not.toContain(`${SCHEMA}: stale`);
    const own = await node('scripts/config-schema.mjs', '--check');
    expect(own.status).toBe(1);
    expect(own.stdout).toContain('config-schema: 1 stale; run `npm run config-schema` to rewrite');
    expect(readFileSync(join(root, TABLE), 'utf8')).toBe(stale);

    const write = await node('scripts/config-schema.mjs');
    expect(write.status, write.stderr).toBe(0);
    expect(readFileSync(join(root, TABLE), 'utf8')).toBe(current);
    expect((await node('scripts/docs.mjs', '--check')).status).toBe(0);

    writeFileSync(join(root, SCHEMA), '{}\n');
    const schema = await node('scripts/docs.mjs', '--check');
    expect(schema.status).toBe(1);
    expect(schema.stdout).toContain(`${SCHEMA}: stale`);
  });
});
