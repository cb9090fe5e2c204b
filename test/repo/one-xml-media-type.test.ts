// What an XML media type is has one definition (review51, finding 6): the importer (bodies.ts, which makes an XML
// body one string argument) and execution (media-kind.ts, request.ts, which send it as it is and describe it) each
// had their own copy, which could drift apart. Both now import src/schema/media-types.ts, the layer they share.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { isXmlMediaType } from '../../src/schema/media-types.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

test('isXmlMediaType is written once, in src/schema, and execution reads that one', () => {
  const defining = sources(join(root, 'src')).filter((f) => /function isXmlMediaType\b/.test(readFileSync(f, 'utf8'))).map((f) => relative(root, f));
  expect(defining).toEqual([join('src', 'schema', 'media-types.ts')]);
  for (const file of [['importer', 'bodies.ts'], ['execution', 'media-kind.ts'], ['execution', 'request.ts']]) {
    expect(readFileSync(join(root, 'src', ...file), 'utf8')).toMatch(/import \{ isXmlMediaType \} from '\.\.\/schema\/media-types\.js'/);
  }
});

test.each([
  ['text/xml', true],
  ['application/xml; charset=utf-8', true],
  ['application/atom+xml', true],
  ['Application/XML', true],
  ['application/json', false],
  ['application/xml-dtd', false],
  ['text/plain', false],
])('isXmlMediaType(%j) -> %s', (mediaType, xml) => {
  expect(isXmlMediaType(mediaType)).toBe(xml);
});
