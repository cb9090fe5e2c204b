// Running a CLI subcommand's `run(argv)` in-process with stdout/stderr captured (and env vars set for the call),
// and a byte snapshot of a folder, for the importer/curation/embeddings CLI tests.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { vi } from 'vitest';
import { isUsageError } from '../../src/cli/args.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Calls `run(args)` with process.stdout/stderr captured and `env` set (restored afterwards). A UsageError (a
 * mistake on the command line) ends as the CLI ends it (src/cli/index.ts): its line on stderr, code 2.
 */
export async function runCaptured(run: (argv: string[]) => Promise<number>, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => ((stdout += String(s)), true));
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => ((stderr += String(s)), true));
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    try {
      const code = await run(args);
      return { code, stdout, stderr };
    } catch (err) {
      if (!isUsageError(err)) throw err;
      stderr += `api-catalog ${err.message}\n`;
      return { code: 2, stdout, stderr };
    }
  } finally {
    o.mockRestore();
    e.mockRestore();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** Every file under `root` with its text, for byte-identical comparisons. */
export function treeSnapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[relative(root, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(root);
  return out;
}
