// The tokens file's mode, checked at start and at every re-read, with a real file: a file other users can write is
// worse than one they can read (anyone on the host can append a line with their own hash and get every scope), so it
// is logged as an error that says so; a file swapped for a world-writable one while the server runs is flagged at
// the re-read (before, only the start looked at the mode, and "can read" was said of any mode).
import { chmodSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { TokenFile, newToken } from '../../src/server/auth/tokens.js';
import { tempDir } from '../helpers/temp.js';

test('a tokens file writable by other users: an error naming the risk, at start and at every re-read', () => {
  const dir = tempDir('ac-tokens-mode-');
  const file = join(dir, 'tokens.txt');
  const alice = newToken('alice', ['catalog:read']);
  writeFileSync(file, `${alice.line}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  const lines: Array<Record<string, any>> = [];
  const tokens = new TokenFile(file, createLogger({ write: (l) => lines.push(JSON.parse(l) as Record<string, any>) }));
  expect(lines).toEqual([]);

  // replaced while the server runs (cp + chmod + mv) by a world-writable copy
  const next = join(dir, 'tokens.new');
  writeFileSync(next, `${alice.line}\n`);
  chmodSync(next, 0o666);
  renameSync(next, file);
  expect(tokens.reload()).toBe(true);
  const writable = {
    level: 'error',
    event: 'tokens_file_mode',
    file,
    mode: '0666',
    note: `writable by other users: anyone on this host who can write it can add a token with every scope; run chmod 600 ${file}`,
  };
  expect(lines).toEqual([expect.objectContaining(writable), expect.objectContaining({ event: 'tokens_reloaded', entries: 1 })]);

  // group-readable only: the milder warning
  chmodSync(file, 0o640);
  tokens.reload();
  expect(lines.at(-2)).toMatchObject({ level: 'warn', event: 'tokens_file_mode', mode: '0640', note: `other users can read it; run chmod 600 ${file}` });
  // back to 0600: nothing more
  chmodSync(file, 0o600);
  const before = lines.length;
  tokens.reload();
  expect(lines.slice(before).map((l) => l.event)).toEqual(['tokens_reloaded']);

  // at start, a world-writable file gets the same error
  const startLines: Array<Record<string, any>> = [];
  chmodSync(file, 0o666);
  new TokenFile(file, createLogger({ write: (l) => startLines.push(JSON.parse(l) as Record<string, any>) })).close();
  expect(startLines).toEqual([expect.objectContaining(writable)]);
  tokens.close();
});
