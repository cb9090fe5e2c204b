// Docs that cannot drift: every command output shown in README.md and docs/*.md sits in a generated block
// (<!-- generated: <command> --> ... <!-- end -->, scripts/lib/doc-blocks.mjs) and is what the command prints now;
// docs/CLI.md has the --help of every command the CLI lists; every `api-catalog <command> --flag` the docs mention
// names a command and a flag the built CLI has. `npm run docs` rewrites stale blocks.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from 'vitest';
import { REPO_ROOT, builtCli } from '../helpers/mcp.js';

interface Block {
  command: string;
  prompt: boolean;
  body: string;
}
interface Blocks {
  docFiles(): string[];
  findBlocks(text: string): Block[];
  regenerate(text: string): Promise<{ text: string; count: number; stale: Array<{ command: string; was: string; now: string }> }>;
}

let lib: Blocks;
const read = (file: string) => readFileSync(join(REPO_ROOT, file), 'utf8');
/** The built CLI's stdout (asynchronous, so the test worker keeps answering its runner meanwhile). */
const cli = async (args: string[]) => (await promisify(execFile)(process.execPath, [builtCli(), ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } })).stdout;

beforeAll(async () => {
  builtCli();
  lib = (await import(pathToFileURL(join(REPO_ROOT, 'scripts', 'lib', 'doc-blocks.mjs')).href)) as Blocks;
});

/** The CLI's commands, read from its own usage text. */
async function commands(): Promise<string[]> {
  const usage = await cli(['--help']);
  const list = usage.slice(usage.indexOf('commands:\n') + 'commands:\n'.length, usage.indexOf('\n\n', usage.indexOf('commands:\n')));
  return list.split('\n').map((l) => l.trim().split(/\s+/)[0] as string);
}

describe('generated blocks', () => {
  test('the blocks are where the docs show command output: the walkthrough, every --help, the banner, the session', () => {
    const all = lib.docFiles().flatMap((f) => lib.findBlocks(read(f)).map((b) => `${f}: ${b.command}`));
    expect(all).toEqual(
      expect.arrayContaining([
        'README.md: node scripts/docs/banner.mjs',
        'README.md: node scripts/docs/session.mjs',
        'docs/CURATION.md: api-catalog search "open a ticket" --limit 3',
        'docs/CURATION.md: api-catalog search "open a ticket" --registry .cache/curated/github --limit 3',
        'docs/CLI.md: api-catalog --help',
        'docs/SEARCH-LOG.md: node scripts/docs/search-log.mjs',
      ]),
    );
  });

  test('every shell transcript ($ command, then what it prints) and MCP transcript in the docs is a generated block', () => {
    const loose: string[] = [];
    for (const f of lib.docFiles()) {
      // the text outside generated blocks
      const outside = read(f).replace(/<!-- (generated|generated-output): .+? -->\n[\s\S]*?<!-- end -->/g, '');
      for (const fence of outside.matchAll(/```[a-z]*\n([\s\S]*?)```/g)) {
        const body = fence[1] as string;
        if (/^\$ /m.test(body) || /^agent → /m.test(body)) loose.push(`${f}: ${body.split('\n')[0]}`);
      }
    }
    expect(loose, 'show command output through <!-- generated: <command> --> ... <!-- end --> and run `npm run docs`').toEqual([]);
  });

  test('docs/CLI.md shows the --help of every command the CLI lists', async () => {
    const page = lib.findBlocks(read('docs/CLI.md')).map((b) => b.command);
    const names = await commands();
    expect(names).toContain('serve');
    expect(names.filter((c) => !page.includes(`api-catalog ${c} --help`))).toEqual([]);
  });

  test.each(['README.md', 'docs/CLI.md', 'docs/CURATION.md', 'docs/SEARCH-LOG.md'])('%s: every block is what its command prints now (`npm run docs` rewrites it)', async (file) => {
    const r = await lib.regenerate(read(file));
    expect(r.count).toBeGreaterThan(0);
    const stale = r.stale.map((s) => `${s.command}\n--- in ${file}:\n${s.was}+++ now:\n${s.now}`);
    expect(stale, `stale blocks in ${file}: run \`npm run docs\``).toEqual([]);
  }, 300_000);

  test('no other document has blocks this test does not run', () => {
    const withBlocks = lib.docFiles().filter((f) => lib.findBlocks(read(f)).length > 0);
    expect(withBlocks.sort()).toEqual(['README.md', 'docs/CLI.md', 'docs/CURATION.md', 'docs/SEARCH-LOG.md']);
  });
});

describe('the commands the docs mention', () => {
  test('every `api-catalog <command> --flag` names a command and a flag the built CLI has', async () => {
    const names = await commands();
    const help = new Map<string, string>();
    for (const c of names) help.set(c, await cli([c, '--help']));
    const wrong: string[] = [];
    for (const f of lib.docFiles()) {
      // code only (fenced blocks and inline spans); a mention runs to the end of its span or line
      const fences = [...read(f).matchAll(/```[a-z]*\n([\s\S]*?)```/g)].map((x) => x[1] as string);
      const spans = [...read(f).replace(/```[a-z]*\n[\s\S]*?```/g, '').matchAll(/`([^`\n]+)`/g)].map((x) => x[1] as string);
      const text = [...fences, ...spans].join('\n');
      for (const m of text.matchAll(/(?<![\w/.-])api-catalog ([a-z][a-z-]*)([^`\n]*)/g)) {
        const cmd = m[1] as string;
        if (!names.includes(cmd)) {
          wrong.push(`${f}: unknown command "api-catalog ${cmd}"`);
          continue;
        }
        for (const flag of (m[2] as string).matchAll(/(?<![\w-])--([a-z][a-z-]*)/g)) {
          const name = `--${flag[1]}`;
          if (name === '--help') continue;
          if (!new RegExp(`${name}(?![a-z-])`).test(help.get(cmd) as string)) wrong.push(`${f}: api-catalog ${cmd} has no ${name}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
