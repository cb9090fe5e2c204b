import { describe, expect, test } from 'vitest';
import { synthesize } from '../../src/importer/examples.js';
import { createAjv } from '../../src/schema/ajv.js';

describe('synthesize', () => {
  const ajv = createAjv();
  test.each<[string, Record<string, unknown>]>([
    ['bounds', { type: 'object', required: ['n', 's', 'l'], properties: { n: { type: 'integer', minimum: 5, maximum: 10 }, s: { type: 'string', minLength: 12 }, l: { type: 'array', minItems: 2, items: { type: 'number', exclusiveMinimum: 0 } } } }],
    ['enums, const, nullable anyOf', { type: 'object', required: ['e', 'k', 'x'], properties: { e: { enum: [null, 'on'] }, k: { const: 3 }, x: { anyOf: [{ type: 'string', minLength: 2 }, { type: 'null' }] } } }],
    ['recursive $defs terminate', { type: 'object', required: ['node'], properties: { node: { $ref: '#/$defs/Node' } }, $defs: { Node: { type: 'object', required: ['name', 'child'], properties: { name: { type: 'string' }, child: { anyOf: [{ $ref: '#/$defs/Node' }, { type: 'null' }] } } } } }],
    ['3.1 tuples', { type: 'object', required: ['t'], properties: { t: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'string' }], items: false } } }],
  ])('%s: the synthesized value validates', (_label, schema) => {
    const value = synthesize(schema, (schema.$defs as Record<string, unknown>) ?? {});
    const validate = ajv.compile(schema);
    expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
  });

  test('a string with a format holds its placeholder, never a sample of the format (review51 finding 3)', () => {
    const schema = { type: 'object', required: ['a', 'b', 'c', 'd'], properties: { a: { type: 'string', format: 'date-time' }, b: { type: 'string', format: 'email' }, c: { type: 'string', format: 'uri' }, d: { type: 'string', format: 'uuid', minLength: 36 } } };
    expect(synthesize(schema, {})).toEqual({ a: '<a>', b: '<b>', c: '<c>', d: '<d>'.padEnd(36, 'x') });
  });

  test("no API's own values: a string argument without an example is a placeholder naming it", () => {
    expect(synthesize({ type: 'string' }, {}, 'owner')).toBe('<owner>');
    expect(synthesize({ type: 'string' }, {}, 'repo')).toBe('<repo>');
    expect(synthesize({ type: 'string' }, {})).toBe('example');
  });

  test("the spec's own values for the same argument name come first, when the schema accepts them", () => {
    const values = new Map<string, string | number>([['owner', 'acme'], ['limit', 50], ['code', 'toolong']]);
    expect(synthesize({ type: 'string' }, {}, 'owner', 0, values)).toBe('acme');
    expect(synthesize({ type: 'integer', maximum: 100 }, {}, 'limit', 0, values)).toBe(50);
    expect(synthesize({ type: 'integer', maximum: 10 }, {}, 'limit', 0, values)).toBe(1);
    // never cut to fit: a cut placeholder would read as the user's value (test/importer/invented-examples.test.ts)
    expect(synthesize({ type: 'string', maxLength: 3 }, {}, 'code', 0, values)).toBe('<code>');
  });
});
