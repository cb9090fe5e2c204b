// The agent-facing `x-api-catalog-*` extensions a spec or an overlay may set on an operation: hidden, summary,
// keywords, domain, destructive. Reads and checks them (a bad value is a warning and is ignored); the importer
// applies them. Nothing here reads files or knows about overlays.
import type { Diagnostic } from '../types.js';
import { escapePointer, own } from './pointer.js';
import { MAX_SUMMARY_WORDS, cleanLine, makeSummary, slug } from './text.js';

export const EXT = {
  hidden: 'x-api-catalog-hidden',
  summary: 'x-api-catalog-summary',
  keywords: 'x-api-catalog-keywords',
  domain: 'x-api-catalog-domain',
  destructive: 'x-api-catalog-destructive',
} as const;

/** At most this many keywords per operation, each at most MAX_KEYWORD_CHARS characters. */
export const MAX_KEYWORDS = 32;
export const MAX_KEYWORD_CHARS = 60;

/** What an operation's extensions ask for; a field is absent when the extension is absent or invalid. */
export interface AgentExtensions {
  hidden: boolean;
  summary?: string;
  keywords?: string[];
  domain?: string;
  destructive?: boolean;
}

/**
 * Reads the `x-api-catalog-*` extensions of one Operation Object (`at` is its JSON pointer). Invalid values add
 * an EXTENSION_INVALID warning naming the extension and are ignored.
 */
export function readAgentExtensions(op: Record<string, unknown>, at: string, diagnostics: Diagnostic[]): AgentExtensions {
  const out: AgentExtensions = { hidden: false };
  const warn = (ext: string, message: string): void => {
    diagnostics.push({ level: 'warning', code: 'EXTENSION_INVALID', pointer: `${at}/${escapePointer(ext)}`, message: `${ext} ${message}; ignored` });
  };
  const hidden = own(op, EXT.hidden);
  if (hidden !== undefined) {
    if (typeof hidden === 'boolean') out.hidden = hidden;
    else warn(EXT.hidden, `must be true or false (found ${JSON.stringify(hidden)})`);
  }
  const summary = own(op, EXT.summary);
  if (summary !== undefined) {
    const line = typeof summary === 'string' ? cleanLine(summary) : '';
    if (line === '') warn(EXT.summary, 'must be a non-empty string');
    else {
      out.summary = makeSummary(line, '');
      if (line.split(/\s+/).length > MAX_SUMMARY_WORDS) {
        diagnostics.push({
          level: 'warning',
          code: 'EXTENSION_SUMMARY_SHORTENED',
          pointer: `${at}/${escapePointer(EXT.summary)}`,
          message: `${EXT.summary} is longer than a level-1 summary (about 12 words); shortened to ${JSON.stringify(out.summary)}`,
        });
      }
    }
  }
  const keywords = own(op, EXT.keywords);
  if (keywords !== undefined) {
    const list = typeof keywords === 'string' ? keywords.split(',') : Array.isArray(keywords) && keywords.every((k) => typeof k === 'string') ? (keywords as string[]) : undefined;
    if (list === undefined) warn(EXT.keywords, 'must be an array of strings or a comma-separated string');
    else {
      const cleaned = [...new Set(list.map((k) => cleanLine(k, MAX_KEYWORD_CHARS).toLowerCase()).filter((k) => k !== ''))];
      if (cleaned.length > MAX_KEYWORDS) {
        diagnostics.push({
          level: 'warning',
          code: 'EXTENSION_INVALID',
          pointer: `${at}/${escapePointer(EXT.keywords)}`,
          message: `${EXT.keywords} has ${cleaned.length} entries; the first ${MAX_KEYWORDS} are kept`,
        });
      }
      if (cleaned.length > 0) out.keywords = cleaned.slice(0, MAX_KEYWORDS);
    }
  }
  const domain = own(op, EXT.domain);
  if (domain !== undefined) {
    const s = typeof domain === 'string' ? slug(domain) : '';
    if (s === '') warn(EXT.domain, 'must be a domain name such as "issues" (letters, digits, - and _)');
    else out.domain = s;
  }
  const destructive = own(op, EXT.destructive);
  if (destructive !== undefined) {
    if (typeof destructive === 'boolean') out.destructive = destructive;
    else warn(EXT.destructive, `must be true or false (found ${JSON.stringify(destructive)})`);
  }
  return out;
}
