// validateArguments: field errors with fixes, size caps (E4), no coercion (E5), $id clashes (E6), unsafe
// integers (E7), ReDoS-proof patterns (E3), the JSON-string client quirk, prototype keys.
import { describe, expect, it } from 'vitest';
import { validateArguments } from '../../src/execution/index.js';
import { op } from './fixtures.js';

const issues = op({
  path: '/repos/{owner}/{repo}/issues',
  params: [
    { arg: 'owner', in: 'path' },
    { arg: 'repo', in: 'path' },
    { arg: 'state', in: 'query', schema: { type: 'string', enum: ['open', 'closed', 'all'] } },
    { arg: 'per_page', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100 } },
    { arg: 'labels', in: 'query', schema: { type: 'array', items: { type: 'string' } } },
    { arg: 'filter', in: 'query', schema: { type: 'object', properties: { a: { type: 'string' } } } },
  ],
});

describe('validateArguments', () => {
  it('accepts valid args unchanged (no defaults inserted, nothing removed)', () => {
    const args = { owner: 'o', repo: 'r', per_page: 0 + 5, labels: [] };
    const out = validateArguments(issues, args);
    expect(out).toEqual({ ok: true, args });
  });

  it('lists every field error with a JSON pointer (E1)', () => {
    const out = validateArguments(issues, { owner: 5, state: 'opne', per_page: 500, labels: [1] });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    const byPath = Object.fromEntries(out.errors.map((e) => [e.path, e]));
    expect(byPath['/repo']?.message).toMatch(/required/);
    expect(byPath['/owner']?.message).toMatch(/must be string/);
    expect(byPath['/owner']?.suggestion).toBe('send it as the string "5"');
    expect(byPath['/state']?.expected).toEqual(['open', 'closed', 'all']);
    expect(byPath['/state']?.suggestion).toBe('use "open"');
    expect(byPath['/per_page']?.message).toMatch(/100/);
    expect(byPath['/labels/0']?.message).toMatch(/string/);
  });

  it('reports an unknown property with "did you mean"', () => {
    const out = validateArguments(issues, { owner: 'o', repo: 'r', per_pag: 5 });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.errors).toContainEqual(expect.objectContaining({ path: '/per_pag', message: 'unknown property', suggestion: 'did you mean "per_page"?' }));
  });

  it('does not coerce "5" to 5 and says how to fix it (E5)', () => {
    const out = validateArguments(issues, { owner: 'o', repo: 'r', per_page: '5' });
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.errors[0]).toMatchObject({ path: '/per_page', suggestion: 'send 5 as a number, not a string (no type coercion)' });
  });

  it('parses a JSON string where an object/array is expected, not where a string is', () => {
    const out = validateArguments(issues, { owner: '{"x":1}', repo: 'r', labels: '["bug","ui"]', filter: '{"a":"b"}' });
    expect(out).toEqual({ ok: true, args: { owner: '{"x":1}', repo: 'r', labels: ['bug', 'ui'], filter: { a: 'b' } } });
    const whole = validateArguments(issues, '{"owner":"o","repo":"r"}');
    expect(whole).toEqual({ ok: true, args: { owner: 'o', repo: 'r' } });
  });

  it('treats undefined/null as {} and refuses non-objects', () => {
    expect(validateArguments(op({}), undefined)).toEqual({ ok: true, args: {} });
    expect(validateArguments(op({}), null)).toEqual({ ok: true, args: {} });
    expect(validateArguments(op({}), [1]).ok).toBe(false);
    expect(validateArguments(op({}), 'nope').ok).toBe(false);
  });

  it('caps size, depth and array length before Ajv (E4)', () => {
    const big = op({ params: [{ arg: 'xs', in: 'query', schema: { type: 'array' } }, { arg: 's', in: 'query' }] });
    const arr = validateArguments(big, { xs: new Array(1_000_000).fill(1) });
    expect(arr.ok === false && arr.errors[0]!.message).toMatch(/1000000 items is over the limit of 10000/);
    const str = validateArguments(big, { s: 'x'.repeat(2_000_000) });
    expect(str.ok === false && str.errors[0]!.message).toMatch(/over the limit of 1000000/);
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = [deep];
    const d = validateArguments(big, { xs: deep });
    expect(d.ok === false && d.errors[0]!.message).toMatch(/deeper than 32/);
  });

  it('refuses integers beyond the safe range (E7)', () => {
    const o = op({ params: [{ arg: 'id', in: 'query', schema: { type: 'integer' } }] });
    const out = validateArguments(o, { id: 9007199254740993 });
    expect(out.ok === false && out.errors[0]).toMatchObject({ path: '/id', message: expect.stringMatching(/beyond JavaScript's exact range/) });
    expect(validateArguments(o, { id: 9007199254740991 }).ok).toBe(true);
  });

  it('compiles two operations whose schemas share an $id (E6) and caches per schema', () => {
    const a = op({ name: 'a', params: [{ arg: 'x', in: 'query', schema: { type: 'string' } }] });
    const b = op({ name: 'b', params: [{ arg: 'x', in: 'query', schema: { type: 'integer' } }] });
    a.inputSchema.$id = 'https://example.com/same';
    b.inputSchema.$id = 'https://example.com/same';
    expect(validateArguments(a, { x: 's' }).ok).toBe(true);
    expect(validateArguments(b, { x: 1 }).ok).toBe(true);
    expect(validateArguments(b, { x: 's' }).ok).toBe(false);
    expect(validateArguments(a, { x: 1 }).ok).toBe(false);
  });

  it('validates a catastrophic pattern in linear time (E3)', () => {
    // A backtracking engine needs ~2^40 steps here: finishing at all (within the test timeout) is the proof.
    const o = op({ params: [{ arg: 'p', in: 'query', schema: { type: 'string', pattern: '^(a+)+$' } }] });
    const out = validateArguments(o, { p: `${'a'.repeat(40)}!` });
    expect(out.ok).toBe(false);
  });

  it('keeps __proto__ keys as data without polluting prototypes (G5)', () => {
    const o = op({ method: 'post', body: { mediaType: 'application/json', properties: { meta: { type: 'object' } } } });
    const args = JSON.parse('{"meta":{"__proto__":{"polluted":true}}}') as Record<string, unknown>;
    expect(validateArguments(o, args).ok).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
