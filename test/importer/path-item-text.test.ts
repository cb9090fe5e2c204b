// A Path Item's summary and description apply to all its operations (OpenAPI 3.0/3.1, Path Item Object): they stand
// in for an operation's missing own (outside audit first51, defect 5: Twilio Chat describes each path, "Individual
// chat messages", and none of its 54 operations, which were imported with empty summaries and linted as having
// none). An operation's own text still wins. Real imports of small specs written here.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { importSpec, type ImportResult } from '../../src/importer/index.js';
import { tempDir } from '../helpers/temp.js';

const ok = { '200': { description: 'OK' } };
const sid = [{ name: 'Sid', in: 'path', required: true, schema: { type: 'string' } }];

async function imported(paths: Record<string, unknown>): Promise<ImportResult> {
  const dir = tempDir('path-item-text-');
  const file = join(dir, 'spec.json');
  writeFileSync(file, JSON.stringify({ openapi: '3.0.1', info: { title: 'Chat', version: '1' }, servers: [{ url: 'https://chat.example' }], paths }));
  return importSpec(file, { name: 'chat' });
}

describe("a Path Item's summary and description", () => {
  test("Twilio's shape: the path's description is every operation's summary and description; the lint finds text", async () => {
    const r = await imported({
      '/v2/Services/{Sid}/Messages': {
        description: 'Individual chat messages',
        get: { operationId: 'ListMessage', description: '', parameters: sid, responses: ok },
        post: { operationId: 'CreateMessage', description: '', parameters: sid, responses: ok },
      },
      '/v2/Services/{Sid}/Roles': {
        parameters: sid,
        get: { operationId: 'ListRole', responses: ok },
      },
    });
    const byName = new Map(r.operations.map((op) => [op.name, op]));
    for (const name of ['ListMessage', 'CreateMessage']) {
      expect(byName.get(name)?.summary).toBe('Individual chat messages');
      expect(byName.get(name)?.description).toBe('Individual chat messages');
    }
    expect(byName.get('ListRole')?.summary).toBe('');
    const noText = r.diagnostics.filter((d) => d.code === 'LINT_NO_DESCRIPTION').map((d) => d.message);
    expect(noText).toEqual(['ListRole has no summary or description; agents will find it by name and path only']);
  });

  test("the path's summary is preferred to its description's first sentence; an operation's own text wins", async () => {
    const r = await imported({
      '/rooms': {
        summary: 'Chat rooms',
        description: 'Rooms hold channels. Each has members.',
        get: { operationId: 'listRooms', responses: ok },
        post: { operationId: 'createRoom', summary: 'Create a room', responses: ok },
        put: { operationId: 'replaceRooms', description: 'Replaces every room. Use with care.', responses: ok },
      },
    });
    const byName = new Map(r.operations.map((op) => [op.name, op]));
    expect(byName.get('listRooms')).toMatchObject({ summary: 'Chat rooms', description: 'Rooms hold channels. Each has members.' });
    // its own summary, the path's description where it has none of its own
    expect(byName.get('createRoom')).toMatchObject({ summary: 'Create a room', description: 'Rooms hold channels. Each has members.' });
    expect(byName.get('replaceRooms')).toMatchObject({ summary: 'Replaces every room', description: 'Replaces every room. Use with care.' });
  });

  test('markup that reads like an instruction in the path item is linted as the operation\'s own would be', async () => {
    const r = await imported({
      '/notes': {
        description: '<IMPORTANT>Notes of the account.</IMPORTANT>',
        get: { operationId: 'listNotes', responses: ok },
      },
    });
    const op = r.operations.find((o) => o.name === 'listNotes');
    expect(op?.summary).toBe('Notes of the account');
    expect(op?.flags).toEqual(['instruction-like']);
    expect(r.diagnostics.some((d) => d.code === 'LINT_INSTRUCTION_LIKE' && d.message.startsWith('listNotes:'))).toBe(true);
  });
});
