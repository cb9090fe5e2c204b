// An OpenAPI discriminator beside a oneOf/anyOf, kept for execution's error messages (src/execution/discriminator.ts):
// which value of the tag property selects which alternative. The spec says it in `mapping` (`cat: '#/components/
// schemas/Cat'`, or a bare schema name) and, for an alternative no mapping entry names, by the schema's own name (the
// implicit mapping). The alternatives themselves often leave the tag a plain string, so without this the validator
// cannot tell which alternative a value meant, and an error lists every alternative's failures.
// @see https://spec.openapis.org/oas/v3.0.3#discriminator-object
import type { SpecKind } from './load.js';
import { isObject, unescapePointer } from './pointer.js';

/** The converted discriminator: the tag property, and each tag value's alternative as its `#/$defs/<name>` ref. */
export interface ConvertedDiscriminator {
  propertyName: string;
  mapping: Record<string, string>;
}

/**
 * The discriminator of `node` (the spec's schema holding `list`, its oneOf or anyOf), in the converted schema's terms:
 * `converted` is the converted list, and `defRef` turns a spec `$ref` into the converted one (undefined when it
 * resolves nowhere). Only values that select one of the list's own alternatives are kept; undefined when none does.
 * Swagger 2.0's discriminator (a property name, used with allOf, never beside a oneOf) yields nothing here.
 */
export function convertDiscriminator(
  node: Record<string, unknown>,
  list: readonly unknown[],
  converted: readonly unknown[],
  kind: SpecKind,
  defRef: (ref: string) => string | undefined,
): ConvertedDiscriminator | undefined {
  const d = node.discriminator;
  // a bare schema name in `mapping` names a schema of the document's own schemas
  const schemasAt = kind === 'swagger2' ? '#/definitions' : '#/components/schemas';
  if (!isObject(d) || typeof d.propertyName !== 'string' || d.propertyName === '') return undefined;
  const alternatives = new Map<string, string>(); // converted ref -> the spec's ref
  list.forEach((alt, i) => {
    const ref = isObject(alt) ? alt.$ref : undefined;
    const to = converted[i];
    if (typeof ref === 'string' && isObject(to) && typeof to.$ref === 'string') alternatives.set(to.$ref, ref);
  });
  const mapping: Record<string, string> = {};
  const mapped = new Set<string>();
  if (isObject(d.mapping)) {
    for (const [value, target] of Object.entries(d.mapping)) {
      if (typeof target !== 'string' || target === '') continue;
      const to = defRef(target.startsWith('#') ? target : `${schemasAt}/${target.replace(/~/g, '~0').replace(/\//g, '~1')}`);
      if (to === undefined || !alternatives.has(to)) continue;
      Object.defineProperty(mapping, value, { value: to, enumerable: true, writable: true, configurable: true });
      mapped.add(to);
    }
  }
  // the implicit mapping: an alternative no entry names is selected by its schema's name
  for (const [to, ref] of alternatives) {
    const name = unescapePointer(ref.split('/').pop() ?? '');
    if (mapped.has(to) || name === '' || Object.hasOwn(mapping, name)) continue;
    Object.defineProperty(mapping, name, { value: to, enumerable: true, writable: true, configurable: true });
  }
  return Object.keys(mapping).length > 0 ? { propertyName: d.propertyName, mapping } : undefined;
}
