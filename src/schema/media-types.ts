// Media types the importer and execution read the same way: one definition, so what the importer makes an XML
// document argument (importer/bodies.ts) is what execution sends as it is and describe_tools explains
// (execution/media-kind.ts, request.ts).

/** An XML media type: `text/xml`, `application/xml`, `application/atom+xml`, parameters ignored (`; charset=utf-8`). */
export function isXmlMediaType(mediaType: string): boolean {
  return /^[\w.-]+\/(?:[\w.-]+\+)?xml$/.test((mediaType.split(';')[0] ?? '').trim().toLowerCase());
}
