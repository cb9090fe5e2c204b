// A required argument with only one allowed value is filled in when it is not sent (validateArguments): a string or
// number pinned by `const` or an `enum` of one. Never a boolean: an API's own required `confirm: true` is its
// acknowledgement, which stays the agent's to send. A value that is sent is validated as it is.
import { describe, expect, it } from 'vitest';
import { validateArguments } from '../../src/execution/validate.js';
import { op } from './fixtures.js';

const withSchema = op({
  params: [
    { arg: 'Action', in: 'query', required: true, schema: { type: 'string', enum: ['DeleteVpc'] } },
    { arg: 'version', in: 'query', required: true, schema: { type: 'integer', const: 3 } },
    { arg: 'confirm', in: 'query', required: true, schema: { type: 'boolean', const: true } },
    { arg: 'note', in: 'query', required: false, schema: { type: 'string', const: 'fixed' } },
    { arg: 'id', in: 'query', required: true },
  ],
});

describe('required arguments with one allowed value', () => {
  it('a string or number is filled in; a boolean and an optional one are not', () => {
    const out = validateArguments(withSchema, { id: 'v-1', confirm: true });
    expect(out).toEqual({ ok: true, args: { id: 'v-1', confirm: true, Action: 'DeleteVpc', version: 3 } });
    const noConfirm = validateArguments(withSchema, { id: 'v-1' });
    expect(noConfirm.ok).toBe(false);
    if (!noConfirm.ok) expect(noConfirm.errors.map((e) => e.path)).toEqual(['/confirm']);
  });

  it('a value that is sent is validated as it is: a wrong one is refused, not replaced', () => {
    const out = validateArguments(withSchema, { id: 'v-1', confirm: true, Action: 'DescribeVpcs' });
    expect(out.ok).toBe(false);
    if (!out.ok) expect(out.errors.map((e) => e.path)).toEqual(['/Action']);
  });
});
