import { describe, expect, it } from 'vitest';
import { isPlural, splitWords, stem, stripNoise, stripPlural, STOP_WORDS } from '../../src/search/text.js';
import { ABBREVIATIONS, CALLER_WORDS, FAMILIES, FILLER_AFTER, PHRASES, VERB_FAMILY_COUNT, VERB_METHODS, VERB_SHAPES } from '../../src/search/words.js';

describe('splitWords', () => {
  it.each([
    ['PostCustomersCustomerSources', ['post', 'customers', 'customer', 'sources']],
    ['admin.users.list', ['admin', 'users', 'list']],
    ['/repos/{owner}/{repo}/issues', ['repos', 'owner', 'repo', 'issues']],
    ['re-run_failed-jobs', ['re', 'run', 'failed', 'jobs']],
    ['HTMLParser getURLFor v2Api', ['html', 'parser', 'get', 'url', 'for', 'v2', 'api']],
    ['open PRs and APIs', ['open', 'prs', 'and', 'apis']],
    ["a customer's address", ['a', 'customer', 'address']],
    ['🎉 (.*)+ émoji', ['émoji']],
    ['', []],
  ])('%s', (input, words) => {
    expect(splitWords(input)).toEqual(words);
  });

  it('drops absurdly long tokens instead of indexing them', () => {
    expect(splitWords('x'.repeat(1000) + ' ok')).toEqual(['ok']);
  });
});

describe('stripNoise', () => {
  it('keeps visible words of HTML and Markdown, drops tags, entities, link targets and URLs', () => {
    const out = stripNoise('<p>See <a href="x">the docs</a> &amp; [guide](https://x.y/z) at https://e.com/a, `code` **bold**</p>');
    expect(splitWords(out)).toEqual(['see', 'the', 'docs', 'guide', 'at', 'code', 'bold']);
  });
});

describe('stemming', () => {
  it('porter conflates verb forms and plurals', () => {
    expect(stem('starred')).toBe(stem('star'));
    expect(stem('repositories')).toBe(stem('repository'));
    expect(stem('invitation')).toBe(stem('invite'));
  });
  it('a singular that ends in s meets its plural: Porter alone reads status as statu and statuses as status', () => {
    for (const [one, many] of [['status', 'statuses'], ['alias', 'aliases'], ['canvas', 'canvases'], ['bonus', 'bonuses'], ['lens', 'lenses'], ['virus', 'viruses']]) {
      expect(stem(one as string), one).toBe(stem(many as string));
    }
  });
  it('...and a plural still meets its singular, whatever its ending', () => {
    for (const [one, many] of [['menu', 'menus'], ['sku', 'skus'], ['schema', 'schemas'], ['library', 'libraries'], ['address', 'addresses'], ['cause', 'causes'], ['box', 'boxes'], ['area', 'areas']]) {
      expect(stem(one as string), many).toBe(stem(many as string));
    }
    expect(isPlural('alias')).toBe(false);
    expect(isPlural('aliases')).toBe(true);
  });
  it('plural mode only strips plurals; none keeps words', () => {
    expect(stripPlural('branches')).toBe('branch');
    expect(stripPlural('repositories')).toBe('repository');
    expect(stripPlural('status')).toBe('status');
    expect(stem('starred', 'plural')).toBe('starred');
    expect(stem('issues', 'none')).toBe('issues');
  });
  it('leaves words with digits alone', () => {
    expect(stem('v2s')).toBe('v2s');
  });
});

describe('vocabulary', () => {
  it('abbreviations expand to words that are not themselves abbreviations of something else', () => {
    for (const [abbr, words] of Object.entries(ABBREVIATIONS)) {
      expect(words.length, abbr).toBeGreaterThan(0);
      for (const w of words) expect(w === abbr || ABBREVIATIONS[w] === undefined || ABBREVIATIONS[w]?.[0] === w, `${abbr} -> ${w}`).toBe(true);
    }
    expect(ABBREVIATIONS['repo']).toEqual(['repository']);
    expect(ABBREVIATIONS['pr']).toEqual(['pull', 'request']);
    expect(ABBREVIATIONS['org']).toEqual(['organization']);
  });
  it('verb families hold the documented synonyms', () => {
    const familyOf = (w: string): readonly string[] => FAMILIES.find((f) => f.includes(w)) ?? [];
    expect(familyOf('create')).toEqual(expect.arrayContaining(['add', 'new', 'make', 'open', 'post']));
    expect(familyOf('delete')).toEqual(expect.arrayContaining(['remove', 'destroy']));
    expect(familyOf('get')).toEqual(expect.arrayContaining(['retrieve', 'fetch', 'read', 'view']));
    expect(familyOf('update')).toEqual(expect.arrayContaining(['edit', 'change', 'modify', 'set']));
    expect(familyOf('list')).toEqual(expect.arrayContaining(['browse']));
  });
  it('family members are plain lower-case words and never stop words', () => {
    for (const f of FAMILIES) for (const w of f) {
      expect(w).toMatch(/^[a-z]+$/);
      expect(STOP_WORDS.has(w), w).toBe(false);
    }
  });
  it('noun families join the words different APIs use for one thing', () => {
    const familyOf = (w: string): readonly string[] => FAMILIES.filter((f) => f.includes(w)).flat();
    expect(familyOf('message')).toEqual(expect.arrayContaining(['text', 'sms', 'chat']));
    expect(familyOf('favorite')).toEqual(expect.arrayContaining(['star', 'bookmark']));
    expect(familyOf('balance')).toEqual(expect.arrayContaining(['funds', 'money']));
    expect(familyOf('payout')).toEqual(expect.arrayContaining(['transfer', 'withdraw']));
    expect(familyOf('user')).toEqual(expect.arrayContaining(['member', 'people', 'account']));
    expect(familyOf('delete')).toEqual(expect.arrayContaining(['revoke']));
    expect(familyOf('server')).toEqual(expect.arrayContaining(['instance', 'machine', 'vm']));
    expect(familyOf('disk')).toEqual(expect.arrayContaining(['volume']));
    expect(familyOf('region')).toEqual(expect.arrayContaining(['datacenter', 'zone']));
  });
  it('VERB_FAMILY_COUNT splits the actions from the things', () => {
    const actions = FAMILIES.slice(0, VERB_FAMILY_COUNT).flat();
    const things = FAMILIES.slice(VERB_FAMILY_COUNT).flat();
    for (const verb of ['create', 'delete', 'list', 'get', 'update', 'search', 'cancel', 'run', 'send']) expect(actions, verb).toContain(verb);
    for (const noun of ['user', 'message', 'channel', 'balance', 'tag']) {
      expect(things, noun).toContain(noun);
      expect(actions, noun).not.toContain(noun);
    }
  });
  it('phrases are two words read as plain, non-stop words', () => {
    for (const [phrase, words] of Object.entries(PHRASES)) {
      expect(phrase).toMatch(/^[a-z]+ [a-z]+$/);
      expect(words.length, phrase).toBeGreaterThan(0);
      for (const w of words) expect(STOP_WORDS.has(w), `${phrase} -> ${w}`).toBe(false);
    }
    expect(PHRASES['logged in']).toEqual(['authenticated']);
  });
  it('filler words and their cues are single words, the filler no stop word (it would be gone already)', () => {
    expect(Object.keys(FILLER_AFTER).length).toBeGreaterThan(0);
    for (const [filler, cues] of Object.entries(FILLER_AFTER)) {
      expect(filler).toMatch(/^[a-z]+$/);
      expect(STOP_WORDS.has(filler), filler).toBe(false);
      for (const cue of cues) expect(cue, filler).toMatch(/^[a-z]+$/);
    }
  });
  it('verbs map to HTTP methods and path shapes; the caller\'s words name the caller', () => {
    expect(VERB_METHODS['create']).toContain('post');
    expect(VERB_METHODS['delete']).toEqual(['delete']);
    expect(VERB_METHODS['list']).toEqual(['get']);
    expect(VERB_SHAPES['list']).toBe('collection');
    expect(VERB_SHAPES['retrieve']).toBe('item');
    expect(CALLER_WORDS.has('my')).toBe(true);
    // every other scope is read off a catalog's paths (scopes.ts): no API's scope words here
    expect(CALLER_WORDS.has('org')).toBe(false);
  });
});
