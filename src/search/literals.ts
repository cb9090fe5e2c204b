// Stage 1a, before a request is split into words: the literal values it carries (a link, an email address, a file
// name) read as the kind of thing they are. Split into words, `https://hooks.acme.com/docusign` is `https hooks acme
// com docusign` and `Q3-report.pdf` is `q3 report pdf`: words no operation is about, and the last of them became the
// head noun of the request ("upload Q3-report.pdf to my Marketing folder" read as an upload of a *pdf*). Read as
// `url`, `someone` and `file`, the request says what it acts on ("upload file to my Marketing folder", "invite
// someone to our board"). English and internet syntax, not any API's words. The `literals` unit (units.ts).
import { FILE_EXTENSIONS } from './words.js';

/** File name extensions of documents, media, archives and data people name in requests (words/literals.json). */
const EXTENSIONS = FILE_EXTENSIONS.join('|');

/** A link: a scheme or `www.`, up to the next space. */
const URL = /\b(?:[a-z][a-z0-9+.-]{1,15}:\/\/|www\.)\S+/giu;
/** An email address (after links, so a `user@host` inside a link stays part of it). */
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
/** A file name: letters, digits, `_` or `-` before a known extension (`Q3-report.pdf`, `logo.png`). */
const FILE_NAME = new RegExp(`[\\p{L}\\p{N}_-]+\\.(?:${EXTENSIONS})(?![\\p{L}\\p{N}])`, 'giu');

/**
 * The request with each link read as `url`, each email address as `someone`, each file name as `file`; `found`,
 * when given, receives each literal with its reading (`Q3-report.pdf -> file`).
 */
export function readLiterals(query: string, found?: string[]): string {
  if (!query.includes('.') && !query.includes('@')) return query;
  const as = (reading: string) => (literal: string): string => {
    found?.push(`${literal} -> ${reading}`);
    return ` ${reading} `;
  };
  return query.replace(URL, as('url')).replace(EMAIL, as('someone')).replace(FILE_NAME, as('file'));
}
