// The search-index snapshot file next to a registry (registry/<name>/search.snapshot): a versioned header tied
// to the registry's content hash, and a checksummed payload whose bytes belong to src/search. This module only
// frames, verifies, reads and atomically writes the file; it never interprets the payload.
//
// Whether the registry is still what the snapshot was built from is decided the way git's index decides a file is
// unchanged: when every registry file has the size, modification time, change time and inode recorded at import
// (the stat signature, src/registry/files.ts), its content is not read again; otherwise (a fresh clone, a copy, an
// image unpacked on another machine, an edit) the content hash decides. The change time and inode are there
// because a normalised mtime (touch -d, cp -p, tar, reproducible images) hides a same-length edit from size and
// mtime alone. At 100k operations that skips reading and hashing ~560 MB on every start.
import { randomHex, sha256Hex } from '../crypto.js';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** File name of the snapshot inside a registry folder. */
export const SNAPSHOT_FILE = 'search.snapshot';
/** Version of the container format (magic, header, payload); a reader refuses any other. */
export const SNAPSHOT_FORMAT_VERSION = 1;
/** First 8 bytes of every snapshot file. */
const MAGIC = Buffer.from('APICSNAP', 'latin1');
/** Largest header accepted (it is a few hundred bytes of JSON). */
const MAX_HEADER_BYTES = 64 * 1024;

/** What the header records (JSON after the magic and a u32 length). */
export interface SnapshotHeader {
  formatVersion: number;
  /** sha256 (hex) of the registry content the index was built from (Catalog.contentHash). */
  registryHash: string;
  /** Catalog.statSignature() of the registry files when the snapshot was written; absent: always hash. */
  statSignature?: string;
  /** sha256 (hex) of the payload bytes. */
  payloadSha256: string;
  payloadBytes: number;
  /** Who wrote it, for people reading the file: e.g. `api-catalog 0.1.0`. */
  writer?: string;
}

/** Why a snapshot was not used; `missing` is the only reason that is not a warning. */
export type SnapshotRejection = 'missing' | 'not-a-snapshot' | 'version' | 'stale' | 'checksum' | 'truncated';

export type SnapshotRead =
  | { ok: true; payload: Uint8Array; header: SnapshotHeader }
  | { ok: false; reason: SnapshotRejection; message: string };

/** What a snapshot is tied to, and who wrote it. */
export interface SnapshotInfo {
  registryHash: string;
  statSignature?: string;
  writer?: string;
}

/**
 * The registry a snapshot is checked against. Functions are called only when needed: the stat signature first;
 * the content hash (which reads every file) only when the signatures differ or the snapshot has none.
 */
export interface SnapshotExpectation {
  registryHash: string | (() => string);
  statSignature?: () => string | undefined;
  /**
   * Stat signatures an earlier start already checked against a content hash (kept outside the registry, which
   * may be read-only or committed: a fresh clone or an installed package never has the stat signature the import
   * recorded, so without this every start hashes every file). A signature found here with the snapshot's registry
   * hash counts as unchanged; one that had to be hashed and matched is remembered.
   */
  verified?: VerifiedSignatures;
}

/** Where stat signatures checked against a content hash are remembered (src/server/core/index-cache.ts keeps them). */
export interface VerifiedSignatures {
  /** The registry hash that `statSignature` was verified to have, if any. */
  lookup(statSignature: string): string | undefined;
  remember(statSignature: string, registryHash: string): void;
}

/** Frames a payload: magic, u32 header length (little-endian), header JSON, payload. */
export function encodeSnapshot(payload: Uint8Array, info: SnapshotInfo): Uint8Array {
  const header: SnapshotHeader = {
    formatVersion: SNAPSHOT_FORMAT_VERSION,
    registryHash: info.registryHash,
    ...(info.statSignature !== undefined ? { statSignature: info.statSignature } : {}),
    payloadSha256: sha256Hex(payload),
    payloadBytes: payload.byteLength,
    ...(info.writer !== undefined ? { writer: info.writer } : {}),
  };
  const text = JSON.stringify(header);
  // padded with spaces so that the payload starts 8-byte aligned: its typed arrays can then be read in place
  const pad = (8 - ((MAGIC.length + 4 + Buffer.byteLength(text, 'utf8')) % 8)) % 8;
  const json = Buffer.from(text + ' '.repeat(pad), 'utf8');
  const out = Buffer.alloc(MAGIC.length + 4 + json.length + payload.byteLength);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(json.length, MAGIC.length);
  json.copy(out, MAGIC.length + 4);
  out.set(payload, MAGIC.length + 4 + json.length);
  return out;
}

/**
 * Checks a snapshot's bytes against the registry it should belong to: magic, container version, registry hash
 * (a snapshot of other content is stale), length and payload checksum. Never throws; says why it refused.
 */
export function decodeSnapshot(bytes: Uint8Array, expect: SnapshotExpectation): SnapshotRead {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const refuse = (reason: SnapshotRejection, message: string): SnapshotRead => ({ ok: false, reason, message });
  if (buf.length < MAGIC.length + 4 || !buf.subarray(0, MAGIC.length).equals(MAGIC)) {
    return refuse('not-a-snapshot', 'not a search snapshot (wrong magic bytes)');
  }
  const headerBytes = buf.readUInt32LE(MAGIC.length);
  const start = MAGIC.length + 4;
  if (headerBytes > MAX_HEADER_BYTES || start + headerBytes > buf.length) return refuse('truncated', 'the header is cut short');
  let header: SnapshotHeader;
  try {
    header = JSON.parse(buf.subarray(start, start + headerBytes).toString('utf8')) as SnapshotHeader;
  } catch {
    return refuse('not-a-snapshot', 'the header is not JSON');
  }
  if (header.formatVersion !== SNAPSHOT_FORMAT_VERSION) {
    return refuse('version', `format version ${String(header.formatVersion)}, this build reads ${SNAPSHOT_FORMAT_VERSION}`);
  }
  const signature = header.statSignature !== undefined || expect.verified !== undefined ? expect.statSignature?.() : undefined;
  const unchanged = signature !== undefined && (signature === header.statSignature || expect.verified?.lookup(signature) === header.registryHash);
  if (!unchanged) {
    if (header.registryHash !== (typeof expect.registryHash === 'function' ? expect.registryHash() : expect.registryHash)) {
      return refuse('stale', 'built from other registry content (the catalog was re-imported or edited since)');
    }
    // the files as they are now hash to what the snapshot was built from: the next start need not hash them
    if (signature !== undefined) expect.verified?.remember(signature, header.registryHash);
  }
  const payload = buf.subarray(start + headerBytes);
  if (payload.length !== header.payloadBytes) {
    return refuse('truncated', `the payload has ${payload.length} bytes, the header says ${String(header.payloadBytes)}`);
  }
  if (sha256Hex(payload) !== header.payloadSha256) {
    return refuse('checksum', 'the payload does not match its sha256 (the file is damaged)');
  }
  return { ok: true, payload: new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength), header };
}

/** Reads and verifies `<dir>/search.snapshot`; a missing or unreadable file is a refusal, not an error. */
export function readSnapshot(dir: string, expect: SnapshotExpectation): SnapshotRead {
  return readSnapshotFile(join(dir, SNAPSHOT_FILE), expect);
}

/** Reads and verifies a snapshot file at any path (the index cache's set snapshots); missing is a refusal. */
export function readSnapshotFile(path: string, expect: SnapshotExpectation): SnapshotRead {
  if (!existsSync(path)) return { ok: false, reason: 'missing', message: `no ${path}` };
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    return { ok: false, reason: 'missing', message: `${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  return decodeSnapshot(bytes, expect);
}

/**
 * Writes `<dir>/search.snapshot` atomically: a temporary file in the same folder, then a rename, so a reader
 * sees the old file or the new one, never half of one.
 */
export function writeSnapshot(dir: string, payload: Uint8Array, info: SnapshotInfo): string {
  return writeSnapshotFile(join(dir, SNAPSHOT_FILE), payload, info);
}

/**
 * Writes a snapshot file at any path, atomically ({@link writeFileAtomic}). `mode` applies to a new file (default
 * 0644, as for a registry's own snapshot).
 */
export function writeSnapshotFile(path: string, payload: Uint8Array, info: SnapshotInfo, mode?: number): string {
  writeFileAtomic(path, encodeSnapshot(payload, info), mode);
  return path;
}

/**
 * The temporary file a write of `path` goes through, in the same folder: `<path>.<pid>-<random>.tmp`. Random as well
 * as the pid's, so writers on other machines or containers sharing the folder (each may be pid 1) never write into
 * one file. A cache folder's pruning recognizes the name (index-cache.ts).
 */
function tempPathFor(path: string): string {
  return `${path}.${process.pid}-${randomHex(6)}.tmp`;
}

/**
 * Writes `data` at `path` atomically: a temporary file ({@link tempPathFor}), then a rename, so a reader sees the old
 * file or the new one, never half of one, and of writers at once the last rename wins. The temporary file is gone
 * afterwards, whatever happened. `mode` applies to a new file. Throws on I/O errors.
 */
export function writeFileAtomic(path: string, data: Uint8Array | string, mode?: number): void {
  const tmp = tempPathFor(path);
  try {
    writeFileSync(tmp, data, mode === undefined ? undefined : { mode });
    renameSync(tmp, path);
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** {@link writeFileAtomic} without blocking the thread (fs.promises). Rejects on I/O errors. */
export async function writeFileAtomicAsync(path: string, data: Uint8Array | string, mode?: number): Promise<void> {
  const tmp = tempPathFor(path);
  try {
    await writeFile(tmp, data, mode === undefined ? undefined : { mode });
    await rename(tmp, path);
  } finally {
    await rm(tmp, { force: true });
  }
}
