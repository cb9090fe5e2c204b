// What a reload must survive beyond a broken registry (second read of stop 45): a registry file that cannot even be
// stat'ed (a path under a file, a stale NFS handle) is a state of its own, not an exception out of a timer; and an
// index worker that never answers is stopped after its timeout, so later reloads do not wait behind it forever.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { runIndexWorker } from '../../src/server/core/index-thread.js';
import { filesStamp } from '../../src/server/core/registry-watch.js';
import { tempDir } from '../helpers/temp.js';

const dir = tempDir('robust-watch-');

test('a registry path that cannot be stat-ed (ENOTDIR) reads as unreadable, not a thrown error', () => {
  const notADir = join(dir, 'plain-file');
  writeFileSync(notADir, 'x');
  const stamp = filesStamp([notADir]);
  expect(stamp).toContain(`${notADir}/catalog.json unreadable:ENOTDIR`);
  // and it changes when the path becomes readable, so a retry sees the difference
  expect(filesStamp([dir])).not.toBe(stamp);
});

test('an index worker that never answers is stopped after its timeout, and the reload is told why', async () => {
  const hanging = join(dir, 'hanging-worker.mjs');
  writeFileSync(hanging, 'setInterval(() => {}, 1000);\n');
  await expect(runIndexWorker(pathToFileURL(hanging), {} as never, 300)).rejects.toThrow('the index worker did not answer within 300 ms');
});
