import { describe, expect, test } from 'vitest';
import { createAjv, FALLBACK_MAX_INPUT } from '../../src/schema/ajv.js';
import { fastestMs } from '../helpers/timing.js';

describe('createAjv', () => {
  const ajv = createAjv();

  test('a catastrophic-backtracking pattern validates in linear time (ReDoS)', () => {
    const validate = ajv.compile({ type: 'string', pattern: '^(a+)+$' });
    const timed = fastestMs(() => validate('a'.repeat(5000) + '!'));
    expect(timed.result).toBe(false);
    expect(timed.ms).toBeLessThan(250);
    expect(validate('aaaa')).toBe(true);
  });

  test('patterns RE2 cannot express fall back to a bounded native RegExp', () => {
    const validate = ajv.compile({ type: 'string', pattern: '^(?!x)\\w+$' });
    expect(validate('abc')).toBe(true);
    expect(validate('xbc')).toBe(false);
    expect(validate('a'.repeat(FALLBACK_MAX_INPUT + 1))).toBe(false);
  });

  test('OpenAPI formats and keywords compile; int32 is range-checked', () => {
    const validate = ajv.compile({
      type: 'object',
      properties: { n: { type: 'integer', format: 'int32' }, f: { type: 'string', format: 'binary' } },
      example: { n: 1 },
      xml: { name: 'x' },
    });
    expect(validate({ n: 5, f: 'x' })).toBe(true);
    expect(validate({ n: 2 ** 40 })).toBe(false);
  });

  test('2020-12 prefixItems is enforced', () => {
    const validate = ajv.compile({ type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] });
    expect(validate(['a', 1])).toBe(true);
    expect(validate(['a', 'b'])).toBe(false);
  });
});
