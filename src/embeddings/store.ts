// Operation vectors on disk: registry/<catalog>/embeddings.json (model, dimensions, fingerprint of the texts
// embedded) beside embeddings.bin (unit vectors as float16, little-endian, rows in the manifest's name order).
// Also owns the text embedded per operation. Deterministic bytes; knows nothing of HTTP, search or MCP.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError } from '../errors.js';
import type { Operation } from '../types.js';

export const MANIFEST_FILE = 'embeddings.json';
export const VECTORS_FILE = 'embeddings.bin';
/** Bump when operationText changes: every stored vector then counts as stale. */
export const TEXT_RECIPE = 1;

export interface EmbeddingsManifest {
  formatVersion: 1;
  /** The model name as configured when the vectors were made (what a query must be embedded with). */
  model: string;
  /** The model name the endpoint reported, when it differs (Azure reports the base model, not the deployment). */
  endpointModel?: string;
  dimensions: number;
  /** The `dimensions` requested from the endpoint, when one was. */
  requestedDimensions?: number;
  encoding: 'float16';
  textRecipe: number;
  /** sha256 over every (name, text) pair: differs as soon as one operation's embedded text does. */
  textFingerprint: string;
  /** sha256 of embeddings.bin, so a torn or swapped file is detected. */
  vectorsSha256: string;
  /** Rows of embeddings.bin in order, each with a short hash of its text (lets `embed` reuse unchanged rows). */
  operations: Array<{ name: string; hash: string }>;
}

const HEAD_CHARS = 300;

/** The first sentences of a description, at most ~300 characters, cut at a word. */
function head(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= HEAD_CHARS) return flat;
  const cut = flat.slice(0, HEAD_CHARS);
  const stop = Math.max(cut.lastIndexOf('. '), cut.lastIndexOf('? '), cut.lastIndexOf('! '));
  if (stop > 80) return cut.slice(0, stop + 1);
  return cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : HEAD_CHARS) + '…';
}

/** camelCase, snake_case, kebab-case and dots as words: `issues/list-for-repo` -> `issues list for repo`. */
function words(identifier: string): string {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[._/{}-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/**
 * The text embedded for one operation (recipe 1): the summary first (what it does, in the API's words), the
 * name and operationId as words, the head of the description, then method, path and domain. Request and
 * response schemas are left out: they add tokens, not meaning, and drift between releases.
 */
export function operationText(op: Operation): string {
  const lines: string[] = [];
  if (op.summary.trim() !== '') lines.push(op.summary.trim());
  const nameWords = words(op.name);
  const idWords = words(op.operationId);
  lines.push(idWords !== nameWords && !op.operationIdSynthesized ? `${nameWords} (${idWords})` : nameWords);
  const desc = head(op.description);
  if (desc !== '' && desc !== op.summary.trim()) lines.push(desc);
  lines.push(`${op.method.toUpperCase()} ${op.path}`);
  lines.push(`domain: ${op.domain}${op.tags.length > 0 && op.tags.join(', ') !== op.domain ? `; tags: ${op.tags.join(', ')}` : ''}`);
  return lines.join('\n');
}

function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** Short per-operation text hash kept in the manifest. */
export function textHash(text: string): string {
  return sha256(text).slice(0, 16);
}

/** Operations sorted by name with their texts and the fingerprint over all of them. */
export function operationTexts(operations: readonly Operation[]): { names: string[]; texts: string[]; fingerprint: string } {
  const sorted = [...operations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const names = sorted.map((o) => o.name);
  const texts = sorted.map(operationText);
  const h = createHash('sha256').update(`recipe ${TEXT_RECIPE}\n`);
  for (let i = 0; i < names.length; i++) h.update(`${names[i]}\0${texts[i]}\0`);
  return { names, texts, fingerprint: h.digest('hex') };
}

// ---- float16 ---------------------------------------------------------------------------------------------

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

/** IEEE 754 binary16 bits of `x`, rounded to nearest (ties to even). */
export function toHalf(x: number): number {
  f32[0] = x;
  const bits = u32[0] as number;
  const sign = (bits >>> 16) & 0x8000;
  const exp = ((bits >>> 23) & 0xff) - 127 + 15;
  let mant = bits & 0x7fffff;
  if (((bits >>> 23) & 0xff) === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  if (exp >= 31) return sign | 0x7c00;
  if (exp <= 0) {
    if (exp < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - exp;
    const half = 1 << (shift - 1);
    let h = mant >>> shift;
    const rest = mant & ((1 << shift) - 1);
    if (rest > half || (rest === half && (h & 1))) h++;
    return sign | h;
  }
  let h = sign | (exp << 10) | (mant >>> 13);
  const rest = mant & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (h & 1))) h++;
  return h;
}

let halfTable: Float32Array | undefined;
function fromHalfTable(): Float32Array {
  if (halfTable) return halfTable;
  halfTable = new Float32Array(65536);
  for (let h = 0; h < 65536; h++) {
    const s = h & 0x8000 ? -1 : 1;
    const e = (h >> 10) & 0x1f;
    const m = h & 0x3ff;
    halfTable[h] = e === 0 ? s * m * 2 ** -24 : e === 31 ? (m ? NaN : s * Infinity) : s * (1 + m / 1024) * 2 ** (e - 15);
  }
  return halfTable;
}

/** Unit-length copy of `v`. */
export function normalize(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += (v[i] as number) ** 2;
  const s = n > 0 ? 1 / Math.sqrt(n) : 0;
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = (v[i] as number) * s;
  return out;
}

/** Rows (normalized here) as float16 little-endian bytes. */
export function encodeVectors(rows: readonly Float32Array[], dims: number): Buffer {
  const buf = Buffer.alloc(rows.length * dims * 2);
  let at = 0;
  for (const row of rows) {
    if (row.length !== dims) throw new AppError('INTERNAL', `embeddings: a vector has ${row.length} dimensions, expected ${dims}`);
    const unit = normalize(row);
    for (let i = 0; i < dims; i++, at += 2) buf.writeUInt16LE(toHalf(unit[i] as number), at);
  }
  return buf;
}

/** float16 little-endian bytes as one Float32Array of `count * dims`. */
export function decodeVectors(buf: Uint8Array, count: number, dims: number): Float32Array {
  const table = fromHalfTable();
  const out = new Float32Array(count * dims);
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = table[view.getUint16(i * 2, true)] as number;
  return out;
}

// ---- files -----------------------------------------------------------------------------------------------

export interface StoredVectors {
  manifest: EmbeddingsManifest;
  /** Rows in manifest order, `dimensions` floats each. */
  matrix: Float32Array;
}

function writeAtomic(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.tmp-${process.pid}`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (cause) {
    rmSync(tmp, { force: true });
    throw new AppError('INTERNAL', `embeddings: cannot write ${path} (${(cause as Error).message}); check permissions`, { cause });
  }
}

/** Writes embeddings.bin, then embeddings.json (which names the bin's hash, so a half-written pair is detected). */
export function writeEmbeddings(
  dir: string,
  info: { model: string; endpointModel?: string; requestedDimensions?: number; names: string[]; texts: string[]; fingerprint: string },
  vectors: readonly Float32Array[],
): EmbeddingsManifest {
  const dims = vectors[0]?.length ?? 0;
  if (vectors.length !== info.names.length) throw new AppError('INTERNAL', `embeddings: ${vectors.length} vectors for ${info.names.length} operations`);
  const bin = encodeVectors(vectors, dims);
  const manifest: EmbeddingsManifest = {
    formatVersion: 1,
    model: info.model,
    ...(info.endpointModel !== undefined && info.endpointModel !== info.model ? { endpointModel: info.endpointModel } : {}),
    dimensions: dims,
    ...(info.requestedDimensions !== undefined ? { requestedDimensions: info.requestedDimensions } : {}),
    encoding: 'float16',
    textRecipe: TEXT_RECIPE,
    textFingerprint: info.fingerprint,
    vectorsSha256: sha256(bin),
    operations: info.names.map((name, i) => ({ name, hash: textHash(info.texts[i] as string) })),
  };
  writeAtomic(join(dir, VECTORS_FILE), bin);
  writeAtomic(join(dir, MANIFEST_FILE), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

/** The manifest, or undefined when the registry has none. Throws REGISTRY_INVALID for a damaged one. */
export function readManifest(dir: string): EmbeddingsManifest | undefined {
  const path = join(dir, MANIFEST_FILE);
  if (!existsSync(path)) return undefined;
  let m: EmbeddingsManifest;
  try {
    m = JSON.parse(readFileSync(path, 'utf8')) as EmbeddingsManifest;
  } catch (cause) {
    throw new AppError('REGISTRY_INVALID', `embeddings: ${path} is not valid JSON; run \`api-catalog embed --registry ${dir}\``, { cause });
  }
  if (
    m?.formatVersion !== 1 || typeof m.model !== 'string' || !Number.isInteger(m.dimensions) || m.dimensions < 1 ||
    m.encoding !== 'float16' || !Array.isArray(m.operations) || typeof m.textFingerprint !== 'string'
  ) {
    throw new AppError('REGISTRY_INVALID', `embeddings: ${path} is not an embeddings manifest this build reads; run \`api-catalog embed --registry ${dir}\``);
  }
  return m;
}

/** The manifest and its vectors; REGISTRY_INVALID when the bin is missing, the wrong size or not the one named. */
export function readEmbeddings(dir: string): StoredVectors | undefined {
  const manifest = readManifest(dir);
  if (!manifest) return undefined;
  const path = join(dir, VECTORS_FILE);
  const fix = `run \`api-catalog embed --registry ${dir}\``;
  if (!existsSync(path)) throw new AppError('REGISTRY_INVALID', `embeddings: ${path} is missing; ${fix}`);
  const buf = readFileSync(path);
  if (buf.length !== manifest.operations.length * manifest.dimensions * 2 || sha256(buf) !== manifest.vectorsSha256) {
    throw new AppError('REGISTRY_INVALID', `embeddings: ${path} does not match ${MANIFEST_FILE}; ${fix}`);
  }
  return { manifest, matrix: decodeVectors(buf, manifest.operations.length, manifest.dimensions) };
}

/** Removes a registry's vectors (when they could only mislead). */
export function removeEmbeddings(dir: string): void {
  rmSync(join(dir, MANIFEST_FILE), { force: true });
  rmSync(join(dir, VECTORS_FILE), { force: true });
}

/**
 * Why stored vectors cannot serve the configured model and size, or undefined when they can. `configured`
 * undefined: any model will do (only missing vectors and changed texts count), as in `--check` without an endpoint.
 */
export function mismatch(
  manifest: EmbeddingsManifest | undefined,
  fingerprint: string,
  configured: { model: string; dimensions?: number } | undefined,
): { reason: 'missing' | 'model' | 'dimensions' | 'texts'; message: string } | undefined {
  if (!manifest) return { reason: 'missing', message: 'the registry has no operation vectors' };
  if (configured !== undefined && manifest.model !== configured.model) {
    return { reason: 'model', message: `the registry's vectors were made with model ${JSON.stringify(manifest.model)}, the configured model is ${JSON.stringify(configured.model)} (a model change means re-embedding)` };
  }
  if (configured?.dimensions !== undefined && configured.dimensions !== manifest.dimensions) {
    return { reason: 'dimensions', message: `the registry's vectors have ${manifest.dimensions} dimensions, the configured dimensions are ${configured.dimensions}` };
  }
  if (configured !== undefined && configured.dimensions === undefined && manifest.requestedDimensions !== undefined) {
    return { reason: 'dimensions', message: `the registry's vectors were made with ${manifest.requestedDimensions} dimensions requested; configure --embeddings-dimensions ${manifest.requestedDimensions} (or re-embed without it)` };
  }
  if (manifest.textFingerprint !== fingerprint || manifest.textRecipe !== TEXT_RECIPE) {
    return { reason: 'texts', message: 'the operations changed since their vectors were made (re-import or a new version of api-catalog)' };
  }
  return undefined;
}
