// A registry's files, read consistently: each file's identity pinned (size, modification time, change time, inode)
// so a file that changed since the catalog was loaded is noticed, and the registry's content hash and stat signature.
//
// Why the change time (ctime) and the inode count, not only size and mtime: registries are often deployed with
// normalised modification times (SOURCE_DATE_EPOCH builds, Nix, Bazel/ko/jib images, `touch -d`, `cp -p`, tar), so an
// edit that keeps a file's length also keeps its (size, mtime). Nothing in user space can set a ctime (every write,
// utimes, chmod or rename sets it to now) and an edit through a new file (sed -i, a rename over it) changes the inode.
// The price: a copy or an image unpacked on another machine never matches a signature recorded elsewhere, so its
// content is hashed (for a registry's own snapshot once per machine, when an index cache folder remembers it).
import type { Hash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createSha256 } from '../crypto.js';

/** A file's identity when the catalog was loaded: size, modification time (ns), change time (ns) and inode. */
export interface Pinned {
  size: bigint;
  mtimeNs: bigint;
  ctimeNs: bigint;
  ino: bigint;
}

/** Whether `path` is still the file pinned as `want` (false when it is gone). */
export function sameFile(path: string, want: Pinned): boolean {
  try {
    return samePin(pin(statSync(path, { bigint: true })), want);
  } catch {
    return false;
  }
}

/** The operations files of a registry, in name order. */
export function operationFiles(abs: string): string[] {
  return readdirSync(join(abs, 'operations')).filter((f) => f.endsWith('.json')).sort();
}

/** Feeds one file into the registry hash: its relative path, length and bytes (so file boundaries count). */
function hashFile(hash: Hash, rel: string, bytes: Buffer): void {
  hash.update(`${rel}\0${bytes.length}\0`);
  hash.update(bytes);
}

/** The registry hash from catalog.json's bytes and the operations files read with `read`. */
export function hashFiles(metaBytes: Buffer, files: readonly string[], read: (file: string) => Buffer): string {
  const hash = createSha256();
  hashFile(hash, 'catalog.json', metaBytes);
  for (const f of files) hashFile(hash, `operations/${f}`, read(f));
  return hash.digest('hex');
}

/** The registry hash from catalog.json's bytes and the operations files as they are now. */
function hashRegistry(abs: string, metaBytes: Buffer): string {
  return hashFiles(metaBytes, operationFiles(abs), (f) => readFileSync(join(abs, 'operations', f)));
}

/**
 * Catalog.statSignature: each file's path, size, mtime, ctime (ns) and inode, in hash order. ctime and inode are
 * what `touch -d`, `cp -p` and tar cannot carry over (see the top of this file): with mtime alone, a same-length
 * edit under a normalised mtime kept a stale search index and catalog version.
 */
export function statSignatureOf(entries: ReadonlyArray<[string, Pinned]>): string {
  const hash = createSha256();
  for (const [rel, st] of entries) hash.update(`${rel}\0${st.size}\0${st.mtimeNs}\0${st.ctimeNs}\0${st.ino}\n`);
  return hash.digest('hex');
}

export function pin(st: { size: bigint; mtimeNs: bigint; ctimeNs: bigint; ino: bigint }): Pinned {
  return { size: st.size, mtimeNs: st.mtimeNs, ctimeNs: st.ctimeNs, ino: st.ino };
}

export function samePin(a: Pinned, b: Pinned): boolean {
  return a.size === b.size && a.mtimeNs === b.mtimeNs && a.ctimeNs === b.ctimeNs && a.ino === b.ino;
}

/** A file's bytes and its identity, both from one open file (a rename in between cannot mix two files). */
export function readWithStat(path: string): [Buffer, Pinned] {
  const fd = openSync(path, 'r');
  try {
    const st = pin(fstatSync(fd, { bigint: true }));
    return [readFileSync(fd), st];
  } finally {
    closeSync(fd);
  }
}

/**
 * sha256 (hex) of a registry's content: catalog.json, then operations/*.json in name order, each as path, length
 * and bytes. The same value as {@link Catalog.contentHash} of the loaded catalog, computed from the files alone.
 */
export function registryContentHash(dir: string): string {
  const abs = resolve(dir);
  return hashRegistry(abs, readFileSync(join(abs, 'catalog.json')));
}
