import { describe, expect, test } from 'vitest';
import { typeLabel } from '../../src/server/core/describe.js';

describe('typeLabel (Level 2 parameter types)', () => {
  test.each([
    [{ type: 'string' }, 'string'],
    [{ type: ['integer', 'null'] }, 'integer'],
    [{ type: 'array', items: { type: 'string' } }, 'array<string>'],
    [{ type: 'string', enum: ['open', 'closed'] }, 'string (open|closed)'],
    // GitHub's issue title is `oneOf: [string, integer]`; an agent needs the alternatives, not the keyword.
    [{ oneOf: [{ type: 'string' }, { type: 'integer' }] }, 'string | integer'],
    [{ anyOf: [{ type: 'string' }, { type: 'null' }] }, 'string'],
    [{ oneOf: [{ type: 'object', properties: { a: {} } }, { type: 'string' }, { type: 'string' }] }, 'object | string'],
    [{ type: 'array', items: { oneOf: [{ type: 'string' }, { type: 'object', properties: {} }] } }, 'array<string | object>'],
    [{ $ref: '#/$defs/Thing' }, 'object'],
    [true, 'any'],
  ])('%j -> %s', (schema, label) => {
    expect(typeLabel(schema)).toBe(label);
  });
});
