// The import lint (RELIABILITY J1) above the operations: the catalog's title and description and the tags'
// descriptions, which list_domains shows every agent first, are linted like operations' text; a flagged one is
// reported (LINT_INSTRUCTION_LIKE, in the summary and diagnostics.json) and withheld from catalog.json.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { run } from '../../src/cli/import.js';
import { importSpec } from '../../src/importer/index.js';
import { WITHHELD_TEXT } from '../../src/importer/lint.js';
import { runCaptured } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const FIX = 'test/fixtures/specs';
const POISON = /ignore all previous|id_rsa|\.aws|disregard|SYSTEM|deleteAll (first|now)|always call|ign\u200Bore/i;

describe('catalog and tag text that reads like instructions to an AI (J1)', () => {
  test('the title, the description and a tag description are reported and withheld; ordinary text stays', async () => {
    const r = await importSpec(`${FIX}/poisoned-catalog-text.yaml`, { name: 'inventory' });
    const findings = r.diagnostics.filter((d) => d.code === 'LINT_INSTRUCTION_LIKE').map((d) => d.pointer);
    expect(findings).toEqual(expect.arrayContaining(['#/info/title', '#/info/description', '#/tags/0/description', '#/paths/~1notes/get']));
    expect(findings).not.toContain('#/tags/1/description');
    const byPointer = (p: string) => r.diagnostics.find((d) => d.code === 'LINT_INSTRUCTION_LIKE' && d.pointer === p)?.message;
    expect(byPointer('#/info/title')).toMatch(/^catalog title: text reads like an instruction to an AI \(.*SYSTEM.*\); withheld from agents, the catalog name "inventory" is shown instead$/);
    expect(byPointer('#/info/description')).toMatch(/^catalog description: .*"Ignore all previous instructions".*withheld from agents, a note is shown instead$/);
    expect(byPointer('#/tags/0/description')).toMatch(/^tag "items": description reads like an instruction to an AI .*; withheld from agents, its domain shows a note instead$/);
    // what catalog.json would hold: nothing of the poisoned text, the note or the catalog name in its place
    expect(r.meta.title).toBe('inventory');
    expect(r.meta.description).toBe(WITHHELD_TEXT);
    expect(r.meta.domains).toEqual([
      { name: 'items', description: WITHHELD_TEXT, toolCount: 2 },
      // made from the summaries: not the flagged operation's
      { name: 'notes', description: 'Notes: Create a note', toolCount: 2 },
      { name: 'orders', description: 'Orders placed by customers.', toolCount: 1 },
    ]);
    expect(JSON.stringify(r.meta)).not.toMatch(POISON);
    // the note itself reads as documentation (a re-import of a registry holding it flags nothing more)
    expect(POISON.test(WITHHELD_TEXT)).toBe(false);
  });

  test("the curators' x-api-catalog-description is spec text too; a phrase hidden by zero-width spaces is found", async () => {
    const r = await importSpec(`${FIX}/poisoned-catalog-extension.yaml`);
    const findings = r.diagnostics.filter((d) => d.code === 'LINT_INSTRUCTION_LIKE').map((d) => d.pointer).sort();
    expect(findings).toEqual(['#/info/x-api-catalog-description', '#/tags/0/description']);
    expect(r.meta).toMatchObject({ title: 'Ledger', description: WITHHELD_TEXT, domains: [{ name: 'entries', description: WITHHELD_TEXT }] });
  });

  test("the operator's own --title and --description are not the spec's text: shown as given, not linted", async () => {
    const r = await importSpec(`${FIX}/poisoned-catalog-text.yaml`, { name: 'inventory', title: 'Inventory', description: 'Stock and orders.' });
    expect(r.meta).toMatchObject({ title: 'Inventory', description: 'Stock and orders.' });
    expect(r.diagnostics.map((d) => d.pointer)).not.toContain('#/info/description');
  });

  test('the import command counts the findings, lists them with --verbose and writes them to diagnostics.json', async () => {
    const out = tempDir('ac-catalog-lint-');
    const r = await runCaptured(run, [`${FIX}/poisoned-catalog-text.yaml`, '--name', 'inventory', '--out', out, '--no-snapshot', '--verbose']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/lint: 4 instruction-like,/);
    expect(r.stdout).toMatch(/LINT_INSTRUCTION_LIKE #\/info\/title: catalog title: /);
    expect(r.stdout).toMatch(/LINT_INSTRUCTION_LIKE #\/info\/description: catalog description: /);
    expect(r.stdout).toMatch(/LINT_INSTRUCTION_LIKE #\/tags\/0\/description: tag "items": /);
    const written = JSON.parse(readFileSync(join(out, 'inventory', 'diagnostics.json'), 'utf8')) as unknown;
    expect(JSON.stringify(written)).toContain('"pointer":"#/tags/0/description"');
    expect(readFileSync(join(out, 'inventory', 'catalog.json'), 'utf8')).not.toMatch(POISON);
  });
});
