// describe's credentials line keeps the spec's security structure: schemes of one requirement are all needed
// ("and"), requirements are alternatives ("or"). The audit's case: security [{key, bearer}] with one of the two set
// read "AUDIT_API_KEY (set): ... or AUDIT_TOKEN (not set)", as if the key alone would do.
import { describe, expect, test } from 'vitest';
import { credentialAlternatives } from '../../src/execution/auth.js';
import { requirementsLine } from '../../src/server/core/describe-brief.js';
import { catalog, op, withSchemes } from '../execution/fixtures.js';

const schemes = withSchemes({
  key: { type: 'apiKey', in: 'query', name: 'api_key' },
  bearer: { type: 'http', scheme: 'bearer' },
  basic: { type: 'http', scheme: 'basic' },
}, catalog({ name: 'audit' }));
const line = (security: Array<Record<string, string[]>>, env: Record<string, string>) =>
  requirementsLine(credentialAlternatives(op({ security }), { catalog: schemes, env }, { format: true }));

describe('describe credentials line', () => {
  test('both required: joined with "and"', () => {
    expect(line([{ key: [], bearer: [] }], { AUDIT_API_KEY: 'k' })).toBe('AUDIT_API_KEY (set): the key alone; sent as query parameter api_key and AUDIT_TOKEN (not set)');
  });
  test('alternatives: "or", a requirement of several schemes in parentheses', () => {
    expect(line([{ key: [], bearer: [] }, { basic: [] }], {})).toBe(
      '(AUDIT_API_KEY (not set): the key alone; sent as query parameter api_key and AUDIT_TOKEN (not set)) or AUDIT_USERNAME + AUDIT_PASSWORD (not set)',
    );
    expect(line([{ bearer: [] }, { key: [] }], { AUDIT_TOKEN: 't' })).toBe('AUDIT_TOKEN (set) or AUDIT_API_KEY (not set): the key alone; sent as query parameter api_key');
  });
  test('none needed; an optional ({}) requirement is not listed, but its schemes read optional', () => {
    expect(line([], {})).toBe('none');
    expect(line([{ bearer: [] }, {}], {})).toBe('AUDIT_TOKEN (optional)');
    expect(line([{ bearer: [] }, {}], { AUDIT_TOKEN: 't' })).toBe('AUDIT_TOKEN (set)');
  });
});
