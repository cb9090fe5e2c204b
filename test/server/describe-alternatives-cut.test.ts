// A oneOf/anyOf with more alternatives than Level 2 shows (four) ends in "| ...": the label is cut, and the instruction
// names the `parameter` call that shows the rest, as it does for a cut field list (stop-49 second read, low). Before,
// the alternatives past the fourth were dropped with nothing pointing the agent at them.
// Real parts: a spec imported by the importer, real MCP SDK clients of both eras.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { importSpec, writeRegistry } from '../../src/importer/index.js';
import { loadCatalogSet, type CatalogSet } from '../../src/server/core/catalogs.js';
import { call, connectInMemory, ERAS, type Connected } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const shape = (field: string) => ({ type: 'object', required: [field], properties: { [field]: { type: 'string' } } });

const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Shapes', version: '1' },
  servers: [{ url: 'https://shapes.invalid/v1' }],
  paths: {
    '/shapes': {
      post: {
        operationId: 'createShape',
        summary: 'Create a shape',
        requestBody: { required: true, content: { 'application/json': { schema: { oneOf: ['circle', 'square', 'triangle', 'hexagon', 'star', 'heart'].map(shape) } } } },
        responses: { '201': { description: 'Created' } },
      },
    },
    '/dots': {
      post: {
        operationId: 'createDot',
        summary: 'Create a dot',
        requestBody: { required: true, content: { 'application/json': { schema: { oneOf: ['circle', 'square'].map(shape) } } } },
        responses: { '201': { description: 'Created' } },
      },
    },
  },
};

let shapes: CatalogSet;
beforeAll(async () => {
  const dir = tempDir('ac-alternatives-cut-');
  writeFileSync(join(dir, 'shapes.json'), JSON.stringify(SPEC));
  writeRegistry(await importSpec(join(dir, 'shapes.json'), { name: 'shapes' }), join(dir, 'reg'));
  shapes = loadCatalogSet([join(dir, 'reg', 'shapes')]);
});

describe.each(ERAS)('%s era', (era) => {
  const clients: Connected[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });
  const describe2 = async (name: string) => {
    const c = await connectInMemory({ catalogs: shapes }, { era });
    clients.push(c);
    const r = await call(c.client, 'describe_tools', { tool_names: [name] });
    expect(r.success, JSON.stringify(r)).toBe(true);
    return { entry: r.value.tools[0], instruction: r.instruction as string };
  };

  test('six alternatives: four shown, then "| ...", and the instruction names the parameter call', async () => {
    const { entry, instruction } = await describe2('createShape');
    expect(entry.parameters.body).toMatch(/^object\{circle: string, required\} \| object\{square: string, required\} \| object\{triangle: string, required\} \| object\{hexagon: string, required\} \| \.\.\., required$/);
    expect(instruction).toContain('For the fields of body not shown, call describe_tools with {"tool_names": ["createShape"], "parameter": "body"}.');
  });

  test('two alternatives, all shown: no parameter call', async () => {
    const { entry, instruction } = await describe2('createDot');
    expect(entry.parameters.body).toBe('object{circle: string, required} | object{square: string, required}, required');
    expect(instruction).toBe("Call execute_tool with the example and the user's values.");
  });
});
