// A token file with one hash on two lines (audit 11, defect 1): a line copied for a new person without a new token.
// The token would authenticate as whichever line comes first, and deleting that line (revoking it) would leave it
// working under the other name. Refused like a duplicate name: at start (exit 1, both lines named, never the hash)
// and on a re-read (tokens_reload_failed, the previous entries stay in force).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { TokenFile, newToken, parseTokenFile } from '../../src/server/auth/tokens.js';
import { REPO_ROOT, builtCli, fixtureRegistry } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';

const cli = (args: string[]) => spawnSync(process.execPath, [builtCli(), ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 30_000 });

/** carol's line and a copy of it for mallory that keeps carol's hash. */
function cloned(): { carol: ReturnType<typeof newToken>; text: string; hash: string } {
  const carol = newToken('carol', ['catalog:read', 'catalog:execute']);
  const hash = carol.line.split(' ')[2] as string;
  const bob = newToken('bob', ['catalog:read']);
  return { carol, hash, text: `${carol.line}\n${bob.line}\nmallory catalog:read ${hash}\n` };
}

test('a hash on two lines is refused, naming both lines and what to do, never the hash', () => {
  const { text, hash } = cloned();
  let message = '';
  try {
    parseTokenFile(text, 'tokens.txt');
  } catch (err) {
    message = (err as Error).message;
  }
  expect(message).toMatch(/^--tokens tokens\.txt line 3: the hash of mallory is also on line 1 \(one token for two lines\); each person needs their own token;/);
  expect(message).toContain('`api-catalog token new <name>`');
  expect(message).not.toContain(hash.slice('sha256:'.length));
});

test('serve refuses to start on a token file with a duplicate hash', () => {
  const dir = tempDir('ac-tokens-dup-');
  const file = join(dir, 'tokens.txt');
  writeFileSync(file, cloned().text, { mode: 0o600 });
  const r = cli(['serve', '--http', '--port', '0', '--registry', fixtureRegistry('petstore'), '--tokens', file]);
  expect(r.status).toBe(1);
  expect(r.stderr).toContain(`--tokens ${file} line 3: the hash of mallory is also on line 1`);
});

test('a re-read that finds a duplicate hash keeps the previous entries (the token stays carol\'s, revocable)', () => {
  const dir = tempDir('ac-tokens-dup-');
  const file = join(dir, 'tokens.txt');
  const { carol, text } = cloned();
  writeFileSync(file, `${carol.line}\n`, { mode: 0o600 });
  const lines: Array<Record<string, any>> = [];
  const tokens = new TokenFile(file, createLogger({ write: (l) => lines.push(JSON.parse(l) as Record<string, any>) }));
  expect(tokens.match(carol.token)).toEqual({ name: 'carol', scopes: ['catalog:read', 'catalog:execute'] });

  writeFileSync(file, text);
  expect(tokens.reload()).toBe(false);
  expect(lines.at(-1)).toMatchObject({
    level: 'error',
    event: 'tokens_reload_failed',
    message: expect.stringContaining(`--tokens ${file} line 3: the hash of mallory is also on line 1`),
    note: 'new lines are not in force until the file is fixed; of the previous entries only those whose line is unchanged stay in force',
    kept: 1,
    refused: 0,
  });
  expect(tokens.names).toEqual(['carol']);
  expect(tokens.match(carol.token)?.name).toBe('carol');
  // Revoking carol (her line deleted, the clone fixed to a token of its own) refuses her token.
  const mallory = newToken('mallory', ['catalog:read']);
  writeFileSync(file, `${mallory.line}\n`);
  expect(tokens.reload()).toBe(true);
  expect(tokens.match(carol.token)).toBeUndefined();
  expect(tokens.match(mallory.token)?.name).toBe('mallory');
  expect(JSON.stringify(lines)).not.toContain(carol.token);
});
