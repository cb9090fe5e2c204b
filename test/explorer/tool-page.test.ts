// The explorer's tool page in a real headless browser (test/helpers/explorer.ts: Debian's chromium driven by
// playwright-core against the real Streamable HTTP transport serving the embedded GitHub catalog): reached by typing a
// search, the parameters table, the agent's JSON behind a toggle with token counts checked against js-tiktoken, and
// dry runs at shareable addresses beside their form (never upstream, never a credential in the address). Fails when
// chromium is missing.
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { describe, expect, test, vi } from 'vitest';
import { describeTools, type DetailLevel } from '../../src/server/core/describe.js';
import { attachHandles } from '../../src/server/handles.js';
import { toolNames } from '../../src/server/core/names.js';
import { agentSearch, explorerRig, tableRows } from '../helpers/explorer.js';
import { rawHttp } from '../helpers/raw-http.js';

// A browser on two shared cores: page loads can take seconds under load.
vi.setConfig({ testTimeout: 90_000 });

const CANARY = 'ghp_canaryExplorerToken0123456789abcdef';
const rig = explorerRig({ name: 'ac-tool-page', token: CANARY, viewport: { width: 1280, height: 900 } });
const encoder = new Tiktoken(o200k);
const names = toolNames('');
const rows = (selector: string): Promise<string[][]> => tableRows(rig.page, selector);

/**
 * What the page must show: the describe_tools answer an agent gets, with the page's stand-in `handle` (Levels 2 and 3;
 * the server adds a real one for an agent) where the agent's is, and the o200k tokens of its compact text.
 */
function expectedTokens(tool: string, detail: DetailLevel, handle: string | undefined): { tokens: number; envelope: unknown } {
  const { envelope } = describeTools(rig.set, { tool_names: [tool], detail }, names, { settings: rig.settings });
  const withHandle = handle === undefined ? envelope : attachHandles(envelope, () => handle);
  return { tokens: encoder.encode(JSON.stringify(withHandle)).length, envelope: withHandle };
}

/** The handle in the describe_tools answer the page shows, if any: in the example call, or beside the name. */
async function shownHandle(): Promise<string | undefined> {
  const shown = JSON.parse((await rig.page.locator('#describe-output').textContent()) as string) as { value: { tools: Array<{ handle?: string; example?: { handle?: string } }> } };
  return shown.value.tools[0]?.example?.handle ?? shown.value.tools[0]?.handle;
}

describe('the tool page', () => {
  test('search by typing, open a result: parameters as a table, the agent’s JSON behind a toggle with the server’s token count', async () => {
    await rig.page.goto(`${rig.base}/`);
    await rig.page.locator('#q').pressSequentially('list pull requests');
    await rig.page.keyboard.press('Enter');
    await rig.page.waitForURL(/\?q=list\+pull\+requests/);
    const expected = await agentSearch(rig.set, 'list pull requests');
    const shown = await rows('#results');
    expect(shown[0]?.[2]).toBe(expected[0]?.name);
    const first = expected[0]?.name as string;
    await rig.page.locator('#results tbody tr').first().getByRole('link', { name: first }).click();
    await rig.page.waitForURL(new RegExp(`\\?tool=${first}`));
    // one row per argument: name, in, type, required as the registry has them
    const op = rig.set.byName.get(first)?.op;
    const params = await rows('#parameters-table');
    expect(params.map((r) => r[0])).toEqual(Object.keys(op?.inputSchema.properties ?? {}));
    for (const r of params) {
      const b = op?.bindings.find((x) => x.arg === r[0]);
      expect(r[1], r[0]).toBe(b?.in);
      expect(r[3], r[0]).toBe(op?.inputSchema.required?.includes(r[0] as string) ? 'required' : '');
    }
    // the describe_tools answer is folded away until asked for
    expect(await rig.page.locator('#agent-json').getAttribute('open')).toBeNull();
    expect(await rig.page.locator('#describe-output').isVisible()).toBe(false);
    await rig.page.locator('#agent-json summary').click();
    for (const [label, level] of [['Level 2 · parameters', 'parameters'], ['Level 3 · full', 'full'], ['Level 1 · summary', 'summary']] as const) {
      if (level !== 'parameters') await rig.page.getByRole('link', { name: label }).click();
      await expect.poll(() => rig.page.locator('.tabs [aria-current=page]').textContent()).toBe(label);
      // a level picked explicitly keeps the toggle open
      expect(await rig.page.locator('#describe-output').isVisible()).toBe(true);
      const handle = await shownHandle();
      // a handle of the real shape at Levels 2 and 3, as describe_tools gives one; none at Level 1
      if (level === 'summary') expect(handle).toBeUndefined();
      else expect(handle).toMatch(/^[0-9a-z]{1,11}\.[A-Za-z0-9_-]{16}$/);
      const want = expectedTokens(first, level, handle);
      // the tokenizer loads in a worker: until then the page shows an estimate, and a reload the exact count
      await expect
        .poll(async () => {
          const count = await rig.page.locator('#token-count').getAttribute('data-tokens');
          if (count === null) {
            await rig.page.reload();
            // the first level is the page's default: a reload folds the answer away again, the tabs with it
            if ((await rig.page.locator('#agent-json').getAttribute('open')) === null) await rig.page.locator('#agent-json summary').click();
          }
          return Number(count);
        }, { timeout: 60_000 })
        .toBe(want.tokens);
      expect(await rig.page.locator('#token-count').textContent()).toBe(`${want.tokens} tokens`);
      expect(JSON.parse((await rig.page.locator('#describe-output').textContent()) as string)).toEqual(want.envelope);
    }
  });

  test('a dry run answers beside its form, in the first viewport, at an address anyone can open; nothing is sent', async () => {
    rig.up.clear();
    await rig.page.goto(`${rig.base}/?tool=issues_create`);
    expect(await rig.page.locator('#dry-run-result').textContent()).toContain('Press Dry run');
    await rig.page.locator('#args').fill('{"owner": "octo", "repo": "hello", "title": "Bug"}');
    await rig.page.getByRole('button', { name: 'Dry run' }).click();
    await rig.page.waitForURL(/\?tool=issues_create&args=.*#try$/);
    const request = JSON.parse((await rig.page.locator('#dry-run-request').textContent()) as string) as { method: string; url: string; headers: Record<string, string>; body: string };
    expect(request).toMatchObject({ method: 'POST', url: `${rig.up.url}/repos/octo/hello/issues`, body: '{"title":"Bug"}' });
    expect(request.headers.authorization).toBe('Bearer ***');
    expect(await rig.page.locator('#dry-run-curl').textContent()).toMatch(/^curl -X POST '.*\/repos\/octo\/hello\/issues'/);
    expect(await rig.page.content()).not.toContain(CANARY);
    // the address is the dry run: opened afresh (no fragment, another browser context) it shows the same answer,
    // beside the form and in the first 1280 x 800 viewport (a laptop; the screenshots' size)
    const shared = rig.page.url().replace(/#try$/, '');
    expect(shared).not.toContain(CANARY);
    const other = await rig.browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const p = await other.newPage();
      await p.goto(shared);
      expect(JSON.parse((await p.locator('#dry-run-request').textContent()) as string)).toEqual(request);
      const form = await p.locator('form.try-form').boundingBox();
      const answer = await p.locator('#dry-run-result').boundingBox();
      const ok = await p.locator('#dry-run-result .ok').boundingBox();
      expect(form && answer && ok).toBeTruthy();
      if (!form || !answer || !ok) return;
      expect(answer.x).toBeGreaterThanOrEqual(form.x + form.width); // beside, to the right
      expect(answer.y).toBeLessThan(form.y + form.height); // on the same band, not below it
      expect(ok.y + ok.height).toBeLessThanOrEqual(800); // readable without scrolling
      expect(await p.locator('#dry-run-link').getAttribute('href')).toBe(`${shared.slice(rig.base.length)}#try`);
    } finally {
      await other.close();
    }
    // the form keeps what was typed; invalid arguments show execute_tool's own error
    await rig.page.locator('#args').fill('{"owner": "octo"}');
    await rig.page.getByRole('button', { name: 'Dry run' }).click();
    await expect.poll(() => rig.page.locator('#dry-run-result [role=alert]').textContent()).toMatch(/^INVALID_ARGUMENTS: .*required property/);
    expect(await rig.page.locator('#args').inputValue()).toBe('{"owner": "octo"}');
    await rig.page.locator('#args').fill('{not json');
    await rig.page.getByRole('button', { name: 'Dry run' }).click();
    await expect.poll(() => rig.page.locator('#dry-run-error').textContent()).toContain('not valid JSON');
    expect(rig.up.requests).toHaveLength(0);
  });

  test('no credential ever stays in a dry run’s address: pasted tokens, credential-named arguments and the server’s own secret', async () => {
    const pasted = 'ghp_R7fKq2Lm9Xw4Tz8Nc1Vb6Hy3Jd5Gs0Pa2Qe7';
    for (const [args, gone] of [
      [`{"owner": "octo", "repo": "hello", "title": "token ${pasted}"}`, pasted],
      [`{"owner": "octo", "repo": "hello", "title": "Bug", "body": "${CANARY}"}`, CANARY],
      ['{"owner": "octo", "repo": "hello", "title": "Bug", "password": "hunter2-is-not-safe"}', 'hunter2-is-not-safe'],
    ] as const) {
      await rig.page.goto(`${rig.base}/?tool=issues_create`);
      await rig.page.locator('#args').fill(args);
      await rig.page.getByRole('button', { name: 'Dry run' }).click();
      await rig.page.waitForURL(/redacted=1/);
      expect(rig.page.url()).not.toContain(encodeURIComponent(gone).slice(0, 12));
      expect(decodeURIComponent(rig.page.url())).toContain('[REDACTED]');
      expect(await rig.page.locator('#dry-run-redacted').textContent()).toContain('credential-shaped value was taken out');
      expect(await rig.page.content()).not.toContain(gone);
      expect(await rig.page.locator('#args').inputValue()).toContain('[REDACTED]');
    }
    // the form of earlier versions (a POST) is answered with the cleaned address
    const posted = await rawHttp(rig.srv.port, 'POST', '/explorer/dry-run', { origin: rig.base, 'content-type': 'application/x-www-form-urlencoded' }, `tool=issues_create&args=${encodeURIComponent(`{"title": "${pasted}"}`)}`);
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toMatch(/^\/\?tool=issues_create&args=.*&redacted=1#try$/);
    expect(decodeURIComponent(String(posted.headers.location))).not.toContain(pasted);
  });
});
