// Which request bodies take files (multipart parts, or the whole body as bytes): what execution encodes as files
// (files.ts) and describe_tools says takes a file (describe-brief.ts). And which take an XML document, as a string
// (request.ts sends it as it is and refuses anything else; describe says so). A leaf module, so describe does not
// load the encoder to read it.
import { isXmlMediaType } from '../schema/media-types.js';
import type { Operation } from '../types.js';

/** `multipart` or `binary` for a body that takes files; undefined for JSON, form, text, XML, CSV, YAML, or no body. */
export function bodyMediaKind(op: Operation): 'multipart' | 'binary' | undefined {
  const mt = (op.requestBody?.mediaTypes[0] ?? 'application/json').toLowerCase();
  if (/^application\/(.+\+)?json\b/.test(mt) || mt === '*/*' || mt.startsWith('application/x-www-form-urlencoded')) return undefined;
  if (mt.startsWith('multipart/')) return 'multipart';
  if (mt.startsWith('text/') || /xml|csv|yaml/.test(mt)) return undefined;
  return 'binary';
}

/**
 * For an operation whose request body is XML: the argument that takes the XML document as a string (the importer makes
 * such a body one string argument), or null where the catalog was imported before that and its arguments cannot carry
 * a document (an object's fields, or an object). Undefined for any other body.
 */
export function xmlBodyArg(op: Operation): string | null | undefined {
  const mt = op.requestBody?.mediaTypes[0];
  if (mt === undefined || !isXmlMediaType(mt)) return undefined;
  const whole = op.requestBody?.mode === 'whole' ? op.bindings.find((b) => b.in === 'body') : undefined;
  const schema = whole !== undefined && Object.hasOwn(op.inputSchema.properties, whole.arg) ? op.inputSchema.properties[whole.arg] : undefined;
  return whole !== undefined && typeof schema === 'object' && schema.type === 'string' ? whole.arg : null;
}

/** describe_tools' note (Levels 2 and 3) for an XML request body: how to pass it, or why it cannot be sent; else undefined. */
export function xmlBodyNote(op: Operation): string | undefined {
  const arg = xmlBodyArg(op);
  const mt = op.requestBody?.mediaTypes[0] ?? '';
  if (arg === undefined) return undefined;
  if (arg === null) return `Cannot be executed as imported: the request body is XML (${mt}), which the server does not build from arguments; the catalog must be re-imported (api-catalog import) so that the operation takes the XML document as a string.`;
  return `The request body is an XML document (${mt}): write it and pass it whole, as a string, in "${arg}"; it is sent as it is (the server builds no XML from arguments). describe_tools with "parameter": "${arg}" outlines its elements.`;
}
