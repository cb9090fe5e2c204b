// What the explorer's dry run answers, over the real HTTP transport (raw requests, and a real MCP client where the page
// must match what an agent gets), for a small spec that has what the GitHub catalog lacks: credentials of each kind
// (a header key, a query key, HTTP Basic), required arguments that are numbers, lists, choices and flags, and an
// operation whose import kept no example. The form starts with values the schema accepts where it can, and what only a
// placeholder breaks is told as a placeholder, never as a red error; a server without the credential still shows the
// request, with `<ENV_VAR not set>` where it goes and never a secret; the plain-http warning is shown once; the
// describe_tools answer shown carries a handle of the real length, which execute_tool refuses; a posted dry run too
// long for an address is shown without a link.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tiktoken } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet, type CatalogSet, type ExecutionSettings } from '../../src/server/core/catalogs.js';
import { exampleArgs, MAX_ADDRESS_CHARS } from '../../src/server/explorer/dry-run.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import type { Operation } from '../../src/types.js';
import { call, connectHttp } from '../helpers/mcp.js';
import { rawHttp } from '../helpers/raw-http.js';
import { tempDir } from '../helpers/temp.js';

// the exact token count comes from a worker that loads js-tiktoken: seconds on two busy cores
vi.setConfig({ testTimeout: 90_000 });

const CANARY = 'gadget-key-CANARY-0123456789';
const ok = { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } } };
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Gadgets', version: '1.0' },
  servers: [{ url: 'https://api.gadgets.example/v1' }],
  components: {
    securitySchemes: {
      key: { type: 'apiKey', in: 'header', name: 'X-Gadget-Key' },
      qkey: { type: 'apiKey', in: 'query', name: 'key' },
      basic: { type: 'http', scheme: 'basic' },
    },
  },
  security: [{ key: [] }],
  paths: {
    '/gadgets/{gadget_id}': {
      get: { operationId: 'getGadget', summary: 'Get a gadget', parameters: [{ name: 'gadget_id', in: 'path', required: true, schema: { type: 'string' }, example: 'g1' }], responses: ok },
      put: {
        operationId: 'scheduleGadget',
        summary: 'Schedule a gadget',
        parameters: [{ name: 'gadget_id', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['send_at', 'count', 'tags', 'notify', 'options', 'mode', 'when'],
                properties: {
                  send_at: { type: 'string', enum: ['now', 'later'] },
                  count: { type: 'integer', minimum: 1 },
                  tags: { type: 'array', items: { type: 'string' } },
                  notify: { type: 'boolean' },
                  options: { type: 'object', properties: { colour: { type: 'string' } } },
                  mode: { type: 'string', default: 'fast' },
                  // no value passes (SendGrid's send_at): its only allowed value is no date-time
                  when: { type: 'string', format: 'date-time', enum: ['now'] },
                },
              },
            },
          },
        },
        responses: ok,
      },
      patch: {
        operationId: 'patchGadget',
        summary: 'Patch a gadget',
        parameters: [{ name: 'gadget_id', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { type: 'array', minItems: 1, items: { type: 'object', required: ['op'], properties: { op: { type: 'string' } } } } } },
        },
        responses: ok,
      },
    },
    '/search': {
      get: { operationId: 'searchGadgets', summary: 'Search gadgets', security: [{ qkey: [] }], parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'string' }, example: 'blue' }], responses: ok },
    },
    '/admin/reset': { post: { operationId: 'resetGadgets', summary: 'Reset every gadget', security: [{ basic: [] }], responses: ok } },
  },
};

/** Operations whose import kept no example (LaunchDarkly's patch operations, Vimeo's numeric ids): the page fills in. */
const WITHOUT_EXAMPLES = ['scheduleGadget', 'patchGadget'];

let dir = '';
let set: CatalogSet;
/** No GADGETS_* credential set. */
let bare: HttpHandle;
/** GADGETS_API_KEY set (the canary), the API at a plain-http, non-loopback address (never called: dry runs only). */
let keyed: HttpHandle;

beforeAll(async () => {
  dir = tempDir('ac-dry-answers-');
  const file = join(dir, 'gadgets.json');
  writeFileSync(file, JSON.stringify(SPEC));
  writeRegistry(await importSpec(file, { name: 'gadgets' }), dir);
  const opsFile = join(dir, 'gadgets', 'operations', 'gadgets.json');
  const ops = JSON.parse(readFileSync(opsFile, 'utf8')) as Operation[];
  for (const op of ops) if (WITHOUT_EXAMPLES.includes(op.name)) op.examples = [];
  writeFileSync(opsFile, JSON.stringify(ops, null, 2));
  set = loadCatalogSet([join(dir, 'gadgets')]);
  const settings = (env: Record<string, string>, baseUrls: Record<string, string> = {}): ExecutionSettings => ({ baseUrls, readOnly: false, env });
  bare = await serveHttp({ catalogs: set, settings: settings({}), rateLimitPerMinute: 0 }, { port: 0, explorer: true });
  keyed = await serveHttp({ catalogs: set, settings: settings({ GADGETS_API_KEY: CANARY }, { gadgets: 'http://api.gadgets.example/v1' }), rateLimitPerMinute: 0 }, { port: 0, explorer: true });
});

afterAll(async () => {
  await Promise.all([bare?.close(), keyed?.close()]);
});

function unescapeHtml(s: string): string {
  return s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** The arguments the form holds as served. */
function formArgs(body: string): string {
  const m = /<textarea id="args"[^>]*>([\s\S]*?)<\/textarea>/.exec(body);
  if (m === null) throw new Error('no #args textarea on the page');
  return unescapeHtml(m[1] as string);
}

/** The JSON in the `<pre id=…>` block. */
function jsonOf(body: string, id: string): unknown {
  const m = new RegExp(`<pre[^>]* id="${id}"><code>([\\s\\S]*?)</code></pre>`).exec(body);
  if (m === null) throw new Error(`no #${id} on the page`);
  return JSON.parse(unescapeHtml(m[1] as string));
}

/** The dry run's answer (the `#dry-run-result` panel: it holds no nested div). */
function answerOf(body: string): string {
  const m = /<div id="dry-run-result"[\s\S]*?<\/div>/.exec(body);
  if (m === null) throw new Error('no #dry-run-result on the page');
  return m[0];
}

async function page(srv: HttpHandle, path: string): Promise<string> {
  const res = await rawHttp(srv.port, 'GET', path, {});
  expect(res.status, path).toBe(200);
  return res.body;
}

const dryRunPath = (tool: string, args: string): string => `/?tool=${tool}&args=${encodeURIComponent(args)}`;

describe('the pre-filled form', () => {
  test('a required number, list, choice, flag or object starts with a value the schema accepts where one exists', () => {
    const op = set.byName.get('scheduleGadget')?.op as Operation;
    // the first allowed value, the default, false, [] and {}; a number has no honest stand-in: it stays a placeholder,
    // and so does a stand-in the schema refuses all the same
    expect(exampleArgs(op)).toEqual({ gadget_id: '<gadget_id>', send_at: 'now', count: '<count>', tags: [], notify: false, options: {}, mode: 'fast', when: '<when>' });
    // a list that must not be empty keeps its placeholder
    expect(exampleArgs(set.byName.get('patchGadget')?.op as Operation)).toEqual({ gadget_id: '<gadget_id>', body: '<body>' });
  });

  test('untouched, no operation answers with a red error: placeholders the schema refuses are named with what it wants', async () => {
    for (const tool of set.names) {
      const args = formArgs(await page(bare, `/?tool=${tool}`));
      const answer = answerOf(await page(bare, dryRunPath(tool, args)));
      expect(answer, tool).not.toContain('class="error');
      expect(answer, tool).not.toContain('role="alert"');
    }
    const answer = answerOf(await page(bare, dryRunPath('scheduleGadget', formArgs(await page(bare, '/?tool=scheduleGadget')))));
    expect(answer).toMatch(/id="dry-run-placeholders">Still a placeholder: <code>gadget_id<\/code>, <code>count<\/code>, <code>when<\/code>\./);
    expect(answer).toContain('<li><code>/gadget_id</code> the string &quot;&lt;gadget_id&gt;&quot; must be integer</li>');
    expect(answer).toContain('<li><code>/count</code>');
    expect(answer).toMatch(/id="dry-run-verdict">Not ready to send/);
    const patch = answerOf(await page(bare, dryRunPath('patchGadget', formArgs(await page(bare, '/?tool=patchGadget')))));
    expect(patch).toContain('<li><code>/body</code> the string &quot;&lt;body&gt;&quot; must be array</li>');
  });

  test('an error the reader made is still an error, placeholders or not', async () => {
    const args = JSON.stringify({ gadget_id: '<gadget_id>', send_at: 'soon', count: 2, tags: [], notify: false, options: {}, mode: 'fast', when: '<when>' });
    const answer = answerOf(await page(bare, dryRunPath('scheduleGadget', args)));
    expect(answer).toMatch(/<p class="error" role="alert">INVALID_ARGUMENTS: .*\/send_at/);
  });
});

describe('a credential this server does not have', () => {
  test('the request is shown with <ENV_VAR not set> where the credential goes, in a header, the query or Basic', async () => {
    const header = await page(bare, dryRunPath('getGadget', '{"gadget_id": "g1"}'));
    const request = jsonOf(header, 'dry-run-request') as { url: string; headers: Record<string, string> };
    expect(request.url).toBe('https://api.gadgets.example/v1/gadgets/g1');
    expect(request.headers['x-gadget-key']).toBe('<GADGETS_API_KEY not set>');
    expect(unescapeHtml(header)).toContain("-H 'x-gadget-key: <GADGETS_API_KEY not set>'");
    const answer = answerOf(header);
    expect(answer).toMatch(/id="dry-run-credentials" role="status">Not set on this server: <code>GADGETS_API_KEY<\/code>\./);
    expect(answer).toContain('needs credentials: key (GADGETS_API_KEY); none are set');
    expect(answer).toMatch(/id="dry-run-verdict">Valid arguments, but not ready to send/);
    expect(answer).not.toContain('class="error');

    const query = jsonOf(await page(bare, dryRunPath('searchGadgets', '{"q": "blue"}')), 'dry-run-request') as { url: string };
    expect(query.url).toBe('https://api.gadgets.example/v1/search?q=blue&key=<GADGETS_API_KEY not set>');
    const basic = jsonOf(await page(bare, dryRunPath('resetGadgets', '{}')), 'dry-run-request') as { headers: Record<string, string> };
    expect(basic.headers.authorization).toBe('Basic <base64 of GADGETS_USERNAME:GADGETS_PASSWORD; GADGETS_USERNAME and GADGETS_PASSWORD not set>');
  });

  test('what would stop the request once the credential is set is still the answer (a dot segment as an id)', async () => {
    const answer = answerOf(await page(bare, dryRunPath('getGadget', '{"gadget_id": ".."}')));
    expect(answer).toMatch(/<p class="error" role="alert">INVALID_ARGUMENTS: path parameter gadget_id: &quot;\.\.&quot; is a dot segment/);
    expect(answer).toMatch(/id="dry-run-credentials" role="status">Not set on this server: <code>GADGETS_API_KEY<\/code>\. A real call stops before sending/);
    expect(answer).not.toContain('id="dry-run-request"');
  });

  test('a credential the server has is never shown: *** as before, and no stand-in', async () => {
    for (const [tool, args] of [['getGadget', '{"gadget_id": "g1"}'], ['searchGadgets', '{"q": "blue"}']] as const) {
      const body = await page(keyed, dryRunPath(tool, args));
      expect(body).not.toContain(CANARY);
      expect(body).not.toContain('not set');
      expect(body).not.toContain('id="dry-run-credentials"');
    }
    const request = jsonOf(await page(keyed, dryRunPath('getGadget', '{"gadget_id": "g1"}')), 'dry-run-request') as { headers: Record<string, string> };
    expect(request.headers['x-gadget-key']).toBe('***');
    // HTTP Basic is still unset on that server: its stand-in, and the key nowhere
    const basic = await page(keyed, dryRunPath('resetGadgets', '{}'));
    expect((jsonOf(basic, 'dry-run-request') as { headers: Record<string, string> }).headers.authorization).toMatch(/^Basic <base64 of GADGETS_USERNAME:GADGETS_PASSWORD;/);
    expect(basic).not.toContain(CANARY);
  });
});

test('the plain-http warning is shown once, beside the request, not again inside it', async () => {
  const body = await page(keyed, dryRunPath('getGadget', '{"gadget_id": "g1"}'));
  const warning = 'GADGETS_API_KEY would be sent to http://api.gadgets.example over plain http';
  expect(body.split(warning)).toHaveLength(2);
  expect(answerOf(body)).toContain(`<p class="error dry-run-warning">${warning}`);
  // and the verdict is no green "would send": execute_tool refuses that call (UNSAFE_REQUEST)
  expect(answerOf(body)).toMatch(/<p class="warn" id="dry-run-verdict">Valid arguments, but not ready to send: execute_tool refuses to send the credential over plain http \(UNSAFE_REQUEST/);
  expect(jsonOf(body, 'dry-run-request')).not.toHaveProperty('warnings');
});

describe('what the agent receives', () => {
  const HANDLE = /^[0-9a-z]{1,11}\.[A-Za-z0-9_-]{16}$/;
  const encoder = new Tiktoken(o200k);

  test('the describe_tools answer shown carries a handle of the real shape, so it and its token count are what an agent gets', async () => {
    const agent = await connectHttp(bare.url, 'modern');
    try {
      for (const level of ['parameters', 'full'] as const) {
        const path = `/?tool=getGadget${level === 'full' ? '&level=full' : ''}`;
        const shown = jsonOf(await page(bare, path), 'describe-output') as { value: { tools: Array<{ example?: { handle?: string }; handle?: string }> } };
        const got = await call(agent, 'describe_tools', { tool_names: ['getGadget'], detail: level });
        const entry = shown.value.tools[0];
        const handle = entry?.example?.handle ?? entry?.handle;
        const real = got.value.tools[0].example?.handle ?? got.value.tools[0].handle;
        expect(handle, level).toMatch(HANDLE);
        expect(real, level).toMatch(HANDLE);
        // the same answer but for the handle's value, and of the same length
        const { isError: _, ...envelope } = got;
        expect(JSON.stringify(shown).replace(handle as string, real as string), level).toBe(JSON.stringify(envelope));
        // the count shown is the count of that text (the exact one once the tokenizer's worker is ready)
        await expect
          .poll(async () => /data-tokens="(\d+)"/.exec(await page(bare, path))?.[1], { timeout: 60_000, interval: 500 })
          .toBe(String(encoder.encode(JSON.stringify(shown)).length));
      }
      // a summary carries no handle, on the page as over MCP
      const summary = jsonOf(await page(bare, '/?tool=getGadget&level=summary'), 'describe-output');
      expect(JSON.stringify(summary)).not.toContain('handle');
    } finally {
      await agent.close();
    }
  });

  test('the page’s handle authorizes nothing: execute_tool refuses it', async () => {
    const shown = jsonOf(await page(bare, '/?tool=getGadget'), 'describe-output') as { value: { tools: Array<{ example?: { handle?: string } }> } };
    const handle = shown.value.tools[0]?.example?.handle as string;
    const agent = await connectHttp(bare.url, 'modern');
    try {
      const r = await call(agent, 'execute_tool', { tool_name: 'getGadget', args: { gadget_id: 'g1' }, handle, dry_run: true });
      expect(r.error?.code).toBe('TOOL_DESCRIPTION_REQUIRED');
      expect(r.error?.details?.reason).toBe('mismatch');
    } finally {
      await agent.close();
    }
  });
});

describe('long arguments', () => {
  test('the form posts its arguments, so their length is never the address’s', async () => {
    expect(await page(bare, '/?tool=getGadget')).toContain('<form method="post" action="/explorer/dry-run#try" class="panel try-form">');
  });

  test('a dry run too long for an address is answered in full without a link, and the level links leave its arguments out', async () => {
    // over the limit, still under Node's 16 KB (a GET, as someone might type it)
    const args = JSON.stringify({ gadget_id: `g${'x'.repeat(MAX_ADDRESS_CHARS)}` });
    const body = await page(bare, dryRunPath('getGadget', args));
    expect(answerOf(body)).toContain('id="dry-run-request"');
    expect(body).not.toContain('id="dry-run-link"');
    expect(body).toMatch(/id="dry-run-unshared">No link to this dry run: its arguments are too long for an address/);
    expect(formArgs(body)).toBe(args);
    const levelLinks = [...body.matchAll(/<a href="(\/\?tool=getGadget[^"]*)#agent-json"/g)].map((m) => m[1]);
    expect(levelLinks).toEqual(['/?tool=getGadget&amp;level=summary', '/?tool=getGadget', '/?tool=getGadget&amp;level=full']);
    // a shorter one keeps its link, and its arguments in the level links
    const short = await page(bare, dryRunPath('getGadget', '{"gadget_id": "g1"}'));
    expect(short).toContain('id="dry-run-link" href="/?tool=getGadget&amp;args=%7B%22gadget_id%22%3A+%22g1%22%7D#try"');
    expect(short).toContain('/?tool=getGadget&amp;level=full&amp;args=');
  });
});
