import { describe, expect, test } from 'vitest';
import { typeLabel } from '../../src/server/core/describe.js';
import { sentences } from '../../src/server/core/text.js';

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

describe('sentences (Level 2 description)', () => {
  test.each([
    ['One. Two! Three? Four.', 3, 'One. Two! Three?'],
    // Dots inside `vnd.github.raw+json` do not end a sentence and no text is dropped (the old regex lost
    // everything between such dots); ICU keeps a list item that follows a stop with its sentence.
    [
      'Edit an issue. Supports custom media types.\n\n- `application/vnd.github.raw+json`: Returns the raw body. More.',
      2,
      'Edit an issue. Supports custom media types. - `application/vnd.github.raw+json`: Returns the raw body.',
    ],
    ['Uses v1.2.3 of the API, e.g. for tests. Done.', 1, 'Uses v1.2.3 of the API, e.g. for tests.'],
    ['No final stop', 3, 'No final stop'],
    ['', 3, ''],
  ])('%j (%i) -> %j', (text, count, expected) => {
    expect(sentences(text, count)).toBe(expected);
  });
});
