// Vitest global setup: every test (and every server a test spawns) gets a private, empty user cache folder, so that
// what the server caches by default (the index cache of several catalogs, src/server/core/index-cache.ts) never
// lands in the real ~/.cache nor leaks between runs. Removed after the run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'api-catalog-test-cache-'));
  process.env.XDG_CACHE_HOME = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
