// The built search index as bytes and back: a small JSON header (tuning, lexicon tables, term ids) followed by
// typed arrays copied byte for byte (per-document features, every term's postings with its BM25+ scores, the
// documents' cards). Loading re-analyzes no text, builds no MiniSearch and needs no operation: the cards carry
// what answers show. Owns no file, versioning or I/O (src/registry/snapshot.ts ties it to the registry).
import { AppError } from '../errors.js';
import type { DomainInfo } from '../types.js';
import { DocCards, keyHash } from './cards.js';
import type { Features, FeatureTables } from './features.js';
import type { ScopeTable } from './scopes.js';
import { LexicalRetriever, type PostingTable } from './lexical.js';
import { Lexicon, type LexiconState } from './lexicon.js';
import type { IndexParts } from './index.js';
import type { SearchTuning } from './tuning.js';
import { validTitleTable } from './titles.js';
import { WORD_LISTS } from './words.js';

const MAGIC = 0x48435253; // "SRCH" read as a little-endian u32
/**
 * Layout version: bump when the layout or anything the index derives at build changes (2: keywords indexed;
 * 3: the documents' cards, so a restored index needs no operations; 4: the response body's field names and the
 * verb a GET on a collection implies indexed; 5: the head noun of each operation's resource; 6: without a format
 * suffix such as `.json`; 7: the catalog's scopes, read off its paths; 8: an identifier compound's head noun is its
 * last part, and a scope owns what it repeats; 9: the exact-title table of the summaries, and the admin and bulk flags;
 * 10: a singular that ends in s keeps it as a term, `status` like `statuses`; each operation's action word; 11: the
 * field names nested in object parameters, `data.attributes.expired`, indexed with the parameters; 12: a POST to a
 * path that ends in a verb that never POSTs acts with that verb's method, `POST /secrets/delete` deletes; 13: a path's
 * shape read after its version prefix, `/api/v1/blocks` a collection; 14: a path's trailing action is the action word
 * only when it is a verb, `/instances/{id}/file` takes its summary's "Download"; 15: a POST with a search segment and
 * no collection after it reads, `POST /User/Search/GlobalName/{page}`; 16: a plural before a preposition heads a
 * resource's name, `/listPadsOfAuthor` is about pads).
 */
export const SNAPSHOT_LAYOUT = 16;

let vocabulary: string | undefined;
/**
 * A fingerprint of the search word lists (every file of words/): most of them shape what the index derives at build
 * (an action segment, a head noun, the typo dictionary), so a snapshot built with other lists is refused and rebuilt
 * like one of another layout, without anyone bumping it. All of them are in it, so no one has to know which are
 * read at build; a file's `manifest` (the record of how a mined list was built: its date, duration, inputs) is not,
 * so mining the same words again keeps every snapshot.
 */
export function vocabularyFingerprint(): string {
  vocabulary ??= listsFingerprint(WORD_LISTS);
  return vocabulary;
}

/** The fingerprint of these word lists, their `manifest`s left out. */
export function listsFingerprint(lists: Readonly<Record<string, unknown>>): string {
  // each list's own manifest only: a word or mapping named "manifest" deeper down is part of what search reads
  const read = Object.fromEntries(Object.entries(lists).map(([name, list]) => {
    if (typeof list !== 'object' || list === null || !('manifest' in list)) return [name, list];
    const { manifest: _built, ...rest } = list as Record<string, unknown>;
    return [name, rest];
  }));
  return keyHash(JSON.stringify(read)).toString(16).padStart(8, '0');
}

type Typed = Uint32Array | Uint8Array | Float64Array;
const KINDS = { u32: Uint32Array, u8: Uint8Array, f64: Float64Array } as const;
type Kind = keyof typeof KINDS;
/** Sections in file order: per-document features, then the posting table. */
const SECTIONS: ReadonlyArray<[string, Kind]> = [
  ['titleStart', 'u32'], ['titleIds', 'u32'], ['nameStart', 'u32'], ['nameIds', 'u32'], ['primaryStart', 'u32'],
  ['primaryIds', 'u32'], ['head', 'u32'], ['domain', 'u32'], ['titleKeyHash', 'u32'], ['titleKeyDoc', 'u32'], ['method', 'u8'], ['shape', 'u8'], ['scope', 'u8'], ['flags', 'u8'], ['action', 'u32'],
  ['postStart', 'u32'], ['postIds', 'u32'], ['postScores', 'f64'], ['postTitle', 'u8'], ['cardStarts', 'u32'], ['cardBytes', 'u8'],
  ['exactHash', 'u32'], ['exactDoc', 'u32'],
];

interface Header {
  layout: number;
  /** {@link vocabularyFingerprint} of the build that wrote it. */
  vocabulary: string;
  count: number;
  tuning: SearchTuning;
  lexicon: LexiconState;
  /** Title/name terms in id order. */
  terms: string[];
  domainList: string[];
  scopes: ScopeTable;
  /** Element count of each section. */
  lengths: Record<string, number>;
}

/** The layout is little-endian; typed arrays are copied as bytes on little-endian machines (all Node targets). */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;
const align8 = (n: number): number => (n + 7) & ~7;

export function encodeSnapshot(parts: IndexParts): Uint8Array {
  if (!LITTLE_ENDIAN) throw new AppError('INTERNAL', 'search snapshot: big-endian machines are not supported');
  const f = parts.tables.features;
  const lexicon = parts.lexicon.state();
  // postings in the order of the lexicon's document frequencies: those keys are exactly the indexed terms
  const post: PostingTable = parts.retriever.postings(lexicon.docFreq.map(([t]) => t));
  const cards = parts.cards.encode();
  const arrays: Record<string, Typed> = {
    ...f, postStart: post.start, postIds: post.ids, postScores: post.scores, postTitle: post.title,
    cardStarts: cards.starts, cardBytes: cards.bytes, exactHash: cards.exactHash, exactDoc: cards.exactDoc,
  };
  const lengths: Record<string, number> = {};
  for (const [name] of SECTIONS) lengths[name] = (arrays[name] as Typed).length;
  const header: Header = {
    layout: SNAPSHOT_LAYOUT, vocabulary: vocabularyFingerprint(), count: parts.cards.length, tuning: parts.tuning,
    lexicon, terms: [...parts.tables.termIds.keys()], domainList: parts.tables.domainList, scopes: parts.tables.scopes, lengths,
  };
  const head = new TextEncoder().encode(JSON.stringify(header));
  let size = align8(12 + head.length);
  for (const [name] of SECTIONS) size = align8(size + (arrays[name] as Typed).byteLength);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, SNAPSHOT_LAYOUT, true);
  view.setUint32(8, head.length, true);
  out.set(head, 12);
  let at = align8(12 + head.length);
  for (const [name] of SECTIONS) {
    const a = arrays[name] as Typed;
    out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), at);
    at = align8(at + a.byteLength);
  }
  return out;
}

function invalid(why: string): AppError {
  return new AppError('REGISTRY_INVALID', `search snapshot: ${why}; rebuild it (api-catalog import) or delete it to build the index from the catalog`);
}

/** Restores the index parts (`domains`: the catalog's, which the header does not repeat). */
export function decodeSnapshot(bytes: Uint8Array, domains: readonly DomainInfo[]): IndexParts {
  if (!LITTLE_ENDIAN) throw new AppError('INTERNAL', 'search snapshot: big-endian machines are not supported');
  if (bytes.length < 12) throw invalid('too short');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(0, true) !== MAGIC) throw invalid('not a search snapshot');
  const layout = view.getUint32(4, true);
  if (layout !== SNAPSHOT_LAYOUT) throw invalid(`layout ${layout}, this build reads layout ${SNAPSHOT_LAYOUT}`);
  const headLength = view.getUint32(8, true);
  if (12 + headLength > bytes.length) throw invalid('truncated header');
  let header: Header;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + headLength))) as Header;
  } catch {
    throw invalid('damaged header');
  }
  if (
    typeof header !== 'object' || header === null || header.layout !== layout || typeof header.lengths !== 'object' ||
    header.lengths === null || !Array.isArray(header.terms) || !Array.isArray(header.domainList) || typeof header.tuning !== 'object' ||
    !Array.isArray(header.scopes?.names) || !Array.isArray(header.scopes?.keys) ||
    !Array.isArray(header.lexicon?.prose) || !Array.isArray(header.lexicon?.docFreq) || !Array.isArray(header.lexicon?.wordFreq)
  ) throw invalid('damaged header');
  if (typeof header.count !== 'number' || !Number.isInteger(header.count) || header.count < 0) throw invalid('damaged header');
  if (header.vocabulary !== vocabularyFingerprint()) throw invalid('built with other search word lists (another version of api-catalog)');
  const count = header.count;
  let at = align8(12 + headLength);
  const arrays: Record<string, Typed> = {};
  for (const [name, kind] of SECTIONS) {
    const n = header.lengths[name];
    const Type = KINDS[kind];
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw invalid(`damaged ${name}`);
    const byteLength = n * Type.BYTES_PER_ELEMENT;
    if (at + byteLength > bytes.length) throw invalid(`truncated ${name}`);
    // a view of the bytes when they sit 8-byte aligned in memory (the snapshot file pads its header for that),
    // else one copy into an aligned buffer of its own
    arrays[name] = (bytes.byteOffset + at) % 8 === 0 ? new Type(bytes.buffer as ArrayBuffer, bytes.byteOffset + at, n) : new Type(bytes.slice(at, at + byteLength).buffer);
    at = align8(at + byteLength);
  }
  if (at !== bytes.length) throw invalid('truncated or padded');
  const features = arrays as unknown as Features;
  const lexicon = Lexicon.fromState(header.tuning.stem, header.lexicon);
  const postTerms = header.lexicon.docFreq.map(([t]) => t);
  const table: PostingTable = {
    terms: postTerms, start: arrays.postStart as Uint32Array, ids: arrays.postIds as Uint32Array,
    scores: arrays.postScores as Float64Array, title: arrays.postTitle as Uint8Array,
  };
  if (table.start.length !== postTerms.length + 1 || table.start[postTerms.length] !== table.ids.length) throw invalid('damaged postings');
  for (const name of ['titleStart', 'nameStart', 'primaryStart']) if ((arrays[name] as Typed).length !== count + 1) throw invalid(`damaged ${name}`);
  for (const name of ['head', 'method', 'shape', 'scope', 'flags', 'domain', 'action']) if ((arrays[name] as Typed).length !== count) throw invalid(`damaged ${name}`);
  if (!validTitleTable(features, count)) throw invalid('damaged titleKeyHash');
  const cards = DocCards.restore(
    { bytes: arrays.cardBytes as Uint8Array, starts: arrays.cardStarts as Uint32Array, exactHash: arrays.exactHash as Uint32Array, exactDoc: arrays.exactDoc as Uint32Array },
    count,
  );
  if (cards === undefined) throw invalid('damaged cards');
  const termIds = new Map(header.terms.map((t, k) => [t, k]));
  const tables: FeatureTables = { features, termIds, domainList: header.domainList, scopes: header.scopes };
  const retriever = LexicalRetriever.fromPostings(table, features, termIds, header.tuning.boosts);
  return { cards, domains, tuning: header.tuning, lexicon, tables, retriever };
}
