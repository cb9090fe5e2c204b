// Level 2 shows what goes into an object argument (outside audit "agentux", defects 1, 6 and 8; "exec" defect 4).
// Before: GitHub's whole-body `body` (67 operations) and wrapped bodies (SoundCloud's `comment`, `playlist`) read the
// bare label "object", a nested required field (`comment.body`) was in neither the label nor the example, and the
// instruction said "call with the example", which sent `{}`. Now an object argument lists its fields one level deep
// (required ones marked, a oneOf's alternatives each, a cap with "N fields; see parameter" and an instruction naming
// the `parameter` call), a wrapped body's example carries its required fields, a file field says how to pass a file,
// an unknown `parameter` gets a parameter's next step, and a header named like a key never shows the spec's default.
// Real parts: specs imported by the importer into temp folders, real MCP SDK clients of both eras, the embedded GitHub.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import { call, connectInMemory, ERAS, type Connected } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const MANY = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`option_${i}`, { type: 'string' }]));

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Wrap', version: '1' },
  servers: [{ url: 'https://wrap.invalid/v1' }],
  paths: {
    '/tracks/{track_id}/comments': {
      post: {
        operationId: 'createComment',
        summary: 'Comment on a track',
        parameters: [{ name: 'track_id', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  comment: {
                    type: 'object',
                    properties: { body: { type: 'string' }, timestamp: { oneOf: [{ type: 'string' }, { type: 'number' }] } },
                    required: ['body'],
                  },
                },
              },
            },
          },
        },
        responses: { '201': { description: 'Created' } },
      },
    },
    '/issues/{number}/labels': {
      post: {
        operationId: 'addLabels',
        summary: 'Add labels to an issue',
        parameters: [{ name: 'number', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: {
          content: {
            'application/json': {
              schema: {
                oneOf: [
                  { type: 'object', properties: { labels: { type: 'array', items: { type: 'string' } } } },
                  { type: 'array', items: { type: 'string' } },
                  { type: 'string' },
                ],
              },
            },
          },
        },
        responses: { '200': { description: 'OK' } },
      },
    },
    '/settings': {
      put: {
        operationId: 'putSettings',
        summary: 'Replace the settings',
        requestBody: {
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  settings: { type: 'object', properties: { mode: { type: 'string', enum: ['fast', 'safe'] }, ...MANY }, required: ['mode'] },
                  name: { type: 'string' },
                },
              },
            },
          },
        },
        responses: { '200': { description: 'OK' } },
      },
    },
    '/files': {
      post: {
        operationId: 'uploadFile',
        summary: 'Upload a file',
        requestBody: {
          required: true,
          content: {
            'multipart/form-data': {
              schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' }, purpose: { type: 'string' } }, required: ['file'] },
            },
          },
        },
        responses: { '201': { description: 'Created' } },
      },
    },
    '/accounts': {
      get: {
        operationId: 'listAccounts',
        summary: 'List accounts',
        parameters: [
          { name: 'X-API-USER-KEY', in: 'header', required: true, schema: { type: 'string', default: 'e2a6379ab878ae7e58119d4ec842bf9c' } },
          { name: 'api_key', in: 'query', required: true, example: '7ae5b17008fb414d84981191cf3b66a476ef8bef', schema: { type: 'string' } },
          { name: 'limit', in: 'query', required: true, schema: { type: 'integer', default: 20 } },
        ],
        responses: { '200': { description: 'OK' } },
      },
    },
  },
};

let set: CatalogSet;
beforeAll(async () => {
  const dir = tempDir('ac-describe-fields-');
  writeFileSync(join(dir, 'wrap.json'), JSON.stringify(SPEC));
  writeRegistry(await importSpec(join(dir, 'wrap.json'), { name: 'wrap' }), join(dir, 'reg'));
  set = loadCatalogSet([join(dir, 'reg', 'wrap')]);
});

describe.each(ERAS)('%s era', (era) => {
  let c: Connected;
  beforeAll(async () => {
    c = await connectInMemory({ catalogs: set }, { era });
  });
  afterAll(async () => {
    await c.close();
  });
  const tool = async (name: string, detail?: 'full') => {
    const r = await call(c.client, 'describe_tools', { tool_names: [name], ...(detail ? { detail } : {}) });
    expect(r.success, JSON.stringify(r)).toBe(true);
    return { entry: r.value.tools[0], instruction: r.instruction as string };
  };

  test("a wrapped body lists its fields, the nested required one marked, and the example holds it: the call validates", async () => {
    const { entry, instruction } = await tool('createComment');
    expect(entry.parameters.comment).toBe('object{body: string, required; timestamp: string | number}');
    expect(entry.example.args).toEqual({ track_id: 1, comment: { body: '<body>' } });
    expect(instruction).toBe("Call execute_tool with the example and the user's values.");
    const dry = await call(c.client, 'execute_tool', { tool_name: 'createComment', args: { track_id: 7, comment: { body: 'Nice' } }, dry_run: true, handle: entry.example.handle });
    expect(dry.success, JSON.stringify(dry)).toBe(true);
    expect(JSON.parse(dry.value.request.body)).toEqual({ comment: { body: 'Nice' } });
  });

  test("a whole body's oneOf shows each alternative, an object's fields included", async () => {
    const { entry } = await tool('addLabels');
    expect(entry.parameters.body).toBe('object{labels: array<string>} | array<string> | string');
  });

  test('a long field list is cut with its count, and the instruction names the parameter call that gives the rest', async () => {
    const { entry, instruction } = await tool('putSettings');
    const label = entry.parameters.settings as string;
    expect(label).toMatch(/^object\{mode: string \(fast\|safe\), required; option_0: string; .*; \.\.\.\} \(31 fields; see parameter\)$/);
    expect(label.length).toBeLessThan(260);
    expect(instruction).toContain('For the fields of settings not shown, call describe_tools with {"tool_names": ["putSettings"], "parameter": "settings"}.');
    const deep = await call(c.client, 'describe_tools', { tool_names: ['putSettings'], parameter: 'settings' });
    expect(Object.keys(deep.value.tools[0].parameter.schema.properties)).toHaveLength(31);
  });

  test('a binary field says how to pass a file, at Level 2 and Level 3', async () => {
    const FILE = 'file (a data: URL, or {base64, filename, contentType})';
    expect((await tool('uploadFile')).entry.parameters.file).toBe(`${FILE}, required`);
    const full = (await tool('uploadFile', 'full')).entry;
    expect(full.parameters.find((p: { name: string }) => p.name === 'file').type).toBe(FILE);
    expect(full.parameters.find((p: { name: string }) => p.name === 'purpose').type).toBe('string');
  });

  test("header and query parameters named like a key show a placeholder, never the spec's default or example", async () => {
    const { entry } = await tool('listAccounts');
    expect(entry.example.args).toEqual({ 'X-API-USER-KEY': '<X-API-USER-KEY>', api_key: '<api_key>', limit: 20 });
    const full = JSON.stringify((await tool('listAccounts', 'full')).entry.examples);
    expect(full).not.toContain('e2a6379ab878');
    expect(full).not.toContain('7ae5b17008fb');
  });

  test('an API that declares no credential: its token reads optional, at Level 2 and Level 3', async () => {
    // (listAccounts takes its key as arguments: no token is offered for it, test/execution/credential-parameter-bearer.test.ts)
    expect((await tool('uploadFile')).entry.credentials).toBe('WRAP_TOKEN (optional)');
    const [cred] = (await tool('uploadFile', 'full')).entry.credentials;
    expect(cred).toMatchObject({ scheme: '(default bearer)', envVars: ['WRAP_TOKEN'], set: false, optional: true });
    expect(cred.note).toMatch(/declares no credential/);
  });

  test("an unknown parameter gets the tool's parameters as the next step, not a search for the tool", async () => {
    const r = await call(c.client, 'describe_tools', { tool_names: ['createComment'], parameter: 'coment' });
    expect(r.error?.code).toBe('INVALID_ARGUMENTS');
    expect(r.error?.details.tools[0].error.suggestions).toEqual(['comment']);
    expect(r.instruction).toBe(
      `Use one of createComment's parameters: the closest is "comment". Call describe_tools with {"tool_names": ["createComment"], "parameter": "comment"}, or without "parameter" to see them all.`,
    );
    const none = await call(c.client, 'describe_tools', { tool_names: ['createComment'], parameter: 'zzqqxx' });
    expect(none.instruction).toBe(`Use one of createComment's parameters (listed in the error's details), or call describe_tools with {"tool_names": ["createComment"]} to see them all.`);
    expect(none.instruction).not.toMatch(/search_tools/);
  });
});

describe('the embedded GitHub catalog (the audit\'s cases)', () => {
  let c: Connected;
  beforeAll(async () => {
    c = await connectInMemory({ catalogs: loadCatalogSet([]) });
  });
  afterAll(async () => {
    await c.close();
  });

  test('issues_add-labels and pulls_merge name the fields of their whole-body `body`', async () => {
    const r = await call(c.client, 'describe_tools', { tool_names: ['issues_add-labels', 'pulls_merge'] });
    const [labels, merge] = r.value.tools;
    expect(labels.parameters.body).toBe('object{labels: array<string | object>}');
    expect(merge.parameters.body).toBe('object{commit_title: string; commit_message: string; sha: string; merge_method: string (merge|squash|rebase)}');
  });

  test('a oneOf of objects lists each alternative with its required fields', async () => {
    const r = await call(c.client, 'describe_tools', { tool_names: ['orgs_delete-attestations-bulk'] });
    expect(r.value.tools[0].parameters.body).toBe('object{subject_digests: array<string>, required} | object{attestation_ids: array<integer>, required}, required');
  });
});
