// Which request bodies take files (multipart parts, or the whole body as bytes): what execution encodes as files
// (files.ts) and describe_tools says takes a file (describe-brief.ts). A leaf module, so describe does not load the
// encoder to read it.
import type { Operation } from '../types.js';

/** `multipart` or `binary` for a body that takes files; undefined for JSON, form, text, XML, CSV, YAML, or no body. */
export function bodyMediaKind(op: Operation): 'multipart' | 'binary' | undefined {
  const mt = (op.requestBody?.mediaTypes[0] ?? 'application/json').toLowerCase();
  if (/^application\/(.+\+)?json\b/.test(mt) || mt === '*/*' || mt.startsWith('application/x-www-form-urlencoded')) return undefined;
  if (mt.startsWith('multipart/')) return 'multipart';
  if (mt.startsWith('text/') || /xml|csv|yaml/.test(mt)) return undefined;
  return 'binary';
}
