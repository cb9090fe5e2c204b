// The set-up the explorer's browser tests share: a local upstream, the embedded GitHub catalog served over the real
// Streamable HTTP transport with the explorer on (its search log in a scratch folder), an agent session over real
// HTTP that fills that log, and Debian's chromium driven by playwright-core. explorerRig() registers the
// beforeAll/afterAll that start and stop it all; the rig's fields are set once the file's beforeAll has run.
// Fails when chromium is missing. Also what their tests read pages with (table rows, the agents' search ranking).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { loadCatalogSet, type CatalogSet, type ExecutionSettings } from '../../src/server/core/catalogs.js';
import { toolNames } from '../../src/server/core/names.js';
import { searchTools } from '../../src/server/core/search.js';
import { SearchLog } from '../../src/server/search-log.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { tempDir } from './temp.js';
import { startUpstream, type Upstream } from './upstream.js';

export const CHROMIUM = '/usr/bin/chromium';

export interface ExplorerRig {
  /** A scratch folder (the search log lives there), removed afterwards. */
  dir: string;
  /** The embedded GitHub catalog, its search index built. */
  set: CatalogSet;
  /** GitHub pointed at the local upstream, with the canary GITHUB_TOKEN. */
  settings: ExecutionSettings;
  up: Upstream;
  /** The explorer server: the catalog, the settings, the search log; no rate limit. */
  srv: HttpHandle;
  /** `http://127.0.0.1:<port>` of srv. */
  base: string;
  browser: Browser;
  /** A page in a context of the viewport asked for. */
  page: Page;
  /** Another server on a free port with the explorer on (options add to that), closed with the rig. */
  serve(deps: Parameters<typeof serveHttp>[0], options?: Parameters<typeof serveHttp>[1]): Promise<HttpHandle>;
}

export interface ExplorerRigOptions {
  /** The scratch folder's name prefix. */
  name: string;
  /** The GITHUB_TOKEN the server holds: a canary that no page may show. */
  token: string;
  /** The page's viewport. */
  viewport: { width: number; height: number };
  /** An agent's session over real HTTP, before the browser starts (it fills the search log); default none. */
  agent?: { name: string; session: (client: Client) => Promise<void> };
}

/** `http://127.0.0.1:<port>` of a server on loopback. */
export const baseOf = (h: HttpHandle): string => `http://127.0.0.1:${h.port}`;

/** The cells' texts, trimmed, of each body row of the table at `selector`. */
export function tableRows(page: Page, selector: string): Promise<string[][]> {
  return page.locator(`${selector} tbody tr`).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())));
}

/** What search_tools answers an agent for `query` (25 hits): the ranking the explorer's search page must show. */
export async function agentSearch(set: CatalogSet, query: string): Promise<Array<{ name: string; score: number }>> {
  const env = await searchTools(set, { query, limit: 25 }, toolNames(''));
  if (!env.success) throw new Error('search failed');
  return (env.value as { results: Array<{ name: string; score: number }> }).results;
}

/** Registers the rig's beforeAll and afterAll in the calling test file and returns the rig they fill. */
export function explorerRig(options: ExplorerRigOptions): ExplorerRig {
  const servers: HttpHandle[] = [];
  const rig = {
    serve: async (deps: Parameters<typeof serveHttp>[0], more: Parameters<typeof serveHttp>[1] = {}): Promise<HttpHandle> => {
      const h = await serveHttp(deps, { port: 0, explorer: true, ...more });
      servers.push(h);
      return h;
    },
  } as ExplorerRig;

  beforeAll(async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium); .ci/run does`).toBe(true);
    rig.dir = tempDir(`${options.name}-`);
    rig.up = await startUpstream();
    rig.set = loadCatalogSet([]);
    void rig.set.index;
    rig.settings = { baseUrls: { github: rig.up.url }, readOnly: false, env: { GITHUB_TOKEN: options.token } };
    const searchLog = new SearchLog({ file: join(rig.dir, 'search.jsonl') });
    rig.srv = await rig.serve({ catalogs: rig.set, settings: rig.settings, searchLog, rateLimitPerMinute: 0 });
    rig.base = baseOf(rig.srv);
    if (options.agent !== undefined) {
      const agent = new Client({ name: options.agent.name, version: '1.0.0' });
      await agent.connect(new StreamableHTTPClientTransport(new URL(rig.srv.url)));
      await options.agent.session(agent);
      await agent.close();
    }
    rig.browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    rig.page = await (await rig.browser.newContext({ viewport: options.viewport })).newPage();
  }, 120_000);

  afterAll(async () => {
    await rig.browser?.close();
    await Promise.all([...servers.map((s) => s.close()), rig.up?.close()]);
  });

  return rig;
}
