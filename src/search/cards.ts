// What the index keeps of each operation besides its features: the fields a search answer shows (name, domain,
// summary, required parameters) and those exact-name matching reads (operationId, method, path), plus a hashed
// table of the exact-match keys. All of it is bytes and offsets: a snapshot restores the cards without decoding
// them (a field is decoded when an answer shows it), so a search never needs the operations themselves (their
// schemas are read only when describe or execute asks) and a 100k-operation catalog opens without building a
// 300k-entry map.
import type { Operation } from '../types.js';
import { BoundedMap } from './bounded-map.js';
import { pathKey } from './features.js';

/** One document's card. */
export interface DocCard {
  name: string;
  operationId: string;
  method: string;
  path: string;
  domain: string;
  summary: string;
  requiredParams: string[];
}

/** How many decoded cards {@link DocCards.at} keeps. */
const DECODED_CARDS = 2048;

/** Fields per document, in storage order. */
const FIELDS = 7;
const NAME = 0;
const OPERATION_ID = 1;
const METHOD = 2;
const PATH = 3;
const DOMAIN = 4;
const SUMMARY = 5;
const REQUIRED = 6;
/** Separates required parameter names inside their field (a name cannot contain NUL). */
const SEP = '\u0000';

/** The stored form: UTF-8 bytes, byte offsets, and the exact-match table sorted by (key hash, document). */
export interface CardParts {
  bytes: Uint8Array;
  /** `starts[i * 7 + f]`: where field f of document i begins in `bytes`; one extra end offset. */
  starts: Uint32Array;
  exactHash: Uint32Array;
  exactDoc: Uint32Array;
}

/** 32-bit FNV-1a over UTF-16 code units: the exact-match table's key hash (stored, so fixed forever). */
export function keyHash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The first index of `h` in ascending `hashes` (where it would go when absent): a table sorted by key hash. */
export function firstOfHash(hashes: Uint32Array, h: number): number {
  let lo = 0;
  let hi = hashes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((hashes[mid] as number) < h) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The cards of all documents, in document (name) order. */
export class DocCards {
  private readonly text: Buffer;
  private readonly decoded = new BoundedMap<number, DocCard>(DECODED_CARDS);

  private constructor(private readonly parts: CardParts) {
    this.text = Buffer.from(parts.bytes.buffer, parts.bytes.byteOffset, parts.bytes.byteLength);
  }

  /** Cards of operations already in document order. */
  static fromOperations(docs: readonly Operation[]): DocCards {
    const fields: string[] = [];
    const starts = new Uint32Array(docs.length * FIELDS + 1);
    const keys: Array<[number, number]> = [];
    let at = 0;
    let k = 0;
    docs.forEach((op, i) => {
      for (const field of [op.name, op.operationId, op.method, op.path, op.domain, op.summary, (op.inputSchema.required ?? []).join(SEP)]) {
        starts[k++] = at;
        fields.push(field);
        at += Buffer.byteLength(field, 'utf8');
      }
      for (const key of new Set(exactKeys(op.name, op.operationId, op.method, op.path))) keys.push([keyHash(key), i]);
    });
    starts[k] = at;
    keys.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    return new DocCards({
      bytes: Buffer.from(fields.join(''), 'utf8'),
      starts,
      exactHash: Uint32Array.from(keys, (e) => e[0]),
      exactDoc: Uint32Array.from(keys, (e) => e[1]),
    });
  }

  /** Cards restored from {@link parts}; undefined when they do not fit together (a damaged snapshot). */
  static restore(parts: CardParts, count: number): DocCards | undefined {
    const { bytes, starts, exactHash, exactDoc } = parts;
    if (starts.length !== count * FIELDS + 1 || starts[starts.length - 1] !== bytes.length) return undefined;
    for (let k = 1; k < starts.length; k++) if ((starts[k] as number) < (starts[k - 1] as number)) return undefined;
    if (exactHash.length !== exactDoc.length) return undefined;
    for (let k = 0; k < exactDoc.length; k++) {
      if ((exactDoc[k] as number) >= count || (k > 0 && (exactHash[k] as number) < (exactHash[k - 1] as number))) return undefined;
    }
    return new DocCards(parts);
  }

  /** What a snapshot stores. */
  encode(): CardParts {
    return this.parts;
  }

  /** Whether both hold the same cards (a snapshot restored for other operations does not). */
  equals(other: DocCards): boolean {
    const a = this.parts;
    const b = other.parts;
    return same(a.bytes, b.bytes) && same(a.starts, b.starts) && same(a.exactHash, b.exactHash) && same(a.exactDoc, b.exactDoc);
  }

  get length(): number {
    return (this.parts.starts.length - 1) / FIELDS;
  }

  private field(i: number, f: number): string {
    const k = i * FIELDS + f;
    return this.text.toString('utf8', this.parts.starts[k], this.parts.starts[k + 1]);
  }

  name(i: number): string {
    return this.field(i, NAME);
  }

  domain(i: number): string {
    return this.field(i, DOMAIN);
  }

  method(i: number): string {
    return this.field(i, METHOD);
  }

  path(i: number): string {
    return this.field(i, PATH);
  }

  /**
   * Document i's card. Searches return the same operations again and again, and decoding seven fields for each
   * result was a fifth of a search's garbage (the collector's pauses are search_tools' latency tail), so recent
   * cards are kept decoded: frozen, shared by every caller, a bound cleared when full.
   */
  at(i: number): DocCard {
    const hit = this.decoded.get(i);
    if (hit !== undefined) return hit;
    const required = this.field(i, REQUIRED);
    const card: DocCard = Object.freeze({
      name: this.field(i, NAME),
      operationId: this.field(i, OPERATION_ID),
      method: this.field(i, METHOD),
      path: this.field(i, PATH),
      domain: this.field(i, DOMAIN),
      summary: this.field(i, SUMMARY),
      requiredParams: Object.freeze(required === '' ? [] : required.split(SEP)) as string[],
    });
    return this.decoded.remember(i, card);
  }

  /** All names, in document order. */
  names(): string[] {
    const out = new Array<string>(this.length);
    for (let i = 0; i < out.length; i++) out[i] = this.name(i);
    return out;
  }

  /** The document named exactly `name` (binary search: documents are in name order), or -1. */
  indexOf(name: string): number {
    let lo = 0;
    let hi = this.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const n = this.name(mid);
      if (n === name) return mid;
      if (n < name) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /**
   * The first document (in name order) whose lower-cased name or operationId, or `method /path` key (see
   * pathKey), is `key` exactly; undefined when none is.
   */
  exact(key: string): number | undefined {
    const { exactHash, exactDoc } = this.parts;
    const h = keyHash(key);
    // entries of one hash are in document order: the first whose keys really hold `key` wins
    for (let k = firstOfHash(exactHash, h); k < exactHash.length && exactHash[k] === h; k++) {
      const i = exactDoc[k] as number;
      if (exactKeys(this.field(i, NAME), this.field(i, OPERATION_ID), this.field(i, METHOD), this.field(i, PATH)).includes(key)) return i;
    }
    return undefined;
  }

  /** The document a query names exactly (name, operationId, `METHOD /path` template or concrete path), if any. */
  match(query: string): number | undefined {
    const q = query.toLowerCase();
    const direct = this.exact(q);
    if (direct !== undefined) return direct;
    const m = /^([a-z]+)\s+(\/\S*)$/.exec(q);
    if (!m || !METHODS.has(m[1] as string)) return undefined;
    const path = (m[2] as string).split('?')[0] as string;
    const byTemplate = this.exact(pathKey(m[1] as string, path));
    if (byTemplate !== undefined) return byTemplate;
    // a concrete path (`GET /repos/octo/hello/issues`): match segment by segment against templates
    const segs = path.split('/');
    for (let i = 0; i < this.length; i++) {
      // the two fields only: a whole card per operation would decode every summary on each such query
      if (this.method(i) !== m[1]) continue;
      const tsegs = this.path(i).toLowerCase().split('/');
      if (tsegs.length === segs.length && tsegs.every((t, k) => t === segs[k] || (t.startsWith('{') && segs[k] !== ''))) return i;
    }
    return undefined;
  }
}

const METHODS: ReadonlySet<string> = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** The exact-match keys of one operation. */
function exactKeys(name: string, operationId: string, method: string, path: string): string[] {
  return [name.toLowerCase(), operationId.toLowerCase(), pathKey(method, path)];
}

function same(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}
