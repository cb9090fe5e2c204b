// `--verbose` is accepted by every command (src/cli/args.ts) and prints an error's stack trace; the top-level
// --help says so, since no command's own --help lists it (import's aside). The built CLI, as a user runs it.
import { describe, expect, it } from 'vitest';
import { builtCli } from '../helpers/mcp.js';
import { runProcess } from '../helpers/run.js';

const cli = (args: string[]) => runProcess(process.execPath, [builtCli(), ...args], { env: { PATH: process.env.PATH ?? '' } });

describe('the global --verbose', () => {
  it('is named in the top-level --help', async () => {
    const r = await cli(['--help']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('Every command also takes --verbose: a stack trace, pointing into src/, beside an error.');
  });

  it('does what the help says on a command whose own --help does not list it', async () => {
    const plain = await cli(['domains', '--registry', '/nonexistent-registry-folder']);
    expect(plain.status).toBe(1);
    expect(plain.stderr).not.toMatch(/^\s+at /m);
    const verbose = await cli(['domains', '--registry', '/nonexistent-registry-folder', '--verbose']);
    expect(verbose.status).toBe(1);
    expect(verbose.stderr).toContain('/nonexistent-registry-folder does not exist');
    expect(verbose.stderr).toMatch(/^\s+at .*src\/cli\/domains\.ts:\d+/m);
  });
});
