// An append-only line file rotated to <file>.1 at a size, shared by the search log and the audit log: synchronous
// appends (nothing queued to lose at exit), a rename by another process (a replica, logrotate) followed by inode.
import { closeSync, fchmodSync, fstatSync, openSync, renameSync, statSync, writeSync } from 'node:fs';

export interface RotatingFileOptions {
  maxBytes: number;
  /** Force mode 0600 on an existing file too (openSync's mode applies only to a new one). */
  ownerOnly?: boolean;
  /** Told of the first failed write only; appends go on (and fail quietly) after it. */
  onFirstFailure: (err: unknown) => void;
}

export class RotatingFile {
  private fd: number | undefined;
  private size = 0;
  private warned = false;

  /** Opens `file` for appending now; throws (with the fs error's code) when it cannot. */
  constructor(
    readonly file: string,
    private readonly options: RotatingFileOptions,
  ) {
    this.open();
  }

  private open(): void {
    this.fd = openSync(this.file, 'a', 0o600);
    if (this.options.ownerOnly === true) fchmodSync(this.fd, 0o600);
    this.size = fstatSync(this.fd).size;
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

  append(text: string): void {
    const bytes = Buffer.byteLength(text);
    try {
      // Another process may have rotated it: follow the name.
      if (this.fd !== undefined) {
        let current: number | undefined;
        try {
          current = statSync(this.file).ino;
        } catch {
          current = undefined;
        }
        if (current !== fstatSync(this.fd).ino) this.close();
      }
      if (this.fd === undefined) this.open();
      if (this.size > 0 && this.size + bytes > this.options.maxBytes) {
        this.close();
        renameSync(this.file, `${this.file}.1`);
        this.open();
      }
      writeSync(this.fd as number, text);
      this.size += bytes;
    } catch (err) {
      this.close();
      if (!this.warned) {
        this.warned = true;
        this.options.onFirstFailure(err);
      }
    }
  }
}
