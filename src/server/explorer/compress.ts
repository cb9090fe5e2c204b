// Compression of the explorer's text answers (its pages, stylesheet and icon; the pages the transport writes for a
// browser at /mcp), with Node's own zlib: brotli when the request's Accept-Encoding takes it, else gzip, else none
// (the header read by `negotiator`: weights, q=0, `*`, identity).
// Every answer of a compressible type says `Vary: Accept-Encoding` (caches keep one copy per coding), and a static
// asset's ETag names its coding (`"<hash>-br"`): a compressed and an uncompressed copy never share one, so a cache
// never answers a conditional request with the wrong bytes. Bodies under MIN_COMPRESS_BYTES go as they are, unless
// the request refuses identity. Pages are compressed per request at a quality made for speed; the static assets
// once, at the best quality, and kept.
// /mcp's JSON-RPC answers and event streams never come here.
import { createHash } from 'node:crypto';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import Negotiator from 'negotiator';

/** A content coding the explorer answers with. */
export type Coding = 'br' | 'gzip' | 'identity';

/** Bodies smaller than this go uncompressed: the coding's own bytes and the work would outweigh the saving. */
export const MIN_COMPRESS_BYTES = 1024;

/** The types compressed: HTML, CSS, JavaScript and SVG (text); never JSON-RPC or event streams. */
const COMPRESSIBLE = /^\s*(text\/html|text\/css|text\/javascript|application\/javascript|image\/svg\+xml)\s*(;|$)/i;

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Whether answers of `contentType` are compressed (and so vary with Accept-Encoding). */
export function compressible(contentType: string | undefined): boolean {
  return contentType !== undefined && COMPRESSIBLE.test(contentType);
}

/** The codings offered, best first: `preferred` breaks a tie of weights (br before gzip before none). */
const OFFERED = ['br', 'gzip', 'x-gzip', 'identity'];

/** What an Accept-Encoding header takes: the coding to answer in, and whether it refuses `identity` (q=0). */
export interface Negotiated {
  coding: Coding;
  /** `identity;q=0`, or `*;q=0` without a weight of its own for identity: a compressed answer even when small. */
  identityRefused: boolean;
}

/**
 * Reads an Accept-Encoding header (RFC 9110 12.5.3) with `negotiator`: of br, gzip (`x-gzip` too) and identity, the
 * one with the highest weight, br then gzip on a tie; a coding named with q=0 is refused, one not named takes `*`'s
 * weight, and identity, unless named or refused by `*;q=0`, is acceptable. No header (or one that cannot be read):
 * identity. When nothing offered is acceptable (`identity;q=0` alone) the answer goes as it is all the same.
 */
export function negotiation(acceptEncoding: string | readonly string[] | undefined): Negotiated {
  if (acceptEncoding === undefined) return { coding: 'identity', identityRefused: false };
  const header = Array.isArray(acceptEncoding) ? acceptEncoding.join(', ') : String(acceptEncoding);
  let ranked: string[];
  try {
    ranked = new Negotiator({ headers: { 'accept-encoding': header } }).encodings(OFFERED, { preferred: OFFERED });
  } catch {
    return { coding: 'identity', identityRefused: false };
  }
  const best = ranked[0];
  const coding: Coding = best === 'br' ? 'br' : best === 'gzip' || best === 'x-gzip' ? 'gzip' : 'identity';
  return { coding, identityRefused: !ranked.includes('identity') };
}

/** The coding for an Accept-Encoding header (see negotiation). */
export function negotiate(acceptEncoding: string | readonly string[] | undefined): Coding {
  return negotiation(acceptEncoding).coding;
}

/** `body` in `coding`: brotli in text mode, gzip; `best` for a static asset compressed once, else quick. */
async function encode(body: Buffer, coding: Exclude<Coding, 'identity'>, best: boolean): Promise<Buffer> {
  if (coding === 'br') {
    return brotli(body, {
      params: {
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_QUALITY]: best ? constants.BROTLI_MAX_QUALITY : 5,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
  }
  return gzipped(body, { level: best ? constants.Z_BEST_COMPRESSION : 6 });
}

/** The `Vary` value with Accept-Encoding added to what the response already says (the transport's `Origin`). */
function varyWith(res: ServerResponse): string {
  const current = res.getHeader('Vary');
  const names = (Array.isArray(current) ? current.join(',') : String(current ?? '')).split(',').map((s) => s.trim()).filter((s) => s !== '');
  return names.some((n) => n.toLowerCase() === 'accept-encoding') ? names.join(', ') : [...names, 'Accept-Encoding'].join(', ');
}

interface Variant {
  body: Buffer;
  coding: Coding;
}

/** A static asset's copies, one per coding (made on first use and kept), and the hash its ETags share. */
interface Asset {
  hash: string;
  raw: Buffer;
  coded: Map<Coding, Promise<Buffer>>;
}

const assets = new Map<string, Asset>();

function assetOf(text: string): Asset {
  let asset = assets.get(text);
  if (asset === undefined) {
    const raw = Buffer.from(text, 'utf8');
    asset = { hash: createHash('sha256').update(raw).digest('base64url').slice(0, 22), raw, coded: new Map() };
    assets.set(text, asset);
  }
  return asset;
}

/**
 * The body in the coding the request takes, or as it is (small, not acceptable, no smaller, or encoding failed);
 * compressed whatever its size when the request refuses identity.
 */
async function variant(raw: Buffer, taken: Negotiated, made: () => Promise<Buffer>): Promise<Variant> {
  const { coding, identityRefused } = taken;
  if (coding === 'identity' || (raw.length < MIN_COMPRESS_BYTES && !identityRefused)) return { body: raw, coding: 'identity' };
  try {
    const body = await made();
    return body.length < raw.length || identityRefused ? { body, coding } : { body: raw, coding: 'identity' };
  } catch {
    return { body: raw, coding: 'identity' };
  }
}

/** Whether an If-None-Match value names `etag` (weak comparison, as RFC 9110 13.1.2 asks; `*` names any). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const bare = (tag: string): string => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || bare(tag) === bare(etag));
}

export interface BodyOptions {
  /** A HEAD request: the headers a GET would get, no body. */
  head?: boolean;
  /**
   * A static asset (the stylesheet, the icon): its copies are compressed once at the best quality and kept, and it
   * gets an ETag per coding, which a conditional request's If-None-Match is answered against (304).
   */
  asset?: boolean;
}

/**
 * Writes an answer whose body is `text`, compressed when its type is compressible, the request takes br or gzip and
 * the body is large enough; `headers` are sent as they are but for Content-Length, Content-Encoding, Vary and ETag.
 */
export async function sendBody(res: ServerResponse, status: number, headers: OutgoingHttpHeaders, text: string, options: BodyOptions = {}): Promise<void> {
  const type = headers['Content-Type'];
  if (!compressible(typeof type === 'string' ? type : undefined)) {
    res.writeHead(status, { ...headers, 'Content-Length': String(Buffer.byteLength(text)) });
    res.end(options.head ? undefined : text);
    return;
  }
  const req = res.req;
  const taken = negotiation(req?.headers['accept-encoding']);
  const coding = taken.coding;
  let chosen: Variant;
  let etag: string | undefined;
  if (options.asset) {
    const asset = assetOf(text);
    chosen = await variant(asset.raw, taken, () => {
      let made = asset.coded.get(coding);
      if (made === undefined) {
        made = encode(asset.raw, coding as Exclude<Coding, 'identity'>, true);
        asset.coded.set(coding, made);
        // a failure is not kept: the next request tries again (this one goes uncompressed)
        made.catch(() => asset.coded.delete(coding));
      }
      return made;
    });
    etag = `"${asset.hash}${chosen.coding === 'identity' ? '' : `-${chosen.coding}`}"`;
  } else {
    const raw = Buffer.from(text, 'utf8');
    chosen = await variant(raw, taken, () => encode(raw, coding as Exclude<Coding, 'identity'>, false));
  }
  const out: OutgoingHttpHeaders = { ...headers, Vary: varyWith(res), ...(etag !== undefined ? { ETag: etag } : {}) };
  if (etag !== undefined && status === 200 && matches(req?.headers['if-none-match'], etag)) {
    // the copy the client holds is this one: the validators and caching headers, no body
    delete out['Content-Type'];
    res.writeHead(304, out);
    res.end();
    return;
  }
  if (chosen.coding !== 'identity') out['Content-Encoding'] = chosen.coding;
  out['Content-Length'] = String(chosen.body.length);
  res.writeHead(status, out);
  res.end(options.head ? undefined : chosen.body);
}
