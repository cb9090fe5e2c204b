// Dry runs whose arguments are long, in a real browser (Debian's chromium via playwright-core) and over raw HTTP,
// against the real Streamable HTTP transport serving the embedded GitHub catalog. The form posts its arguments, so
// their length is never an address's: a short dry run is sent on to its shareable address, a long one (an issue body
// of 20 KB, whose address would pass Node's 16 KB header limit and end in a bare 431) is answered where it was posted,
// in full, without a link. And base64 file content is dry-run as typed, not taken for a token. Fails when chromium is
// missing.
import { describe, expect, test, vi } from 'vitest';
import { explorerRig } from '../helpers/explorer.js';
import { rawHttp } from '../helpers/raw-http.js';

vi.setConfig({ testTimeout: 90_000 });

const CANARY = 'ghp_longFormCanaryToken0123456789abcdef';
const rig = explorerRig({ name: 'ac-dry-long', token: CANARY, viewport: { width: 1280, height: 900 } });

/** An issue body of about 20 KB: a Markdown report with newlines and quotes, each of which an address encodes long. */
function longBody(): string {
  const lines: string[] = [];
  for (let i = 0; lines.join('\n').length < 20_000; i++) lines.push(`- step ${i}: ran "npm test" and saw \`TypeError: "x" is not a function\` at line ${i * 7}`);
  return lines.join('\n');
}

const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();
const posted = { 'content-type': 'application/x-www-form-urlencoded' };

describe('long arguments', () => {
  test('typed into the form: the answer is shown in full, without a link, and the form keeps every character', async () => {
    rig.up.clear();
    const args = JSON.stringify({ owner: 'octo', repo: 'hello', title: 'A long report', body: longBody() }, null, 2);
    expect(encodeURIComponent(args).length).toBeGreaterThan(16 * 1024);
    await rig.page.goto(`${rig.base}/?tool=issues_create`);
    await rig.page.locator('#args').fill(args);
    const [response] = await Promise.all([rig.page.waitForNavigation(), rig.page.getByRole('button', { name: 'Dry run' }).click()]);
    expect(response?.status()).toBe(200);
    expect(new URL(rig.page.url()).pathname).toBe('/explorer/dry-run');
    const request = JSON.parse((await rig.page.locator('#dry-run-request').textContent()) as string) as { method: string; url: string; body: string };
    expect(request).toMatchObject({ method: 'POST', url: `${rig.up.url}/repos/octo/hello/issues` });
    expect(JSON.parse(request.body)).toEqual({ title: 'A long report', body: longBody() });
    expect(await rig.page.locator('#dry-run-verdict').textContent()).toMatch(/^Valid arguments/);
    expect(await rig.page.locator('#dry-run-link').count()).toBe(0);
    expect(await rig.page.locator('#dry-run-unshared').textContent()).toContain('too long for an address');
    expect(await rig.page.locator('#args').inputValue()).toBe(args);
    expect(await rig.page.content()).not.toContain(CANARY);
    expect(rig.up.requests).toHaveLength(0);
  });

  test('a short dry run is still sent on to its shareable address', async () => {
    await rig.page.goto(`${rig.base}/?tool=issues_create`);
    await rig.page.locator('#args').fill('{"owner": "octo", "repo": "hello", "title": "Bug"}');
    await rig.page.getByRole('button', { name: 'Dry run' }).click();
    await rig.page.waitForURL(/\/\?tool=issues_create&args=.*#try$/);
    expect(await rig.page.locator('#dry-run-link').count()).toBe(1);
  });

  test('over HTTP: a long posted dry run is answered there (200), with credentials taken out as for an address', async () => {
    const body = `${longBody()} and ${CANARY}`;
    const res = await rawHttp(rig.srv.port, 'POST', '/explorer/dry-run', { origin: rig.base, ...posted }, form({ tool: 'issues_create', level: 'full', args: JSON.stringify({ owner: 'octo', repo: 'hello', title: 't', body }) }));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.body).toContain('id="dry-run-request"');
    expect(res.body).toContain('id="dry-run-redacted"');
    expect(res.body).not.toContain(CANARY);
    // the level asked for is shown, and its links do not carry the arguments
    expect(res.body).toContain('<details class="agent" open id="agent-json">');
    expect(res.body).toContain('<a href="/?tool=issues_create&amp;level=full#agent-json" aria-current="page">');
    // an empty form is a dry run of {}
    const empty = await rawHttp(rig.srv.port, 'POST', '/explorer/dry-run', { origin: rig.base, ...posted }, form({ tool: 'issues_create', args: '' }));
    expect(empty.status).toBe(303);
    expect(empty.headers.location).toBe('/?tool=issues_create&args=#try');
  });
});

test('base64 file content is dry-run as typed: neither the form nor an address takes it for a token', async () => {
  const content = 'SGVsbG8gV29ybGQgdGhpcyBpcyBhIGxvbmdlciBmaWxlIGNvbnRlbnQgaW4gYmFzZTY0';
  const args = JSON.stringify({ owner: 'octo', repo: 'hello', path: 'a.txt', message: 'm', content });
  const shared = await rawHttp(rig.srv.port, 'GET', `/?tool=repos_create-or-update-file-contents&args=${encodeURIComponent(args)}`, {});
  expect(shared.status).toBe(200);
  expect(shared.body).not.toContain('[REDACTED]');
  const res = await rawHttp(rig.srv.port, 'POST', '/explorer/dry-run', { origin: rig.base, ...posted }, form({ tool: 'repos_create-or-update-file-contents', args }));
  expect(res.status).toBe(303);
  expect(res.headers.location).not.toContain('redacted=1');
  expect(new URLSearchParams(String(res.headers.location).replace(/^\/\?/, '').replace(/#try$/, '')).get('args')).toBe(args);
  // a token pasted into another argument is still taken out
  const pasted = JSON.stringify({ owner: 'octo', repo: 'hello', path: 'a.txt', message: 'ghp_R7fKq2Lm9Xw4Tz8Nc1Vb6Hy3Jd5Gs0Pa2Qe7', content });
  const cleaned = await rawHttp(rig.srv.port, 'GET', `/?tool=repos_create-or-update-file-contents&args=${encodeURIComponent(pasted)}`, {});
  expect(cleaned.status).toBe(303);
  expect(decodeURIComponent(String(cleaned.headers.location))).toContain(content);
  expect(decodeURIComponent(String(cleaned.headers.location))).not.toContain('R7fKq2Lm9Xw4');
});
