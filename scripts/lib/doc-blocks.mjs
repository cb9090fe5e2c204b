// The docs' generated blocks: a command's output written into README.md and docs/*.md between
// `<!-- generated: <command> -->` (the block shows `$ <command>` and its output) or
// `<!-- generated-output: <command> -->` (the output alone) and `<!-- end -->`. `npm run docs` (scripts/docs.mjs)
// re-runs every command and rewrites its block; test/docs/generated.test.ts fails when one is stale.
// Commands run in bash, one document's blocks in order in one scratch folder (so an `import --out .cache/x` is
// seen by the next block) that links to the repository's files, with `api-catalog` meaning the built CLI and an
// environment that holds no credentials. Durations ("in 2.1 s", "35 ms") vary from run to run: they are compared
// as <time>, and a block whose only change is a duration keeps its text.
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The Markdown files that may hold generated blocks (docs/BENCHMARKS.md is written by `npm run bench`). */
export function docFiles() {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md') && f !== 'BENCHMARKS.md')
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

const BLOCK = /<!-- (generated|generated-output): (.+?) -->\n([\s\S]*?)<!-- end -->/g;

/** The generated blocks of a document, in order: the command, whether it shows the prompt, the text now there. */
export function findBlocks(text) {
  return [...text.matchAll(BLOCK)].map((m) => ({ command: m[2], prompt: m[1] === 'generated', body: m[3], index: m.index, length: m[0].length }));
}

/** A block's body for a command's output. */
export function render(block, output) {
  const lines = block.prompt ? [`$ ${block.command}`, output.trimEnd()] : [output.trimEnd()];
  return '```text\n' + lines.join('\n') + '\n```\n';
}

/** Durations as <time>, for comparing two runs of the same command. */
export function masked(text) {
  return text.replace(/\b\d+(\.\d+)? ?(ms|s)\b/g, '<time>');
}

/** A scratch folder that looks like the repository (its entries linked) with a PATH where api-catalog is the built CLI. */
export function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'ac-docs-'));
  const work = join(dir, 'repo');
  mkdirSync(work);
  for (const e of readdirSync(ROOT)) if (e !== '.cache' && e !== '.git') symlinkSync(join(ROOT, e), join(work, e));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'api-catalog'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'dist', 'cli', 'index.js')}" "$@"\n`);
  chmodSync(join(bin, 'api-catalog'), 0o755);
  const home = join(dir, 'home');
  mkdirSync(home);
  const env = {
    PATH: [bin, dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    HOME: home,
    XDG_CACHE_HOME: join(home, '.cache'),
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    NO_COLOR: '1',
  };
  return {
    cwd: work,
    /** The command's stdout (bash -o pipefail); a failure throws with its stderr. Asynchronous: a test runner's
     * worker must keep answering while a command runs. */
    async run(command) {
      try {
        const { stdout } = await promisify(execFile)('bash', ['-o', 'pipefail', '-c', command], { cwd: work, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
        return stdout;
      } catch (e) {
        throw new Error(`docs: \`${command}\` failed (exit ${e.code}): ${String(e.stderr ?? e.message).trim().slice(-2000)}`);
      }
    },
    close() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs every block of one document; returns the new text and the stale blocks. A block whose output differs from
 * its text only in durations keeps its text.
 */
export async function regenerate(text) {
  const blocks = findBlocks(text);
  if (blocks.length === 0) return { text, stale: [], count: 0 };
  const ws = workspace();
  const stale = [];
  let out = '';
  let at = 0;
  try {
    for (const b of blocks) {
      const fresh = render(b, await ws.run(b.command));
      const body = masked(fresh) === masked(b.body) ? b.body : fresh;
      if (body !== b.body) stale.push({ command: b.command, was: b.body, now: fresh });
      const head = text.slice(b.index, b.index + b.length).split('\n')[0];
      out += text.slice(at, b.index) + `${head}\n${body}<!-- end -->`;
      at = b.index + b.length;
    }
  } finally {
    ws.close();
  }
  return { text: out + text.slice(at), stale, count: blocks.length };
}
