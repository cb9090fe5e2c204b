import { describe, expect, test } from 'vitest';
import { MAX_DEFS_CHARS, SchemaConverter, SchemaError } from '../../src/importer/schema.js';
import type { SpecKind } from '../../src/importer/load.js';
import { createAjv } from '../../src/schema/ajv.js';

function convert(schema: unknown, kind: SpecKind = 'oas30', components: Record<string, unknown> = {}): { schema: unknown; defs: Record<string, unknown> } {
  const doc = { components: { schemas: components } };
  const targets = Object.keys(components).map((k) => `#/components/schemas/${k}`);
  const conv = new SchemaConverter(doc, kind, targets);
  const deps = new Set<string>();
  const out = conv.convert(schema, '#/x', deps);
  return { schema: out, defs: conv.defsFor(deps) };
}

describe('schema conversion to JSON Schema 2020-12', () => {
  test.each<[string, unknown, SpecKind, unknown]>([
    ['nullable with type', { type: 'string', nullable: true }, 'oas30', { type: ['string', 'null'] }],
    ['nullable enum gets null', { type: 'string', enum: ['a'], nullable: true }, 'oas30', { type: ['string', 'null'], enum: ['a', null] }],
    ['nullable without type (allOf)', { nullable: true, allOf: [{ type: 'object' }] }, 'oas30', { anyOf: [{ allOf: [{ type: 'object' }] }, { type: 'null' }] }],
    ['nullable is plain annotation in 3.1', { type: 'string', nullable: true }, 'oas31', { type: 'string' }],
    ['x-nullable in Swagger 2.0', { type: 'integer', 'x-nullable': true }, 'swagger2', { type: ['integer', 'null'] }],
    ['boolean exclusiveMinimum', { type: 'number', minimum: 5, exclusiveMinimum: true }, 'oas30', { type: 'number', exclusiveMinimum: 5 }],
    ['false exclusiveMaximum dropped', { type: 'number', maximum: 5, exclusiveMaximum: false }, 'oas30', { type: 'number', maximum: 5 }],
    ['numeric exclusiveMinimum (3.1)', { type: 'number', exclusiveMinimum: 0 }, 'oas31', { type: 'number', exclusiveMinimum: 0 }],
    ['example -> examples', { type: 'string', example: 'x' }, 'oas30', { type: 'string', examples: ['x'] }],
    ['file -> binary string', { type: 'file' }, 'swagger2', { type: 'string', format: 'binary' }],
    ['extensions, xml, discriminator, $id dropped', { type: 'object', 'x-a': 1, xml: { name: 'a' }, discriminator: { propertyName: 'k' }, $id: 'http://evil' }, 'oas30', { type: 'object' }],
    ['readOnly property dropped and removed from required', { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', readOnly: true }, name: { type: 'string' } } }, 'oas30', { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }],
    ['writeOnly kept', { type: 'string', writeOnly: true }, 'oas30', { type: 'string', writeOnly: true }],
    ['3.1 type arrays and prefixItems kept', { type: ['array', 'null'], prefixItems: [{ type: 'number' }] }, 'oas31', { type: ['array', 'null'], prefixItems: [{ type: 'number' }] }],
    ['items array (draft 4 tuple) -> prefixItems', { type: 'array', items: [{ type: 'string' }] }, 'oas31', { type: 'array', prefixItems: [{ type: 'string' }] }],
    ['invalid pattern dropped', { type: 'string', pattern: '(' }, 'oas30', { type: 'string' }],
    ['HTML description cleaned', { type: 'string', description: '<p>The <b>name</b>\u200b.</p>' }, 'oas30', { type: 'string', description: 'The name.' }],
  ])('%s', (_label, input, kind, expected) => {
    const { schema } = convert(input, kind);
    expect(schema).toEqual(expected);
    expect(() => createAjv().compile(schema as object)).not.toThrow();
  });

  test('$ref becomes a local $defs entry holding only what is used', () => {
    const { schema, defs } = convert(
      { type: 'object', properties: { owner: { $ref: '#/components/schemas/User' } } },
      'oas30',
      { User: { type: 'object', properties: { login: { type: 'string' } } }, Unused: { type: 'string' } },
    );
    expect(schema).toEqual({ type: 'object', properties: { owner: { $ref: '#/$defs/User' } } });
    expect(Object.keys(defs)).toEqual(['User']);
  });

  test('a recursive schema stays finite, serializes, and validates nested instances (D1)', () => {
    const components = { Node: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/components/schemas/Node' } } } } };
    const { schema, defs } = convert({ $ref: '#/components/schemas/Node' }, 'oas30', components);
    const full = { ...(schema as object), $defs: defs };
    const text = JSON.stringify(full);
    expect(text.length).toBeLessThan(1000);
    const validate = createAjv().compile(full);
    expect(validate({ name: 'a', children: [{ name: 'b', children: [{ name: 'c', children: [] }] }] })).toBe(true);
    expect(validate({ name: 'a', children: [{ name: 'b', children: [{ name: 3 }] }] })).toBe(false);
  });

  test('a broken $ref is a SchemaError naming the pointer', () => {
    expect(() => convert({ $ref: '#/components/schemas/Nope' })).toThrow(SchemaError);
    expect(() => convert({ $ref: '#/components/schemas/Nope' })).toThrow(/#\/components\/schemas\/Nope/);
  });

  test('defs named after the same last segment stay distinct', () => {
    const doc = { a: { Item: { type: 'string' } }, b: { Item: { type: 'integer' } } };
    const conv = new SchemaConverter(doc, 'oas30', ['#/a/Item', '#/b/Item']);
    expect(conv.defName('#/a/Item')).toBe('Item');
    expect(conv.defName('#/b/Item')).toBe('Item_2');
  });

  test('__proto__ as a property name is data, not a prototype', () => {
    const input = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"object","properties":{"polluted":{"type":"string"}}}}}') as unknown;
    const { schema } = convert(input);
    const props = (schema as { properties: Record<string, unknown> }).properties;
    expect(Object.keys(props)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(props)).toBe(Object.prototype);
  });

  test('readOnly behind a $ref is left out of a request like an inline readOnly property', () => {
    const { schema, defs } = convert(
      { type: 'object', required: ['id', 'name'], properties: { id: { $ref: '#/components/schemas/Id' }, name: { type: 'string' } } },
      'oas30',
      { Id: { type: 'string', readOnly: true } },
    );
    expect(schema).toEqual({ type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
    expect(defs).toEqual({});
  });
});

describe('bounded $defs closure (entity models that reference everything)', () => {
  // `n` properties of about 45 JSON characters each; the last one points on to `next`.
  const wide = (n: number, next?: string): Record<string, unknown> => {
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) properties[`field_${i}`] = { type: 'string', maxLength: 5 };
    if (next) properties.enum = { $ref: `#/components/schemas/${next}` }; // a property named like a keyword
    return { type: 'object', properties };
  };
  const closure = (components: Record<string, unknown>, root: string): { defs: Record<string, unknown>; elided: string[]; schema: unknown } => {
    const doc = { components: { schemas: components } };
    const conv = new SchemaConverter(doc, 'oas30', Object.keys(components).map((k) => `#/components/schemas/${k}`));
    const deps = new Set<string>();
    const schema = conv.convert({ $ref: `#/components/schemas/${root}` }, '#/x', deps);
    const elided: string[] = [];
    return { defs: conv.defsFor(deps, elided), elided, schema };
  };

  test('a closure under the bound is complete and nothing is elided', () => {
    const { defs, elided } = closure({ A: wide(10, 'B'), B: wide(10, 'C'), C: wide(10) }, 'A');
    expect(Object.keys(defs)).toEqual(['A', 'B', 'C']);
    expect(elided).toEqual([]);
  });

  test('beyond the bound, nested definitions become unchecked values that say so; the rest still validates', () => {
    const per = Math.ceil(MAX_DEFS_CHARS / 3 / 40); // each definition is about a third of the budget or more
    const { defs, elided, schema } = closure({ A: wide(per, 'B'), B: wide(per, 'C'), C: wide(per, 'D'), D: wide(per, 'A') }, 'A');
    expect(Object.keys(defs).sort()).toEqual(['A', 'B']);
    expect(elided).toEqual(['#/components/schemas/C']);
    expect(JSON.stringify(defs).length).toBeLessThanOrEqual(MAX_DEFS_CHARS + 200);
    const bEnum = (defs.B as { properties: Record<string, Record<string, unknown>> }).properties.enum;
    expect(bEnum?.$ref).toBeUndefined();
    expect(bEnum?.description).toMatch(/Nested schema C left out/);
    // The direct definition is kept whole: A's own fields are still checked.
    const validate = createAjv().compile({ ...(schema as object), $defs: defs });
    expect(validate({ field_0: 'ok', enum: { field_0: 'ok', enum: { anything: [1, 2] } } })).toBe(true);
    expect(validate({ field_0: 'too long' })).toBe(false);
    expect(validate({ enum: { field_1: 'too long' } })).toBe(false);
  });

  test('the shared converted definition is not modified by eliding for one operation', () => {
    const per = Math.ceil(MAX_DEFS_CHARS / 3 / 40);
    const components = { A: wide(per, 'B'), B: wide(per, 'C'), C: wide(per) };
    const doc = { components: { schemas: components } };
    const conv = new SchemaConverter(doc, 'oas30', Object.keys(components).map((k) => `#/components/schemas/${k}`));
    const big = new Set<string>();
    conv.convert({ $ref: '#/components/schemas/A' }, '#/x', big);
    const elided: string[] = [];
    conv.defsFor(big, elided);
    expect(elided).toEqual(['#/components/schemas/C']);
    const small = new Set<string>();
    conv.convert({ $ref: '#/components/schemas/B' }, '#/y', small);
    const defs = conv.defsFor(small);
    expect((defs.B as { properties: Record<string, unknown> }).properties.enum).toEqual({ $ref: '#/$defs/C' });
  });
});
