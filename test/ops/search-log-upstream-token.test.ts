// A caller's own X-Upstream-Token pasted into a search query, with a real `serve --http --search-log` process, a real
// MCP client of each era and a real tokens file (needs `npm run build`): the search log gets it redacted (also
// percent-encoded and in base64), and so does the explorer's log view, which every catalog:read principal may open
// (here rob, another principal). Before, the search log redacted only the credentials configured at start, so the
// value was written in clear and shown to everyone.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { newToken } from '../../src/server/auth/tokens.js';
import { ERAS, call, connectHttp, fixtureRegistry } from '../helpers/mcp.js';
import { startReplica } from '../helpers/replicas.js';
import { tempDir } from '../helpers/temp.js';

test('the caller\'s X-Upstream-Token in a search query: redacted in the search log file and the explorer\'s log view', async () => {
  const dir = tempDir('ac-search-log-upstream-');
  const log = join(dir, 'search.jsonl');
  const tokens = join(dir, 'tokens.txt');
  const alice = newToken('alice', ['catalog:read', 'catalog:execute']);
  const rob = newToken('rob', ['catalog:read']);
  writeFileSync(tokens, `${alice.line}\n${rob.line}\n`, { mode: 0o600 });
  const r = await startReplica(['--registry', fixtureRegistry('petstore'), '--tokens', tokens, '--search-log', log], { API_CATALOG_READ_RATE_LIMIT: '0' });
  const secrets: string[] = [];
  try {
    for (const era of ERAS) {
      // a basic user:password credential: the password alone is a secret too
      const password = `UPSTREAM-SECRET-${era}-77xq/+ key`;
      const upstream = `svc-${era}:${password}`;
      secrets.push(upstream, encodeURIComponent(upstream), Buffer.from(upstream).toString('base64'), password, encodeURIComponent(password));
      const client = await connectHttp(r.url, era, { headers: { authorization: `Bearer ${alice.token}`, 'x-upstream-token': upstream } });
      try {
        for (const query of [`inventory ${upstream}`, `pets ${encodeURIComponent(upstream)}`, `orders ${Buffer.from(upstream).toString('base64')}`, `users ${password}`]) {
          const found = await call(client, 'search_tools', { query });
          expect(found.success, JSON.stringify(found)).toBe(true);
        }
      } finally {
        await client.close();
      }
    }
    const text = readFileSync(log, 'utf8');
    const queries = text.trim().split('\n').map((l) => JSON.parse(l) as { type: string; query?: string }).filter((l) => l.type === 'search').map((l) => l.query);
    expect(queries).toEqual(ERAS.flatMap(() => ['inventory [REDACTED]', 'pets [REDACTED]', 'orders [REDACTED]', 'users [REDACTED]']));
    // another principal's view of the log (the explorer, with rob's read-only token)
    const page = await fetch(`http://127.0.0.1:${r.port}/?view=log`, { headers: { authorization: `Bearer ${rob.token}`, accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('inventory [REDACTED]');
    for (const s of secrets) {
      expect(text).not.toContain(s);
      expect(html).not.toContain(s);
      expect(r.stderr()).not.toContain(s);
    }
  } finally {
    await r.stop();
  }
}, 60_000);
