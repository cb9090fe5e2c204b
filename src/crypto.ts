// node:crypto, loaded on first use. Importing it costs about 4 ms (its cipher, key and webcrypto modules load
// with it), and a stdio start needs no hash or random id before its first tools/list answer: every module on
// the start-up path takes its hashes and ids from here. test/startup/bundle.test.ts keeps node:crypto off that path.
import { createRequire } from 'node:module';

type NodeCrypto = typeof import('node:crypto');
let loaded: NodeCrypto | undefined;

/** The node:crypto module (required on the first call). */
function nodeCrypto(): NodeCrypto {
  return (loaded ??= createRequire(import.meta.url)('node:crypto') as NodeCrypto);
}

/** A SHA-256 hash object, to feed several parts. */
export function createSha256(): import('node:crypto').Hash {
  return nodeCrypto().createHash('sha256');
}

/** The hex SHA-256 of `data`. */
export function sha256Hex(data: string | Uint8Array): string {
  return createSha256().update(data).digest('hex');
}

/** A version-4 UUID from the CSPRNG. */
export function randomUUID(): string {
  return nodeCrypto().randomUUID();
}

/** `n` random bytes from the CSPRNG, hex-encoded. */
export function randomHex(n: number): string {
  return nodeCrypto().randomBytes(n).toString('hex');
}

/** HMAC-SHA256 of `data` under `key` (raw bytes). */
export function hmacSha256(key: Uint8Array, data: string | Uint8Array): Buffer {
  return nodeCrypto().createHmac('sha256', key).update(data).digest();
}

/** `n` random bytes from the CSPRNG. */
export function randomBytes(n: number): Buffer {
  return nodeCrypto().randomBytes(n);
}

/** Equal-length buffers compared in constant time; different lengths are unequal. */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && nodeCrypto().timingSafeEqual(a, b);
}
