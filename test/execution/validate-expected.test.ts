// A field error's `expected` for every schema shape: unions (oneOf, anyOf, `type: [..]`), allOf, enum inside a
// union, nullable, `$ref`s, not, nested properties inside allOf. It was `{}` for a union (the excerpt dropped the
// branches); a failed union was three errors, each alternative's own "must be string" / "must be integer" beside
// Ajv's "must match exactly one schema in oneOf". The last test runs a real OpenAPI 3.0 spec through the importer.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateArguments } from '../../src/execution/index.js';
import type { FieldError } from '../../src/execution/types.js';
import { importSpec } from '../../src/importer/index.js';
import type { JsonSchema, Operation } from '../../src/types.js';
import { op } from './fixtures.js';
import { tempDir } from '../helpers/temp.js';

const DEFS: Record<string, JsonSchema> = {
  Pet: { type: 'object', properties: { name: { type: 'string' }, tag: { type: 'string' } }, required: ['name'] },
  Id: { type: 'integer', minimum: 1 },
  Named: { type: 'object', properties: { name: { type: 'string', minLength: 2 } } },
};

/** An operation with one query argument `x` of `schema` (and the shared `$defs`). */
function withField(schema: JsonSchema): Operation {
  const o = op({ params: [{ arg: 'x', in: 'query', schema }] });
  (o.inputSchema as Record<string, unknown>).$defs = DEFS;
  return o;
}

function errorsOf(o: Operation, args: unknown): FieldError[] {
  const out = validateArguments(o, args);
  if (out.ok) throw new Error(`${JSON.stringify(args)} validated`);
  return out.errors;
}

/** No `expected` anywhere is `{}`, an empty array or an empty string. */
function expectNoEmptyExpected(errors: FieldError[]): void {
  const empty = (v: unknown): boolean =>
    v === '' || (Array.isArray(v) && v.length === 0) || (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0);
  for (const e of errors) {
    expect(e.expected, JSON.stringify(e)).toBeDefined();
    expect(empty(e.expected), JSON.stringify(e)).toBe(false);
    for (const k of ['oneOf', 'anyOf'] as const) {
      const list = (e.expected as Record<string, unknown> | undefined)?.[k];
      if (Array.isArray(list)) for (const b of list) expect(empty(b), JSON.stringify(e)).toBe(false);
    }
  }
}

describe('expected names the alternatives of a union', () => {
  it('an empty string among the allowed values reads as "" (Stripe: an address object, or "" to unset it)', () => {
    const [e] = errorsOf(withField({ anyOf: [{ type: 'object', properties: { city: { type: 'string' } } }, { type: 'string', enum: [''] }] }), { x: 5 });
    expect(e?.message).toBe('number 5 matches none of the alternatives: object | string ("")');
  });

  it('oneOf [string, integer]: one error listing both, with the fix of the string alternative', () => {
    const errors = errorsOf(withField({ oneOf: [{ type: 'string' }, { type: 'integer' }] }), { x: true });
    expect(errors).toEqual([
      {
        path: '/x',
        message: 'boolean true matches none of the alternatives: string | integer',
        expected: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
        suggestion: 'send it as the string "true"',
      },
    ]);
  });

  it('anyOf [string, integer]', () => {
    const errors = errorsOf(withField({ anyOf: [{ type: 'string' }, { type: 'integer' }] }), { x: 1.5 });
    expect(errors).toEqual([{ path: '/x', message: 'number 1.5 matches none of the alternatives: string | integer', expected: { anyOf: [{ type: 'string' }, { type: 'integer' }] }, suggestion: 'send it as the string "1.5"' }]);
  });

  it('type: [string, integer]', () => {
    const errors = errorsOf(withField({ type: ['string', 'integer'] }), { x: true });
    expect(errors).toEqual([{ path: '/x', message: 'boolean true must be string or integer', expected: { type: ['string', 'integer'] } }]);
  });

  it('an enum inside a oneOf: the allowed values are in expected and the closest is suggested', () => {
    const errors = errorsOf(withField({ oneOf: [{ type: 'string', enum: ['open', 'closed'] }, { type: 'integer' }] }), { x: 'opne' });
    expect(errors).toEqual([
      {
        path: '/x',
        message: 'the string "opne" matches none of the alternatives: string (open|closed) | integer',
        expected: { oneOf: [{ type: 'string', enum: ['open', 'closed'] }, { type: 'integer' }] },
        suggestion: 'use "open"',
      },
    ]);
  });

  it('$ref alternatives are resolved (their errors, reported at #/$defs/..., fold in too)', () => {
    const errors = errorsOf(withField({ oneOf: [{ $ref: '#/$defs/Pet' }, { $ref: '#/$defs/Id' }] }), { x: true });
    expect(errors).toEqual([
      {
        path: '/x',
        message: 'boolean true matches none of the alternatives: object | integer',
        expected: { oneOf: [{ type: 'object', required: ['name'], properties: ['name', 'tag'] }, { type: 'integer', minimum: 1 }] },
      },
    ]);
  });

  it('oneOf matched by two alternatives says so', () => {
    const errors = errorsOf(withField({ oneOf: [{ type: 'string', minLength: 2 }, { type: 'string', pattern: '^a' }] }), { x: 'ab' });
    expect(errors).toEqual([
      {
        path: '/x',
        message: 'the string "ab" matches 2 of the alternatives (string) but must match exactly one',
        expected: { oneOf: [{ type: 'string', minLength: 2 }, { type: 'string', pattern: '^a' }] },
      },
    ]);
  });

  it('an object alternative keeps its own deeper errors; the union error lists the alternatives', () => {
    const errors = errorsOf(withField({ oneOf: [{ $ref: '#/$defs/Pet' }, { type: 'string' }] }), { x: { name: 5 } });
    expect(errors).toContainEqual({ path: '/x/name', message: 'number 5 must be string', expected: { type: 'string' }, suggestion: 'send it as the string "5"' });
    expect(errors).toContainEqual(expect.objectContaining({ path: '/x', message: 'an object matches none of the alternatives: object | string' }));
    expect(errors).toHaveLength(2);
  });

  it('a union with many wide alternatives is cut to its type label', () => {
    const wide = Array.from({ length: 8 }, (_, i) => ({ type: 'string', enum: Array.from({ length: 40 }, (_, j) => `value-${i}-${j}`) }));
    const errors = errorsOf(withField({ anyOf: [...wide, { type: 'integer' }] }), { x: true });
    expect(errors).toHaveLength(1);
    expect(errors[0]?.expected).toMatch(/^string \(40 allowed values\) \| integer$/);
  });
});

describe('expected for the other shapes is never empty', () => {
  it('allOf is folded into one excerpt', () => {
    const errors = errorsOf(withField({ allOf: [{ $ref: '#/$defs/Id' }, { maximum: 5 }] }), { x: 9 });
    expect(errors).toEqual([{ path: '/x', message: 'must be <= 5', expected: { type: 'integer', minimum: 1, maximum: 5 } }]);
  });

  it('nullable (OpenAPI 3.0 as the importer writes it): type with null, and anyOf with a null alternative', () => {
    expect(errorsOf(withField({ type: ['string', 'null'], maxLength: 3 }), { x: 'abcdef' })).toEqual([
      { path: '/x', message: 'must NOT have more than 3 characters', expected: { type: ['string', 'null'], maxLength: 3 } },
    ]);
    expect(errorsOf(withField({ anyOf: [{ $ref: '#/$defs/Pet' }, { type: 'null' }] }), { x: 5 })).toEqual([
      {
        path: '/x',
        message: 'number 5 matches none of the alternatives: object | null',
        expected: { anyOf: [{ type: 'object', required: ['name'], properties: ['name', 'tag'] }, { type: 'null' }] },
      },
    ]);
  });

  it('a $ref field, and a property reached through allOf branches', () => {
    expect(errorsOf(withField({ $ref: '#/$defs/Id' }), { x: 0 })).toEqual([{ path: '/x', message: 'must be >= 1', expected: { type: 'integer', minimum: 1 } }]);
    const composed = withField({ allOf: [{ $ref: '#/$defs/Named' }, { type: 'object', properties: { age: { type: 'integer' } } }] });
    expect(errorsOf(composed, { x: { name: 'a' } })).toEqual([{ path: '/x/name', message: 'must NOT have fewer than 2 characters', expected: { type: 'string', minLength: 2 } }]);
  });

  it('items that are a union, not, const, patternProperties and additionalProperties values, an alternative that accepts anything', () => {
    const items = errorsOf(withField({ type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'integer' }] } }), { x: ['a', null] });
    expect(items).toEqual([{ path: '/x/1', message: 'null matches none of the alternatives: string | integer', expected: { oneOf: [{ type: 'string' }, { type: 'integer' }] } }]);
    expect(errorsOf(withField({ not: { type: 'string' } }), { x: 's' })).toEqual([{ path: '/x', message: 'must NOT be valid', expected: { not: { type: 'string' } } }]);
    expect(errorsOf(withField({ const: 'v1' }), { x: 'v2' })).toEqual([{ path: '/x', message: 'must be equal to constant', expected: { const: 'v1' } }]);
    const pattern = errorsOf(withField({ type: 'object', patternProperties: { '^n_': { type: 'integer', minimum: 0 } } }), { x: { n_a: -1 } });
    expect(pattern).toEqual([{ path: '/x/n_a', message: 'must be >= 0', expected: { type: 'integer', minimum: 0 } }]);
    const extra = errorsOf(withField({ type: 'object', additionalProperties: { type: 'string', maxLength: 1 } }), { x: { b: 'xx' } });
    expect(extra).toEqual([{ path: '/x/b', message: 'must NOT have more than 1 characters', expected: { type: 'string', maxLength: 1 } }]);
    const anything = errorsOf(withField({ oneOf: [{}, { type: 'string' }] }), { x: 's' });
    expect(anything).toEqual([{ path: '/x', message: 'the string "s" matches 2 of the alternatives (any | string) but must match exactly one', expected: { oneOf: ['any', { type: 'string' }] } }]);
  });

  it('every shape at once: no expected is {} or empty', () => {
    const shapes: Array<[JsonSchema, unknown]> = [
      [{ oneOf: [{ type: 'string' }, { type: 'integer' }] }, true],
      [{ anyOf: [{ type: 'string' }, { type: 'integer' }] }, true],
      [{ type: ['string', 'integer'] }, true],
      [{ allOf: [{ type: 'integer' }, { minimum: 1 }] }, 0],
      [{ oneOf: [{ type: 'string', enum: ['a'] }, { type: 'integer' }] }, 'b'],
      [{ anyOf: [{ type: 'string' }, { type: 'null' }] }, 1],
      [{ oneOf: [{ $ref: '#/$defs/Pet' }, { $ref: '#/$defs/Id' }] }, {}],
      [{ oneOf: [{}, { type: 'string' }] }, 's'],
      [{ not: {} }, 1],
      [{ type: 'array', items: { $ref: '#/$defs/Pet' } }, [{}]],
      [{ anyOf: [{ allOf: [{ $ref: '#/$defs/Named' }] }, { type: 'integer' }] }, { name: '' }],
    ];
    for (const [schema, value] of shapes) {
      const out = validateArguments(withField(schema), { x: value });
      expect(out.ok, JSON.stringify(schema)).toBe(false);
      if (!out.ok) expectNoEmptyExpected(out.errors);
    }
  });
});

describe('a real OpenAPI 3.0 spec through the importer', () => {
  it('oneOf, anyOf, nullable, allOf and $ref parameters and body fields all give a useful expected', async () => {
    const dir = tempDir('ac-expected-');
    try {
      const file = join(dir, 'issues.yaml');
      writeFileSync(
        file,
        [
          'openapi: 3.0.3',
          'info: { title: Issues, version: "1" }',
          'paths:',
          '  /issues/{id}:',
          '    patch:',
          '      operationId: updateIssue',
          '      parameters:',
          '        - { name: id, in: path, required: true, schema: { oneOf: [ { type: string }, { type: integer } ] } }',
          '      requestBody:',
          '        content:',
          '          application/json:',
          '            schema:',
          '              type: object',
          '              properties:',
          '                title: { anyOf: [ { type: string }, { type: integer } ] }',
          '                milestone: { type: integer, nullable: true, minimum: 1 }',
          '                state: { oneOf: [ { type: string, enum: [open, closed] }, { $ref: "#/components/schemas/Reason" } ] }',
          '                assignee: { allOf: [ { $ref: "#/components/schemas/User" } ], description: Who works on it }',
          '      responses: { "200": { description: OK } }',
          'components:',
          '  schemas:',
          '    Reason: { type: object, properties: { reason: { type: string } }, required: [reason] }',
          '    User: { type: object, properties: { login: { type: string, minLength: 1 } }, required: [login] }',
        ].join('\n'),
      );
      const { operations } = await importSpec(file);
      const update = operations.find((o) => o.operationId === 'updateIssue') as Operation;
      const errors = errorsOf(update, { id: true, title: false, milestone: 0, state: 'opne', assignee: { login: '' } });
      expectNoEmptyExpected(errors);
      const byPath = Object.fromEntries(errors.map((e) => [e.path, e]));
      expect(byPath['/id']).toMatchObject({ message: 'boolean true matches none of the alternatives: string | integer', expected: { oneOf: [{ type: 'string' }, { type: 'integer' }] } });
      expect(byPath['/title']).toMatchObject({ message: 'boolean false matches none of the alternatives: string | integer', expected: { anyOf: [{ type: 'string' }, { type: 'integer' }] } });
      expect(byPath['/milestone']?.expected).toMatchObject({ minimum: 1 });
      expect(byPath['/state']).toMatchObject({
        message: 'the string "opne" matches none of the alternatives: string (open|closed) | object',
        expected: { oneOf: [{ type: 'string', enum: ['open', 'closed'] }, { type: 'object', required: ['reason'], properties: ['reason'] }] },
        suggestion: 'use "open"',
      });
      expect(byPath['/assignee/login']?.expected).toEqual({ type: 'string', minLength: 1 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('unknown properties inside a composed object', () => {
  it('additionalProperties: false in the $ref target of an allOf lists that target\'s properties', () => {
    const o = op({ params: [{ arg: 'x', in: 'query', schema: { allOf: [{ $ref: '#/$defs/Closed' }], description: 'The user' } }] });
    (o.inputSchema as Record<string, unknown>).$defs = { Closed: { type: 'object', properties: { login: { type: 'string' }, id: { type: 'integer' } }, additionalProperties: false } };
    expect(errorsOf(o, { x: { logn: 'a' } })).toEqual([{ path: '/x/logn', message: 'unknown property', expected: { properties: ['login', 'id'] }, suggestion: 'did you mean "login"?' }]);
  });
});
