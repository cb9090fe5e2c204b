// Requests Node's HTTP parser refuses before any handler sees them (a bad request line, headers over the limit, a
// request timeout): a bare JSON-RPC 400/408/431 instead of Node's default, and for a browser whose address is too
// long (a dry run's arguments in a GET of the explorer) a page with the way back. The Host, Origin and auth checks
// never ran for these bytes: nothing here trusts them beyond choosing which page to show.
import type { Duplex } from 'node:stream';
import { PAGE_HEADERS, addressTooLongPage } from '../explorer/standalone.js';
import { acceptsHtml } from './http-pages.js';

/**
 * Whether the bytes of a request refused before parsing came from a browser loading a page (see clientError below):
 * its Accept asks for text/html, or, when the address alone passed the limit and the Accept header is not among the
 * bytes that arrived, it is a GET of the explorer's own address (`/?…`), which MCP clients never ask for.
 */
function browserRequestBytes(raw: string): boolean {
  const head = raw.slice(0, raw.indexOf('\r\n\r\n') >= 0 ? raw.indexOf('\r\n\r\n') : raw.length);
  const accept = /\r\naccept:([^\r\n]*)/i.exec(head);
  if (accept !== null) return acceptsHtml(accept[1] as string);
  return /^(GET|HEAD) \/\?/.test(raw);
}

/** The operation a refused address names (`/?tool=<name>&…`), when it is in the bytes that arrived and looks like a name. */
function toolOfRequestBytes(raw: string): string | undefined {
  const m = /^(?:GET|HEAD) \/\?(?:[^ #]*?&)?tool=([^& #\r\n]{1,400})/.exec(raw);
  if (m === null) return undefined;
  let name: string;
  try {
    name = decodeURIComponent((m[1] as string).replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
  return /^[\w.@-]{1,200}$/.test(name) ? name : undefined;
}

/**
 * The `clientError` listener of the HTTP server: `explorer` when the explorer page is served (a browser then gets
 * a page for an address over the header limit).
 */
export function clientErrorAnswer(explorer: boolean): (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex) => void {
  return (err, socket) => {
    if (!socket.writable) return socket.destroy();
    const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
    const reason = status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request';
    // what arrived of the request (Node keeps the packet it was parsing); the Host, Origin and auth checks never ran
    const raw = status === 431 && err.rawPacket !== undefined ? err.rawPacket.toString('latin1') : '';
    if (explorer && raw !== '' && browserRequestBytes(raw)) {
      const page = addressTooLongPage(toolOfRequestBytes(raw));
      const headers = Object.entries({ ...PAGE_HEADERS, 'Content-Length': String(Buffer.byteLength(page)), Connection: 'close' }).map(([k, v]) => `${k}: ${v}\r\n`);
      socket.end(`HTTP/1.1 431 ${reason}\r\n${headers.join('')}\r\n${page}`);
      return;
    }
    const body = JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: 'Bad Request' }, id: null });
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  };
}
