// Descriptions as readable text. Specs write them in Markdown (code spans, _emphasis_, "- " bullets, links); no
// Markdown library is a dependency, so the markup is taken out rather than rendered: code spans and emphasis keep
// their words, a link keeps its text (and its address, when it is http(s)), headings lose their #, and bullet or
// numbered lines become list items. Everything is escaped by html.ts; nothing here builds markup from the input.
import { html, type Html } from './html.js';

const BULLET = /^\s{0,3}(?:[-*+]|\d{1,3}[.)])\s+/;
const ORDERED = /^\s{0,3}\d{1,3}[.)]\s+/;

/** Inline markup out of text that holds no code span: links, emphasis, strong. Identifiers (snake_case) stay whole. */
function stripOutsideCode(text: string): string {
  return (
    text
      // [text](https://x) keeps its address; any other target (relative, javascript:) only its text
      .replace(/\[([^\]\n]+)\]\((https?:\/\/[^\s()]+)(?:\s+"[^"\n]*")?\)/g, '$1 ($2)')
      .replace(/\[([^\]\n]+)\]\((?:[^()\n]|\([^()\n]*\))*\)/g, '$1')
      .replace(/<(https?:\/\/[^\s>]+)>/g, '$1')
      // **strong**, __strong__, *em*, _em_: only where the markers stand at word edges
      .replace(/(^|[\s("'[])(\*\*|__)(?=\S)([^\n]*?\S)\2(?=$|[\s)"'.,:;!?\]])/g, '$1$3')
      .replace(/(^|[\s("'[])([*_])(?=\S)([^\n*_]*?\S)\2(?=$|[\s)"'.,:;!?\]])/g, '$1$3')
  );
}

/** A line or paragraph without its inline Markdown: code spans keep their text, the rest loses its markers. */
export function plainText(text: string): string {
  let out = '';
  let rest = text;
  for (;;) {
    const m = /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/.exec(rest);
    if (m === null) return out + stripOutsideCode(rest);
    out += stripOutsideCode(rest.slice(0, m.index)) + (m[2] as string).trim();
    rest = rest.slice(m.index + m[0].length);
  }
}

type Block = { kind: 'p'; text: string } | { kind: 'ul' | 'ol'; items: string[] };

/** Paragraphs (split at blank lines) and lists (runs of bullet or numbered lines; indented lines continue an item). */
export function blocks(text: string): Block[] {
  const out: Block[] = [];
  for (const para of text.split(/\n\s*\n/)) {
    let lines: string[] = [];
    const flush = (): void => {
      const t = lines.join(' ').trim();
      if (t !== '') out.push({ kind: 'p', text: plainText(t.replace(/^#{1,6}\s+/, '')) });
      lines = [];
    };
    let list: Extract<Block, { kind: 'ul' | 'ol' }> | undefined;
    for (const line of para.split('\n')) {
      if (BULLET.test(line)) {
        flush();
        const kind = ORDERED.test(line) ? 'ol' : 'ul';
        if (list === undefined || list.kind !== kind) {
          list = { kind, items: [] };
          out.push(list);
        }
        list.items.push(plainText(line.replace(BULLET, '').trim()));
      } else if (list !== undefined && /^\s+\S/.test(line)) {
        list.items[list.items.length - 1] += ` ${plainText(line.trim())}`;
      } else {
        list = undefined;
        lines.push(line.trim());
      }
    }
    flush();
  }
  return out;
}

/** A description as paragraphs and lists, escaped. */
export function prose(text: string): Html {
  return html`${blocks(text).map((b) =>
    b.kind === 'p' ? html`<p>${b.text}</p>` : b.kind === 'ul' ? html`<ul>${b.items.map((i) => html`<li>${i}</li>`)}</ul>` : html`<ol>${b.items.map((i) => html`<li>${i}</li>`)}</ol>`,
  )}`;
}

/** One line of a description (a table cell, a summary): its text without markup, lists joined with "; ". */
export function proseLine(text: string): string {
  return blocks(text)
    .map((b) => (b.kind === 'p' ? b.text : b.items.join('; ')))
    .join(' ');
}
