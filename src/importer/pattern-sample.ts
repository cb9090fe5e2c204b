// A string that matches a simple regular expression: the importer's example for a string argument with a `pattern`
// (examples.ts), checked against the pattern there.

/** Index of the `)` closing the group that opens at `open`, or -1. */
function closingParen(p: string, open: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = open; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/** The first top-level alternative of a pattern fragment. */
function firstBranch(p: string): string {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return p.slice(0, i);
  }
  return p;
}

const ESCAPES: Record<string, string> = { d: '1', w: 'a', s: ' ', D: 'a', W: '-', S: 'a' };

/**
 * A string matching a simple regular expression (literals, classes, groups, alternation, quantifiers), taking the
 * first alternative and the minimum repetition (at least one). Best effort: callers check the result.
 */
export function stringFromPattern(pattern: string, depth = 0): string {
  if (depth > 8) return '';
  const p = firstBranch(pattern.replace(/^\^/, '').replace(/(?<!\\)\$$/, ''));
  let out = '';
  for (let i = 0; i < p.length; ) {
    let atom = '';
    const c = p[i] as string;
    if (c === '(') {
      const end = closingParen(p, i);
      if (end === -1) return out;
      atom = stringFromPattern(p.slice(i + 1, end).replace(/^\?(:|<?[=!]|<[A-Za-z]\w*>)/, ''), depth + 1);
      i = end + 1;
    } else if (c === '[') {
      const end = p.indexOf(']', i + 2);
      if (end === -1) return out;
      const body = p.slice(i + 1, end);
      atom = body.startsWith('^') ? 'x' : body[0] === '\\' ? (ESCAPES[body[1] ?? ''] ?? body[1] ?? 'a') : (body[0] ?? 'a');
      i = end + 1;
    } else if (c === '\\') {
      const n = p[i + 1] ?? '';
      atom = ESCAPES[n] ?? n;
      i += 2;
    } else if (c === '^' || c === '$') {
      i++;
      continue;
    } else {
      atom = c === '.' ? 'a' : c;
      i++;
    }
    let times = 1;
    const q = /^(\{(\d+)(,\d*)?\}|[+*?])\??/.exec(p.slice(i));
    if (q) {
      if (q[2] !== undefined) times = Math.max(Number(q[2]), 1);
      i += q[0].length;
    }
    out += atom.repeat(Math.min(times, 256));
  }
  return out;
}
