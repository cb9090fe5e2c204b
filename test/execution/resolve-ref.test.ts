// execution's resolveRef, which describe's type labels and the explorer's dry-run forms share: local refs followed
// through chains, a cycle or a ref that points nowhere is undefined, and only the schema's own keys are read.
import { expect, test } from 'vitest';
import { resolveRef } from '../../src/schema/refs.js';

const root = { $defs: { A: { $ref: '#/$defs/B' }, B: { type: 'string' }, Loop: { $ref: '#/$defs/Loop' }, 'a/b': { type: 'integer' } } };

test.each([
  [{ $ref: '#/$defs/A' }, { type: 'string' }],
  [{ $ref: '#/$defs/a~1b' }, { type: 'integer' }],
  [{ type: 'boolean' }, { type: 'boolean' }],
  [{ $ref: '#/$defs/Loop' }, undefined],
  [{ $ref: '#/$defs/Missing' }, undefined],
  [{ $ref: '#/__proto__' }, undefined],
  [{ $ref: '#/$defs/constructor' }, undefined],
])('%j -> %j', (schema, want) => {
  expect(resolveRef(root, schema)).toEqual(want);
});
