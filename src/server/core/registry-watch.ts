// What on disk means a new version of a registry, for hot reload (reload.ts): the files a watch polls (catalog.json,
// which every import rewrites, and the stored vectors) and their identity, and a stamp of every file a copy writes,
// which a refused reload compares to know when to try again. Stat only: nothing here reads or parses a file.
import { readdirSync, statSync, unwatchFile, watchFile, type Stats } from 'node:fs';
import { join } from 'node:path';

/** The files whose change means a new version: catalog.json (every import rewrites it) and the stored vectors. */
const WATCHED_FILES = ['catalog.json', 'embeddings.json'];

/**
 * Polls the watched files of each of `dirs` every `intervalMs` (fs.watchFile, not inotify: an import replaces the
 * whole folder, and mounted volumes swap a symlink; a path stat'ed every interval sees both, where a watch on the old
 * inode would not) and calls `onChange` with a file's path when it changed. Returns the paths, for unwatchFiles.
 */
export function watchRegistryFiles(dirs: readonly string[], intervalMs: number, onChange: (path: string) => void): string[] {
  const paths: string[] = [];
  for (const dir of dirs) {
    for (const f of WATCHED_FILES) {
      const path = join(dir, f);
      // Compared with the stat this watcher last saw, not with the `prev` watchFile passes: after the file was
      // gone, libuv passes as `prev` the stat from before the removal, so a folder moved away and back (or a file
      // restored unchanged) would look unchanged, and the refusal its removal caused would stay forever.
      let seen: string | undefined;
      watchFile(path, { interval: intervalMs, persistent: false }, (curr: Stats, prev: Stats) => {
        const before = seen ?? statKey(prev);
        seen = statKey(curr);
        if (seen !== before) onChange(path);
      });
      paths.push(path);
    }
  }
  return paths;
}

/** Stops polling `paths` (watchRegistryFiles's). */
export function unwatchFiles(paths: readonly string[]): void {
  for (const path of paths) unwatchFile(path);
}

/** What identifies a version of a watched file; a missing one (watchFile zeroes every field) is 'gone'. */
function statKey(st: Stats): string {
  if (st.ino === 0 && st.mtimeMs === 0 && st.nlink === 0) return 'gone';
  return identity(st);
}

/** A file version's identity: inode, size, modification and change times. */
function identity(st: Stats): string {
  return `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
}

/** Every file of the registries at `dirs` that a copy writes (catalog.json, operations/*, ...) by identity: a change of any changes it. */
export function filesStamp(dirs: readonly string[]): string {
  const parts: string[] = [];
  for (const dir of dirs) {
    let ops: string[] = [];
    try {
      ops = readdirSync(join(dir, 'operations')).sort().map((f) => join('operations', f));
    } catch {
      // no operations folder (yet): catalog.json and the rest still say when it comes
    }
    for (const rel of [...WATCHED_FILES, 'search.snapshot', 'diagnostics.json', ...ops]) {
      // a file that cannot be read now (permissions, a stale NFS handle) is a state of its own, never a crash
      let st: Stats | undefined;
      let failed: string | undefined;
      try {
        st = statSync(join(dir, rel), { throwIfNoEntry: false });
      } catch (err) {
        failed = (err as NodeJS.ErrnoException).code ?? 'error';
      }
      parts.push(`${dir}/${rel} ${failed !== undefined ? `unreadable:${failed}` : st === undefined ? 'gone' : identity(st)}`);
    }
  }
  return parts.join('\n');
}
