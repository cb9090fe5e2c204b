import { describe, expect, test, vi } from 'vitest';
import { createAjv, FALLBACK_MAX_INPUT } from '../../src/schema/ajv.js';

describe('createAjv', () => {
  const ajv = createAjv();

  test('a catastrophic-backtracking pattern runs through the linear-time engine, not a backtracking RegExp (ReDoS)', () => {
    const nativeTest = vi.spyOn(RegExp.prototype, 'test');
    const nativeExec = vi.spyOn(RegExp.prototype, 'exec');
    try {
      const validate = ajv.compile({ type: 'string', pattern: '^(a+)+$' });
      // The compiled validator holds the pattern as RE2 (linear time by construction), which is the property a
      // wall-clock check could only approximate; the time itself is measured by `npm run bench` (search layer).
      const regExp = ajv.opts.code.regExp as unknown as (pattern: string, flags: string) => { toString(): string };
      expect(String(regExp('^(a+)+$', 'u'))).toBe('re2:/^(a+)+$/u');
      nativeTest.mockClear();
      nativeExec.mockClear();
      expect(validate('a'.repeat(5000) + '!')).toBe(false);
      expect(validate('aaaa')).toBe(true);
      // No native (backtracking) RegExp ran on the hostile input.
      const nativeCalls = [...nativeTest.mock.calls, ...nativeExec.mock.calls].filter(([input]) => String(input).length > 1000);
      expect(nativeCalls).toEqual([]);
    } finally {
      nativeTest.mockRestore();
      nativeExec.mockRestore();
    }
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

describe('createAjv({ checkOnly: true })', () => {
  test('accepts and rejects exactly what the default instance does (code generation differs, semantics do not)', () => {
    const schema = {
      type: 'object',
      required: ['tree'],
      properties: {
        tree: { $ref: '#/$defs/node' },
        when: { type: 'string', format: 'date-time' },
        code: { type: 'string', pattern: '^[a-z]{2,4}$' },
        n: { type: ['integer', 'null'], minimum: 1 },
      },
      additionalProperties: false,
      $defs: { node: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } }, required: ['name'] } },
    };
    const samples: unknown[] = [
      { tree: { name: 'a', children: [{ name: 'b', children: [] }] } },
      { tree: { name: 'a', children: [{ children: [] }] } },
      { tree: { name: 'a' }, when: '2026-11-22T00:00:00Z', code: 'abc', n: null },
      { tree: { name: 'a' }, when: 'yesterday' },
      { tree: { name: 'a' }, code: 'ABCDE' },
      { tree: { name: 'a' }, n: 0 },
      { tree: { name: 'a' }, extra: 1 },
      {},
    ];
    const fast = createAjv({ checkOnly: true }).compile(schema);
    const normal = createAjv().compile(schema);
    const verdicts = samples.map((x) => normal(x));
    expect(verdicts).toEqual([true, false, true, false, false, false, false, false]);
    expect(samples.map((x) => fast(x))).toEqual(verdicts);
  });
});
