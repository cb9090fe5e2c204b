#!/usr/bin/env node
// Screenshots of the catalog explorer for docs/ (npm run screenshots): serves the embedded GitHub catalog from the
// build (dist/) on a free loopback port with a search log that a real MCP client fills, then photographs the main
// views in Debian's chromium (playwright-core) at 1280 x 800 and one at phone width (390 px): domains, search with
// why each hit ranks, an operation, a dry run beside its form, the search log, the README walkthrough's fixed search
// and SendGrid imported with display names (test/fixtures/overlays/sendgrid-names.yaml). Writes docs/explorer-*.png.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { chromium } from 'playwright-core';
import { dist, ROOT } from './bench/lib/common.mjs';
import { usage } from './lib/usage.mjs';

usage(import.meta.url);

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  console.error(`screenshots: ${CHROMIUM} is missing; install Debian's chromium or set CHROMIUM_PATH`);
  process.exit(1);
}

const { loadCatalogSet } = await dist('server/index.js');
const { serveHttp } = await dist('server/transports/http.js');
const { SearchLog } = await dist('server/search-log.js');

const dir = mkdtempSync(join(tmpdir(), 'ac-screens-'));
const set = loadCatalogSet([]);
const searchLog = new SearchLog({ file: join(dir, 'search.jsonl') });
const srv = await serveHttp({ catalogs: set, settings: { baseUrls: {}, readOnly: false, env: {} }, searchLog, rateLimitPerMinute: 0 }, { port: 0, explorer: true });
const base = `http://127.0.0.1:${srv.port}`;
let browser;
try {
  // What agents did: searches, some followed by a describe, some that found nothing useful.
  const agent = new Client({ name: 'screenshots', version: '1.0.0' });
  await agent.connect(new StreamableHTTPClientTransport(new URL(srv.url)));
  const session = [
    ['create an issue', 'issues_create'],
    ['list pull requests', 'pulls_list'],
    ['star a repository', 'activity_star-repo-for-authenticated-user'],
    ['open a ticket', null],
    ['invite a teammate to the repo', null],
    ['frobnicate the widget', null],
    ['create an issue', 'issues_create'],
  ];
  for (const [query, describe] of session) {
    await agent.callTool({ name: 'search_tools', arguments: { query } });
    if (describe) await agent.callTool({ name: 'describe_tools', arguments: { tool_names: [describe] } });
  }
  await agent.close();

  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const desktop = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const shots = [
    ['explorer-domains.png', '/'],
    ['explorer-search.png', '/?q=create%20an%20issue'],
    ['explorer-operation.png', '/?tool=issues_create'],
    ['explorer-search-log.png', '/?view=log'],
  ];
  for (const [file, path] of shots) {
    await desktop.goto(base + path);
    await desktop.screenshot({ path: join(ROOT, 'docs', file) });
    console.log(`docs/${file}  ${path}`);
  }
  await desktop.goto(`${base}/?q=create%20an%20issue`);
  await desktop.locator('#explain summary').click();
  await desktop.locator('#explain').scrollIntoViewIfNeeded();
  await desktop.screenshot({ path: join(ROOT, 'docs', 'explorer-search-why.png') });
  console.log('docs/explorer-search-why.png  /?q=create an issue, "Why these rank in this order" open');
  await desktop.goto(`${base}/?tool=issues_create`);
  await desktop.locator('#args').fill('{"owner": "octocat", "repo": "hello-world", "title": "Found a bug"}');
  await desktop.getByRole('button', { name: 'Dry run' }).click();
  await desktop.waitForURL(/args=/);
  await desktop.screenshot({ path: join(ROOT, 'docs', 'explorer-dry-run.png') });
  console.log(`docs/explorer-dry-run.png  ${desktop.url().slice(base.length)}`);
  const phone = await browser.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, deviceScaleFactor: 2 });
  await phone.goto(`${base}/?q=create%20an%20issue`);
  await phone.screenshot({ path: join(ROOT, 'docs', 'explorer-phone.png') });
  console.log('docs/explorer-phone.png  /?q=create an issue at 390 px');

  // The README walkthrough's last step: GitHub imported with the "tickets" overlay, the search fixed in the page.
  const imported = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli', 'index.js'), 'import', join(ROOT, 'openapi', 'github.json'), '--overlay', join(ROOT, 'test', 'fixtures', 'overlays', 'github-tickets.yaml'), '--out', join(dir, 'curated'), '--quiet'], { encoding: 'utf8' });
  if (imported.status !== 0) throw new Error(`screenshots: the curated import failed: ${imported.stderr}`);
  const curated = await serveHttp({ catalogs: loadCatalogSet([join(dir, 'curated', 'github')]), settings: { baseUrls: {}, readOnly: false, env: {} } }, { port: 0, explorer: true });
  try {
    await desktop.goto(`http://127.0.0.1:${curated.port}/?q=open%20a%20ticket`);
    await desktop.screenshot({ path: join(ROOT, 'docs', 'explorer-overlay-fixed.png') });
    console.log('docs/explorer-overlay-fixed.png  /?q=open a ticket on GitHub imported with test/fixtures/overlays/github-tickets.yaml');
  } finally {
    await curated.close();
  }

  // Names people can live with: SendGrid's spec says "Email Activity (beta)" and GET_mc-contats; the overlay renames.
  const sendgrid = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli', 'index.js'), 'import', join(ROOT, 'test', 'fixtures', 'real-specs', 'sendgrid.json'), '--overlay', join(ROOT, 'test', 'fixtures', 'overlays', 'sendgrid-names.yaml'), '--out', join(dir, 'named'), '--quiet'], { encoding: 'utf8' });
  if (sendgrid.status !== 0) throw new Error(`screenshots: the SendGrid import failed: ${sendgrid.stderr}`);
  const named = await serveHttp({ catalogs: loadCatalogSet([join(dir, 'named', 'sendgrid')]), settings: { baseUrls: {}, readOnly: false, env: {} } }, { port: 0, explorer: true });
  try {
    await desktop.goto(`http://127.0.0.1:${named.port}/?domain=contacts`);
    await desktop.screenshot({ path: join(ROOT, 'docs', 'explorer-names.png') });
    console.log('docs/explorer-names.png  /?domain=contacts on SendGrid imported with test/fixtures/overlays/sendgrid-names.yaml');
  } finally {
    await named.close();
  }
} finally {
  await browser?.close();
  await srv.close();
  searchLog.close();
  rmSync(dir, { recursive: true, force: true });
}
