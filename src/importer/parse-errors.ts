// Where a spec or overlay does not parse, said on one line an author can act on: the parser's reason, the 1-based
// line and column (`file:line:column`, as editors and terminals link them) and an excerpt of the offending line with
// `^` at the column. Used by spec-text.ts's parseSpecText.
import { AppError } from '../errors.js';

/** Where a document does not parse: 1-based line and column, as an editor counts them (UTF-16 code units). */
export interface ParsePosition {
  line: number;
  column: number;
}

/** 1-based line and column of a character offset (`\r\n`, `\n` and `\r` all end a line). */
export function positionAt(text: string, offset: number): ParsePosition {
  const at = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: at - lineStart + 1 };
}

// Shown inside a one-line message: tabs, control, invisible and bidi characters are written as escapes.
function visible(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g, (c) =>
    c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** One line cut to about 80 characters around `column`, with `caret` inserted before the character at `column`. */
function marked(line: string, column: number, caret = '^'): string {
  const ci = Math.min(Math.max(column - 1, 0), line.length);
  const from = line.length > 80 ? Math.max(0, Math.min(ci - 40, line.length - 80)) : 0;
  const to = Math.min(line.length, from + 80);
  const before = (from > 0 ? '…' : '') + visible(line.slice(from, ci));
  const after = visible(line.slice(ci, to)) + (to < line.length ? '…' : '');
  return `${before}${caret}${after}`;
}

/**
 * The excerpt for a parse error at `pos`: the offending line with `^` at the column, and the line before it
 * when the error sits at the start of a line (parsers notice an unclosed bracket or quote only on the next line).
 */
function excerptAt(text: string, pos: ParsePosition): string {
  const lines = text.split(/\r\n|\n|\r/);
  const line = lines[pos.line - 1] ?? '';
  const parts: string[] = [];
  if (pos.line > 1 && line.slice(0, pos.column - 1).trim() === '') {
    let prev = pos.line - 1;
    while (prev > 1 && (lines[prev - 1] ?? '').trim() === '') prev--;
    const prevLine = lines[prev - 1] ?? '';
    if (prevLine.trim() !== '') parts.push(`line ${prev}: \`${marked(prevLine, prevLine.length + 1, '')}\``);
  }
  const rest = line.slice(pos.column - 1) + lines.slice(pos.line).join('');
  if (rest.trim() === '' && line.trim() === '') parts.push(`line ${pos.line}: the end of the file`);
  else parts.push(`line ${pos.line}: \`${marked(line, pos.column)}\``);
  return parts.join(', ');
}

/** The position a JSON.parse SyntaxError names (V8: "at position N", newer: "(line L column C)"). */
export function jsonErrorPosition(message: string, text: string): ParsePosition | undefined {
  const lc = /\(line (\d+) column (\d+)\)/.exec(message);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const at = /at position (\d+)/.exec(message);
  if (at) return positionAt(text, Number(at[1]));
  if (/Unexpected end of JSON input/i.test(message)) return positionAt(text, text.trimEnd().length);
  return undefined;
}

/** A parse failure as one line: the parser's reason, line and column, `file:line:column`, and the excerpt. */
export function parseFailure(where: string, at: string, text: string, reason: string, pos: ParsePosition | undefined, cause: unknown): AppError {
  if (pos === undefined) {
    return new AppError('SPEC_INVALID', `import: ${where} is neither valid JSON nor YAML (${reason})`, { cause, details: { file: at } });
  }
  const excerpt = excerptAt(text, pos);
  return new AppError(
    'SPEC_INVALID',
    `import: ${where} is neither valid JSON nor YAML: ${reason} at line ${pos.line}, column ${pos.column} (${at}:${pos.line}:${pos.column}); ${excerpt}`,
    { cause, details: { file: at, line: pos.line, column: pos.column, excerpt } },
  );
}
