// Named token files and `api-catalog token new` (RELIABILITY O10-O11): the command prints a token and a line that
// holds only its hash; a malformed or unreadable file stops `serve` with the file, the line and the fix.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { TokenFile, newToken, parseTokenFile } from '../../src/server/auth/tokens.js';
import { REPO_ROOT, builtCli, fixtureRegistry } from '../helpers/mcp.js';
import { tempDir } from '../helpers/temp.js';
import { until } from '../helpers/timing.js';

const cli = (args: string[]) => spawnSync(process.execPath, [builtCli(), ...args], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 30_000 });
const HASH = 'a'.repeat(64);

test('O11: token new prints the token and its file line (the hash only); names and scopes are checked', () => {
  const r = cli(['token', 'new', 'ci-bot', '--scopes', 'catalog:read']);
  expect(r.status).toBe(0);
  const [token, line, rest] = r.stdout.split('\n');
  expect(token).toMatch(/^act_[A-Za-z0-9_-]{43}$/);
  expect(line).toBe(`ci-bot catalog:read sha256:${createHash('sha256').update(token as string).digest('hex')}`);
  expect(rest).toBe('');
  expect(r.stderr).not.toContain(token);
  expect(parseTokenFile(`${line}\n`, 'f')).toHaveLength(1);
  const both = cli(['token', 'new', 'agent-1']);
  expect(both.stdout.split('\n')[1]).toMatch(/^agent-1 catalog:read,catalog:execute sha256:[0-9a-f]{64}$/);
  expect(both.stdout.split('\n')[0]).not.toBe(token);

  const badName = cli(['token', 'new', 'no spaces/here']);
  expect(badName.status).toBe(2);
  expect(badName.stderr).toMatch(/token new: the name "no spaces\/here" must be/);
  const badScope = cli(['token', 'new', 'x', '--scopes', 'catalog:admin']);
  expect(badScope.status).toBe(2);
  expect(badScope.stderr).toMatch(/unknown scope "catalog:admin"; the scopes are catalog:read, catalog:execute/);
  expect(cli(['token', 'old', 'x']).stderr).toMatch(/unknown action "old"/);
});

test('O12: parseTokenFile names the line of every mistake and never echoes a hash', () => {
  const bad = (text: string) => {
    try {
      parseTokenFile(text, 'tokens.txt');
    } catch (err) {
      return (err as Error).message;
    }
    throw new Error('accepted');
  };
  expect(parseTokenFile(`# comment\n\nalice catalog:read,catalog:execute sha256:${HASH}\n`, 'tokens.txt')).toEqual([
    { name: 'alice', scopes: ['catalog:read', 'catalog:execute'], hash: Buffer.from(HASH, 'hex') },
  ]);
  expect(bad(`alice catalog:read sha256:${HASH}\nbob catalog:read\n`)).toMatch(/^--tokens tokens\.txt line 2: expected 3 fields, found 2; each line is/);
  // a name on two lines is a rotation (two tokens of one principal); one token on two lines is refused
  expect(bad(`alice catalog:read sha256:${HASH}\nalice catalog:read sha256:${HASH}\n`)).toMatch(/line 2: the hash of alice is also on line 1/);
  expect(bad(`alice catalog:write sha256:${HASH}\n`)).toMatch(/line 1: unknown scope "catalog:write"/);
  const plain = bad('alice catalog:read my-plain-token-value\n');
  expect(plain).toMatch(/line 1: the third field must be sha256:/);
  expect(plain).not.toContain('my-plain-token-value');
  expect(bad('# nothing\n')).toMatch(/no entries/);
});

test('O12: serve refuses to start on a malformed token file (naming the line) and on an unreadable one', () => {
  const dir = tempDir('ac-tokens-');
  const file = join(dir, 'tokens.txt');
  writeFileSync(file, `alice catalog:read sha256:${HASH}\n# ok\nbob catalog:read sha256:xyz\n`, { mode: 0o600 });
  const base = ['serve', '--http', '--port', '0', '--registry', fixtureRegistry('petstore')];
  const malformed = cli([...base, '--tokens', file]);
  expect(malformed.status).toBe(1);
  expect(malformed.stderr).toContain(`--tokens ${file} line 3: the third field must be sha256:`);
  const missing = cli([...base, '--tokens', join(dir, 'nope.txt')]);
  expect(missing.status).toBe(1);
  expect(missing.stderr).toContain(`--tokens ${join(dir, 'nope.txt')}: cannot read it (ENOENT)`);
  const folder = cli([...base, '--tokens', dir]);
  expect(folder.status).toBe(1);
  expect(folder.stderr).toMatch(/cannot read it \(EISDIR\)/);
});

test('O12: a token file other users can read is served with a warning naming the fix; emptied or removed, it revokes every token', () => {
  const dir = tempDir('ac-tokens-');
  const file = join(dir, 'tokens.txt');
  const alice = newToken('alice', ['catalog:read']);
  writeFileSync(file, `${alice.line}\n`, { mode: 0o644 });
  chmodSync(file, 0o644);
  const lines: Array<Record<string, any>> = [];
  const logger = createLogger({ write: (l) => lines.push(JSON.parse(l) as Record<string, any>) });
  const tokens = new TokenFile(file, logger);
  expect(lines).toEqual([expect.objectContaining({ level: 'warn', event: 'tokens_file_mode', mode: '0644', note: `other users can read it; run chmod 600 ${file}` })]);
  expect(tokens.match(alice.token)?.name).toBe('alice');
  // names: the tokens in force (what the start banner shows), never re-read from the file
  expect(tokens.names).toEqual(['alice']);
  // A malformed edit keeps the previous entries whose line is still there unchanged (a typo on one line does not
  // lock everyone out) ...
  writeFileSync(file, `${alice.line}\nbob catalog:read\n`);
  expect(tokens.reload()).toBe(false);
  expect(tokens.match(alice.token)?.name).toBe('alice');
  expect(tokens.names).toEqual(['alice']);
  // ... but not one whose own line is the broken one (fail closed: details in tokens-rotation.test.ts) ...
  writeFileSync(file, 'alice\n');
  expect(tokens.reload()).toBe(false);
  expect(tokens.match(alice.token)).toBeUndefined();
  // ... an emptied file, or one removed, is the operator revoking them all.
  writeFileSync(file, '# nobody\n');
  expect(tokens.reload()).toBe(true);
  expect(tokens.match(alice.token)).toBeUndefined();
  expect(tokens.names).toEqual([]);
  expect(lines.at(-1)).toMatchObject({ level: 'error', event: 'tokens_reloaded', entries: 0 });
  writeFileSync(file, `${alice.line}\n`);
  tokens.reload();
  expect(tokens.match(alice.token)?.name).toBe('alice');
  rmSync(file);
  expect(tokens.reload()).toBe(true);
  expect(tokens.match(alice.token)).toBeUndefined();
  expect(lines.at(-1)).toMatchObject({ level: 'error', event: 'tokens_file_gone', note: 'every token is refused until the file is back' });
  // Never a secret in what was logged.
  expect(JSON.stringify(lines)).not.toContain(alice.token);
});

test('O12: the "no entries" error shows a way to add a token that never writes the token into the file', () => {
  let message = '';
  try {
    parseTokenFile('# nobody yet\n', 'tokens.txt');
  } catch (err) {
    message = (err as Error).message;
  }
  // `token new` prints the token, then its file line: appending all of its output would store the token in the file
  // (and the next start refuses the file: "expected 3 fields, found 1"). Only the last line may go in.
  expect(message).toContain('--tokens tokens.txt: no entries; add one with `api-catalog token new <name> | tee >(tail -1 >> tokens.txt) | head -1`');
  expect(message).not.toMatch(/token new <name> >>/);
  // the same form as `api-catalog token --help`
  expect(cli(['token', '--help']).stdout).toContain('| tee >(tail -1 >> tokens.txt) | head -1');
});

test('O12: a tokens file removed and put back unchanged (mv back, cp -p) is served again by the watcher', async () => {
  const dir = tempDir('ac-tokens-');
  const file = join(dir, 'tokens.txt');
  const aside = join(dir, 'tokens.moved');
  const alice = newToken('alice', ['catalog:read']);
  writeFileSync(file, `${alice.line}\n`, { mode: 0o600 });
  const lines: Array<Record<string, any>> = [];
  const tokens = new TokenFile(file, createLogger({ write: (l) => lines.push(JSON.parse(l) as Record<string, any>) }));
  tokens.watch(50);
  try {
    // watchFile's first stat (taken asynchronously) is its baseline and a change before it is never reported: touch
    // the file with a new mtime until the watcher reports one, so that what follows happens after that baseline.
    let touch = 0;
    await until(() => {
      const t = new Date(Date.UTC(2020, 0, 1) + ++touch * 1000);
      utimesSync(file, t, t);
      return lines.some((l) => l.event === 'tokens_reloaded');
    }, 'the watcher to report a first change');
    // One more change, told apart in the log (2 entries): once reported, the watcher has seen the file as it now is.
    const bob = newToken('bob', ['catalog:read']);
    writeFileSync(file, `${alice.line}\n${bob.line}\n`);
    await until(() => lines.some((l) => l.event === 'tokens_reloaded' && l.entries === 2), 'the watcher to report the second entry');
    const before = statSync(file);
    renameSync(file, aside);
    await until(() => tokens.match(alice.token) === undefined, 'the removal to revoke every token');
    expect(lines.at(-1)).toMatchObject({ event: 'tokens_file_gone' });
    // Back with the very same inode, size and mtime: only its absence in between changed.
    renameSync(aside, file);
    const after = statSync(file);
    expect([after.ino, after.size, after.mtimeMs]).toEqual([before.ino, before.size, before.mtimeMs]);
    await until(() => tokens.match(alice.token)?.name === 'alice', 'the restored file to be served again');
    expect(lines.at(-1)).toMatchObject({ level: 'info', event: 'tokens_reloaded', entries: 2 });
    // and the watcher still follows ordinary edits afterwards
    writeFileSync(file, '# nobody\n');
    await until(() => tokens.match(alice.token) === undefined, 'the emptied file to revoke the token');
  } finally {
    tokens.close();
  }
  expect(JSON.stringify(lines)).not.toContain(alice.token);
});
