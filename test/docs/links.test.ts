// Links inside the docs keep working: every relative link and image in the repository's Markdown files (README.md,
// docs/, and the READMEs under src/, test/fixtures/, openapi/) points at a file of the repository, and every
// #anchor at a heading that exists (GitHub's heading ids, via github-slugger). Every page of docs/ is linked from
// the README. Code blocks and code spans are not links.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import GithubSlugger from 'github-slugger';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../helpers/mcp.js';

const SKIP = new Set(['node_modules', 'dist', '.cache', '.git', 'coverage', 'tmp']);

function markdownFiles(dir = REPO_ROOT): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (SKIP.has(name)) return [];
    const p = join(dir, name);
    return statSync(p).isDirectory() ? markdownFiles(p) : name.endsWith('.md') ? [relative(REPO_ROOT, p)] : [];
  });
}

/** The text without fenced code blocks and code spans (whose brackets are not links). */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The ids GitHub gives a Markdown file's headings, and explicit `<a id>` / `<a name>` anchors. */
const anchorCache = new Map<string, Set<string>>();
function anchors(file: string): Set<string> {
  let ids = anchorCache.get(file);
  if (ids !== undefined) return ids;
  const slugger = new GithubSlugger();
  const text = readFileSync(join(REPO_ROOT, file), 'utf8').replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');
  ids = new Set<string>();
  for (const m of text.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    // a heading's id is made from its text: links keep their text, emphasis and code marks go
    const plain = (m[1] as string).replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*_]/g, (c) => (c === '_' ? c : ''));
    ids.add(slugger.slug(plain));
  }
  for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) ids.add(m[1] as string);
  anchorCache.set(file, ids);
  return ids;
}

/** Every link target in a file: inline links and images, and reference definitions. */
function links(text: string): string[] {
  const p = prose(text);
  const inline = [...p.matchAll(/!?\[(?:[^\]\[]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] as string);
  // a reference definition starts a block: after a blank line or another definition (never inside a paragraph)
  const refs: string[] = [];
  let startsBlock = true;
  for (const line of p.split('\n')) {
    const def = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(line);
    if (def !== null && startsBlock) refs.push(def[1] as string);
    startsBlock = line.trim() === '' || (def !== null && startsBlock);
  }
  return [...inline, ...refs];
}

describe('links inside the docs', () => {
  const files = markdownFiles();

  test('the Markdown files checked include the README and every page of docs/', () => {
    expect(files).toContain('README.md');
    expect(files).toContain(join('docs', 'CONFIGURATION.md'));
    expect(files.length).toBeGreaterThan(20);
  });

  test.each(files)('%s: every relative link and anchor resolves', (file) => {
    const broken: string[] = [];
    for (const target of links(readFileSync(join(REPO_ROOT, file), 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, ...
      const [rawPath, anchor] = target.split('#', 2) as [string, string | undefined];
      const path = decodeURIComponent(rawPath);
      const to = path === '' ? join(REPO_ROOT, file) : resolve(REPO_ROOT, dirname(file), path);
      const rel = relative(REPO_ROOT, to);
      if (rel.startsWith('..')) {
        broken.push(`${target}: outside the repository (a clone has nothing beside it)`);
        continue;
      }
      if (!existsSync(to)) {
        broken.push(`${target}: no such file ${rel}`);
        continue;
      }
      if (anchor !== undefined && anchor !== '' && rel.endsWith('.md') && !anchors(rel).has(anchor.toLowerCase())) {
        broken.push(`${target}: ${rel} has no heading #${anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });

  test('every page of docs/ is linked from the README', () => {
    const linked = new Set(links(readFileSync(join(REPO_ROOT, 'README.md'), 'utf8')).map((t) => t.split('#')[0]));
    const pages = readdirSync(join(REPO_ROOT, 'docs')).filter((f) => f.endsWith('.md'));
    expect(pages.filter((p) => !linked.has(`docs/${p}`))).toEqual([]);
  });

  test('the checker sees a broken link and a missing anchor', () => {
    expect(links('see [a](docs/X.md#y) and `[b](no.md)` and\n```\n[c](no.md)\n```\n[d]: ./e.md')).toEqual(['docs/X.md#y', './e.md']);
    expect(anchors('README.md').has('connect-a-client')).toBe(true);
    expect(anchors('README.md').has('no-such-heading')).toBe(false);
  });
});
