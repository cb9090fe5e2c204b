// Where a command writes, checked before the work: `import --out <dir>`, the registry folder (checked, and made
// before anything is imported), and the file of `eval --save` / `suggest-overlay --out`, so that a path the command
// cannot write into fails at once, naming the path and why, instead of after the run.
//
// Never `mkdirSync(path, { recursive: true })` on a path the user gave: Node's recursive mkdir steps back to the
// parent on ENOENT and forward again on EEXIST, and a folder that exists but answers ENOENT for any new child
// (procfs: `--out /proc/nope`) makes that loop forever inside one synchronous call, at 100% CPU, where no timer
// (`--timeout`) can fire. Here one probe folder is made and removed (not recursively) in the nearest folder of the
// path that exists, so such a file system fails before the import with its own error, and the missing folders are
// made one level at a time once there is something to write (a failed import leaves no folder behind).
import { closeSync, constants, lstatSync, mkdirSync, openSync, rmdirSync, statSync, unlinkSync, writeFileSync, type Stats } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { AppError } from '../errors.js';
import { UsageError } from './args.js';
import { shellWord } from './shell.js';

/** What an errno means for a place a command wants to write into. */
function reason(err: unknown, made: 'folders' | 'files' = 'folders'): string {
  const e = err as NodeJS.ErrnoException;
  switch (e.code) {
    case 'ENOENT':
      return `the file system there does not allow new ${made} (ENOENT)`;
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${e.code})`;
    case 'EROFS':
      return 'read-only file system (EROFS)';
    case 'ENOSPC':
      return 'no space left on the device (ENOSPC)';
    case 'ENXIO':
      return 'a named pipe (or device) that nobody is reading from (ENXIO)';
    case 'ENOTDIR':
      return 'a part of the path is a file, not a directory (ENOTDIR)';
    default:
      return e.code !== undefined ? `${e.code}: ${e.message.replace(/^\w+: /, '')}` : String(err);
  }
}

function stat(path: string, follow: boolean): Stats | undefined {
  try {
    return follow ? statSync(path) : lstatSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new AppError('CONFIG_INVALID', `import: cannot use --out ${path}: ${reason(err)}`, { cause: err });
  }
}

/**
 * Checks `--out` before an import, writing nothing: a path that names a file (or lies below one) is a command-line
 * mistake (UsageError, exit 2); unless `check`, one probe folder is made and removed, not recursively, in the
 * nearest folder of the path that exists, so that a place no folder can be made in (procfs, a read-only or
 * foreign folder) fails now (AppError, exit 1) with the path and the reason. Returns the function that makes the
 * missing folders of the path, one level at a time, for when there is something to write.
 */
export function prepareOutDir(out: string, options: { check?: boolean } = {}): () => void {
  const abs = resolve(out);
  const here = stat(abs, true);
  if (here !== undefined && !here.isDirectory()) throw new UsageError(`import: --out names a file, not a directory: ${out}`);
  // the nearest part of the path that exists, and the folders to make below it
  const missing: string[] = [];
  let existing = abs;
  if (here === undefined) {
    while (stat(existing, false) === undefined && dirname(existing) !== existing) {
      missing.unshift(existing);
      existing = dirname(existing);
    }
    const base = stat(existing, true);
    if (base === undefined) throw new AppError('CONFIG_INVALID', `import: cannot use --out ${out}: ${existing} is a symbolic link to nothing`);
    if (!base.isDirectory()) throw new UsageError(`import: --out ${out} is below a file, not a directory: ${existing}`);
  }
  const make = (): void => {
    for (const dir of missing) {
      try {
        mkdirSync(dir);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST' && stat(dir, true)?.isDirectory()) continue;
        throw new AppError('CONFIG_INVALID', `import: cannot create the --out folder ${out}: ${reason(err)}${dir === abs ? '' : ` (at ${dir})`}`, { cause: err });
      }
    }
  };
  if (options.check) return make;
  const probe = join(existing, `.api-catalog-probe-${process.pid}`);
  try {
    mkdirSync(probe);
  } catch (err) {
    throw new AppError('CONFIG_INVALID', `import: cannot ${missing.length > 0 ? 'create' : 'write into'} the --out folder ${out}: ${reason(err)}`, { cause: err });
  }
  rmdirSync(probe);
  return make;
}

/**
 * Checks before any work that a command can write the file `path` names (`eval --save`, `suggest-overlay --out`),
 * so that a bad path fails at once instead of after the whole run. A value the flag cannot take (a folder that does
 * not exist, a path that is a folder or lies below a file) is a mistake on the command line (UsageError, exit 2); a
 * place that refuses the write (permissions, a read-only file system, procfs or sysfs) is an AppError (exit 1). Both
 * say `<command>: cannot write <path> (<flag>): <why>`. The check opens the file as the write will (`access()` is
 * not enough: root passes it everywhere): an existing file is opened for writing without truncating it, a new one is
 * made (`wx`) and removed again, so nothing is left changed.
 */
export function checkWritableFile(command: string, flag: string, path: string): void {
  const head = `${command}: cannot write ${path} (${flag})`;
  const stat = (p: string): Stats | undefined => {
    try {
      return statSync(p);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      throw new AppError('CONFIG_INVALID', `${head}: ${reason(err, 'files')}`, { cause: err });
    }
  };
  const probe = (p: string, flags: string | number, remove: boolean): void => {
    let fd: number;
    try {
      fd = openSync(p, flags, 0o600);
    } catch (err) {
      throw new AppError('CONFIG_INVALID', `${head}: ${reason(err, 'files')}`, { cause: err });
    }
    closeSync(fd);
    if (remove) unlinkSync(p);
  };
  const abs = resolve(path);
  const here = stat(abs);
  if (here?.isDirectory()) throw new UsageError(`${head}: it is a folder; give a file name in it`);
  // opened for writing as it is: no O_CREAT, no O_TRUNC; O_NONBLOCK, or a named pipe with no reader blocks forever
  if (here !== undefined) return probe(abs, constants.O_WRONLY | constants.O_NONBLOCK, false);
  if (lstatSync(abs, { throwIfNoEntry: false })?.isSymbolicLink()) {
    throw new UsageError(`${head}: it is a symbolic link to a file that does not exist; give the link's target or another path`);
  }
  const folder = dirname(path);
  const there = stat(dirname(abs));
  if (there === undefined) throw new UsageError(`${head}: the folder ${folder} does not exist; create it first (mkdir -p ${shellWord(folder)}) or give another path`);
  if (!there.isDirectory()) throw new UsageError(`${head}: ${folder} is a file, not a folder`);
  probe(abs, 'wx', true);
}

/**
 * Writes the file of `eval --save` / `suggest-overlay --out` after the run. The early check cannot see everything
 * (a disk that fills up during the run, a folder removed meanwhile): a failed write says
 * `<command>: cannot write <path> (<flag>): <why>` (AppError, exit 1), as the early check does.
 */
export function writeCheckedFile(command: string, flag: string, path: string, text: string): void {
  try {
    writeFileSync(path, text);
  } catch (err) {
    throw new AppError('CONFIG_INVALID', `${command}: cannot write ${path} (${flag}): ${reason(err, 'files')}`, { cause: err });
  }
}
