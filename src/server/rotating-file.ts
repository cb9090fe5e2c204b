// An append-only line file rotated to <file>.1 at a size, shared by the search log and the audit log: synchronous
// appends (nothing queued to lose at exit), whole lines only, and safe for several processes appending to one file
// (replicas on a shared volume) and for a rename by another process (logrotate).
//
// - Whole lines: a record is one write of the whole line (O_APPEND: another process's record never lands inside
//   it), and the byte count is checked. A write that fails or is cut short (a full disk) loses that record, which is
//   counted (`lost`) and reported once per run of failures; a record always starts on a new line, so a torn one stays
//   alone on its line and the records after it parse. The first write that works again says so (`onRecovered`).
// - Rotation across processes: the size is the file's own (fstat), not what this process wrote; a process whose
//   file was renamed away (by a replica, by logrotate) reopens the name before writing; and only the process that
//   creates `<file>.lock` (exclusively) renames, after checking again that the file at the name is still over the
//   size. Two replicas thus never both rotate one overflow: before, the second renamed the fresh file over the full
//   generation and went on writing into the unlinked one, losing the newest records. Now at worst a record lands in
//   `<file>.1` just after a rotation, or the file passes the size by a few records while another process rotates.
import { closeSync, fchmodSync, fstatSync, openSync, readSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';

export interface RotatingFileOptions {
  maxBytes: number;
  /** Force mode 0600 on an existing file too (openSync's mode applies only to a new one). */
  ownerOnly?: boolean;
  /** Told of the first failed write of a run of failures; the ones after it are only counted until a write works. */
  onFirstFailure: (err: unknown) => void;
  /** Told of the first write that works after failures, with the number of records lost in between. */
  onRecovered?: (lost: number) => void;
}

/** A rotation lock older than this was left by a process that died while rotating (a few syscalls): removed. */
const STALE_LOCK_MS = 10_000;
const NEWLINE = Buffer.from('\n');

export class RotatingFile {
  private fd: number | undefined;
  /** Whether the fd may be read (the last-byte check); false when only 'a' could open it. */
  private readable = false;
  /** A write failed since the last one that worked. */
  private failing = false;
  private lostInRun = 0;

  /** Opens `file` for appending now; throws (with the fs error's code) when it cannot. */
  constructor(
    readonly file: string,
    private readonly options: RotatingFileOptions,
  ) {
    this.open();
  }

  private open(): void {
    try {
      // read access for the last-byte check (does the file end in a newline?)
      this.fd = openSync(this.file, 'a+', 0o600);
      this.readable = true;
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'EACCES') throw err;
      // a file we may append to but not read (an operator's choice): appends still work, the check is skipped
      this.fd = openSync(this.file, 'a', 0o600);
      this.readable = false;
    }
    if (this.options.ownerOnly === true) fchmodSync(this.fd, 0o600);
  }

  close(): void {
    if (this.fd === undefined) return;
    try {
      closeSync(this.fd);
    } catch {
      /* already closed */
    }
    this.fd = undefined;
  }

  /** Appends one record (a line ending in \n); true when it was written whole. Never throws. */
  append(text: string): boolean {
    try {
      this.follow();
      if (this.fd === undefined) this.open();
      let record = Buffer.from(text);
      let size = fstatSync(this.fd as number).size;
      if (size > 0 && size + record.length > this.options.maxBytes && this.rotate(record.length)) {
        size = fstatSync(this.fd as number).size;
      }
      if (size > 0 && !this.endsWithNewline(size)) record = Buffer.concat([NEWLINE, record]);
      this.writeWhole(record);
    } catch (err) {
      this.close();
      this.lostInRun++;
      if (!this.failing) {
        this.failing = true;
        this.options.onFirstFailure(err);
      }
      return false;
    }
    if (this.failing) {
      this.failing = false;
      const lost = this.lostInRun;
      this.lostInRun = 0;
      this.options.onRecovered?.(lost);
    }
    return true;
  }

  /** Closes the fd when the name no longer leads to its file (renamed away by a replica or logrotate, removed). */
  private follow(): void {
    if (this.fd === undefined) return;
    const atName = statSync(this.file, { throwIfNoEntry: false });
    const open = fstatSync(this.fd);
    if (atName === undefined || atName.ino !== open.ino || atName.dev !== open.dev) this.close();
  }

  /**
   * Renames the file to <file>.1 if this process gets the rotation lock and the file at the name is still over the
   * size; then (re)opens the name. False when another process holds the lock (this record goes into the file as it
   * is, a little over the size). Errors other than a held lock throw (the record is counted as lost).
   */
  private rotate(bytes: number): boolean {
    const lock = `${this.file}.lock`;
    let lockFd: number;
    try {
      lockFd = openSync(lock, 'wx', 0o600);
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) unlinkSync(lock);
      } catch {
        // gone meanwhile: the other process finished
      }
      return false;
    }
    try {
      closeSync(lockFd);
      // Looked at again under the lock: another process may have rotated since this one read the size.
      const atName = statSync(this.file, { throwIfNoEntry: false });
      if (atName !== undefined && atName.size > 0 && atName.size + bytes > this.options.maxBytes) renameSync(this.file, `${this.file}.1`);
    } finally {
      try {
        unlinkSync(lock);
      } catch {
        // removed as stale by another process: nothing to release
      }
    }
    this.close();
    this.open();
    return true;
  }

  /** Whether the file's last byte is a newline (a torn record, this process's or another's, does not end in one). */
  private endsWithNewline(size: number): boolean {
    if (!this.readable) return true;
    const last = Buffer.alloc(1);
    try {
      return readSync(this.fd as number, last, 0, 1, size - 1) === 1 ? last[0] === 0x0a : true;
    } catch {
      return true;
    }
  }

  /**
   * One write of the whole record; the rest again if the system wrote only part of it. Throws when a write fails
   * or makes no progress (the part already written is then a torn line, cut off by the next record's newline).
   */
  private writeWhole(record: Buffer): void {
    let done = 0;
    while (done < record.length) {
      const n = writeSync(this.fd as number, record, done, record.length - done);
      if (n <= 0) throw Object.assign(new Error(`wrote ${done} of ${record.length} bytes`), { code: 'EIO' });
      done += n;
    }
  }
}
