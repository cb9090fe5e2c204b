// The search snapshot's file container (src/registry/snapshot.ts): a snapshot is trusted only when its magic,
// format version, registry hash, length and payload checksum all hold; every refusal says why; writes are atomic.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  decodeSnapshot,
  encodeSnapshot,
  readSnapshot,
  SNAPSHOT_FILE,
  SNAPSHOT_FORMAT_VERSION,
  writeSnapshot,
} from '../../src/registry/snapshot.js';
import { tempDir } from '../helpers/temp.js';

const HASH = 'a'.repeat(64);
const payload = Uint8Array.from({ length: 4096 }, (_, i) => (i * 31) % 251);

/** The header's JSON region of an encoded snapshot, for tampering with one field. */
function withHeader(bytes: Uint8Array, edit: (h: Record<string, unknown>) => void): Uint8Array {
  const buf = Buffer.from(bytes);
  const len = buf.readUInt32LE(8);
  const header = JSON.parse(buf.subarray(12, 12 + len).toString('utf8')) as Record<string, unknown>;
  edit(header);
  const json = Buffer.from(JSON.stringify(header));
  const out = Buffer.alloc(12 + json.length + (buf.length - 12 - len));
  buf.copy(out, 0, 0, 8);
  out.writeUInt32LE(json.length, 8);
  json.copy(out, 12);
  buf.copy(out, 12 + json.length, 12 + len);
  return out;
}

describe('search snapshot file', () => {
  test('round trip: the payload comes back byte for byte with its header', () => {
    const r = decodeSnapshot(encodeSnapshot(payload, { registryHash: HASH, writer: 'test' }), { registryHash: HASH });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(Buffer.from(r.payload).equals(Buffer.from(payload))).toBe(true);
    expect(r.header).toMatchObject({ formatVersion: SNAPSHOT_FORMAT_VERSION, registryHash: HASH, payloadBytes: payload.length, writer: 'test' });
  });

  test('another format version is refused, not read', () => {
    const bytes = withHeader(encodeSnapshot(payload, { registryHash: HASH }), (h) => (h.formatVersion = SNAPSHOT_FORMAT_VERSION + 1));
    const r = decodeSnapshot(bytes, { registryHash: HASH });
    expect(r).toMatchObject({ ok: false, reason: 'version' });
    expect(!r.ok && r.message).toMatch(/format version 2, this build reads 1/);
  });

  test('a snapshot of other registry content is stale', () => {
    const r = decodeSnapshot(encodeSnapshot(payload, { registryHash: HASH }), { registryHash: 'b'.repeat(64) });
    expect(r).toMatchObject({ ok: false, reason: 'stale' });
  });

  test('one flipped payload byte fails the checksum', () => {
    const bytes = Buffer.from(encodeSnapshot(payload, { registryHash: HASH }));
    const at = bytes.length - 100;
    bytes.writeUInt8(bytes.readUInt8(at) ^ 0x01, at);
    expect(decodeSnapshot(bytes, { registryHash: HASH })).toMatchObject({ ok: false, reason: 'checksum' });
  });

  test('a cut file, a foreign file and an absurd header length are refused', () => {
    const bytes = encodeSnapshot(payload, { registryHash: HASH });
    expect(decodeSnapshot(bytes.subarray(0, bytes.length - 1), { registryHash: HASH })).toMatchObject({ ok: false, reason: 'truncated' });
    expect(decodeSnapshot(bytes.subarray(0, 20), { registryHash: HASH })).toMatchObject({ ok: false, reason: 'truncated' });
    expect(decodeSnapshot(Buffer.from('{"formatVersion":1}'), { registryHash: HASH })).toMatchObject({ ok: false, reason: 'not-a-snapshot' });
    const huge = Buffer.from(bytes);
    huge.writeUInt32LE(0xffffffff, 8);
    expect(decodeSnapshot(huge, { registryHash: HASH })).toMatchObject({ ok: false, reason: 'truncated' });
  });

  test('written atomically next to the registry (no temporary file left); a missing file is reported as missing', () => {
    const dir = tempDir('snapshot-file-');
    expect(readSnapshot(dir, { registryHash: HASH })).toMatchObject({ ok: false, reason: 'missing' });
    const path = writeSnapshot(dir, payload, { registryHash: HASH });
    expect(path).toBe(join(dir, SNAPSHOT_FILE));
    expect(readdirSync(dir)).toEqual([SNAPSHOT_FILE]);
    expect(readSnapshot(dir, { registryHash: HASH }).ok).toBe(true);
    // overwriting replaces the file whole
    writeSnapshot(dir, payload.subarray(0, 10), { registryHash: HASH });
    const again = readSnapshot(dir, { registryHash: HASH });
    expect(again.ok && again.payload.length).toBe(10);
    writeFileSync(join(dir, SNAPSHOT_FILE), readFileSync(join(dir, SNAPSHOT_FILE)).subarray(0, 30));
    expect(readSnapshot(dir, { registryHash: HASH })).toMatchObject({ ok: false, reason: 'truncated' });
  });

  test('verified stat signatures: a remembered one with the snapshot\'s hash skips hashing; a hashed match is remembered', () => {
    const bytes = encodeSnapshot(payload, { registryHash: HASH, statSignature: 'recorded-at-import' });
    const memory = new Map<string, string>();
    const verified = { lookup: (sig: string) => memory.get(sig), remember: (sig: string, hash: string) => void memory.set(sig, hash) };
    let hashed = 0;
    const hash = (value: string) => () => (hashed++, value);
    // another signature (a clone): hashed, matches, remembered
    expect(decodeSnapshot(bytes, { registryHash: hash(HASH), statSignature: () => 'clone', verified }).ok).toBe(true);
    expect([hashed, memory.get('clone')]).toEqual([1, HASH]);
    // the same signature again: not hashed
    expect(decodeSnapshot(bytes, { registryHash: hash(HASH), statSignature: () => 'clone', verified }).ok).toBe(true);
    expect(hashed).toBe(1);
    // a signature remembered with another registry hash does not vouch for this snapshot
    memory.set('other', 'b'.repeat(64));
    expect(decodeSnapshot(bytes, { registryHash: hash('c'.repeat(64)), statSignature: () => 'other', verified })).toMatchObject({ ok: false, reason: 'stale' });
    expect(hashed).toBe(2);
    // a stale snapshot remembers nothing
    expect(decodeSnapshot(bytes, { registryHash: hash('c'.repeat(64)), statSignature: () => 'edited', verified })).toMatchObject({ ok: false, reason: 'stale' });
    expect(memory.has('edited')).toBe(false);
  });
});
