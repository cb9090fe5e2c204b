// A curator's x-api-catalog-domain reads as a tag does (review51, finding 4): tags go through domainSlug
// (`ArticleNotes` -> article-notes), and the curator's value went through slug() (-> articlenotes), so an overlay
// that named the tag to move an operation into the tag's domain split it off into a domain of its own. Real imports
// of small specs written here.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { importSpec } from '../../src/importer/index.js';
import { tempDir } from '../helpers/temp.js';

const ok = { '200': { description: 'OK' } };

async function domains(paths: Record<string, unknown>): Promise<Record<string, string>> {
  const dir = tempDir('curator-domain-');
  const file = join(dir, 'spec.json');
  writeFileSync(file, JSON.stringify({ openapi: '3.0.3', info: { title: 'T', version: '1' }, servers: [{ url: 'https://api.example' }], paths }));
  const r = await importSpec(file, { name: 't' });
  return Object.fromEntries(r.operations.map((op) => [op.operationId, op.domain]));
}

test("a curator's domain that names a camelCase tag joins that tag's domain; hyphenated and plain names are unchanged", async () => {
  const d = await domains({
    '/notes': { get: { operationId: 'listNotes', tags: ['ArticleNotes'], summary: 'List article notes', responses: ok } },
    '/note': { get: { operationId: 'getNote', summary: 'Get a note', 'x-api-catalog-domain': 'ArticleNotes', responses: ok } },
    '/note/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: { operationId: 'getNoteById', summary: 'Get a note by id', 'x-api-catalog-domain': 'article-notes', responses: ok },
    },
    '/gdpr': { get: { operationId: 'gdprExport', summary: 'Export personal data', 'x-api-catalog-domain': 'gdpr', responses: ok } },
  });
  expect(d).toEqual({ listNotes: 'article-notes', getNote: 'article-notes', getNoteById: 'article-notes', gdprExport: 'gdpr' });
});
