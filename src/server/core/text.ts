// Imported spec text is data, not instructions: strip invisible and bidi characters, cap lengths, and keep
// it in clearly named fields. Also the small helpers for one-line and 2–3 sentence cuts.

// Zero-width, bidi controls, BOM, Unicode tag characters, and C0/C1 controls except \n and \t.
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]|[\u{E0000}-\u{E007F}]|[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/gu;

/** Removes invisible/bidi/control characters and caps the length (adds `…` when cut). */
export function cleanText(text: string | undefined, max = 600): string {
  if (!text) return '';
  const cleaned = text.replace(INVISIBLE, '').replace(/[ \t]+/g, ' ').trim();
  return cleaned.length > max ? cleaned.slice(0, max - 1).trimEnd() + '…' : cleaned;
}

/** First line / sentence, at most `max` characters. */
export function oneLine(text: string | undefined, max = 120): string {
  const t = cleanText(text, 2000).replace(/\s*\n\s*/g, ' ');
  const m = /^(.+?[.!?])(\s|$)/.exec(t);
  const first = m?.[1] ?? t;
  return first.length > max ? first.slice(0, max - 1).trimEnd() + '…' : first;
}

// ICU sentence boundaries: a dot inside `vnd.github.raw+json`, `e.g.` or a version number is not an end.
// Made on first use: building ICU's sentence iterator costs ~15 ms, which a server start (tools/list, search)
// never needs; describe does.
let sentenceSegmenter: Intl.Segmenter | undefined;

/** The first two or three sentences, at most `max` characters. */
export function sentences(text: string | undefined, count = 3, max = 400): string {
  const t = cleanText(text, 4000).replace(/\s*\n\s*/g, ' ');
  const parts: string[] = [];
  for (const { segment } of (sentenceSegmenter ??= new Intl.Segmenter('en', { granularity: 'sentence' })).segment(t)) {
    parts.push(segment);
    if (parts.length === count) break;
  }
  const out = parts.join('').trim();
  return out.length > max ? out.slice(0, max - 1).trimEnd() + '…' : out;
}

/** JSON byte length (UTF-8). */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
}
