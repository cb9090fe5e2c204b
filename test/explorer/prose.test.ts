// Descriptions without their Markdown (src/server/explorer/prose.ts): code spans and emphasis keep their words,
// identifiers stay whole, links keep their text (and an http(s) address, never another scheme), bullet lines become
// list items, and whatever the text holds comes out escaped.
import { describe, expect, test } from 'vitest';
import { blocks, plainText, prose, proseLine } from '../../src/server/explorer/prose.js';

describe('prose', () => {
  test('inline markup goes, the words stay; identifiers and lone markers are left alone', () => {
    expect(plainText('Returns `410 Gone` when _disabled_, see **Rate limits** or *this*.')).toBe('Returns 410 Gone when disabled, see Rate limits or this.');
    expect(plainText('The `issue_field_values` and file_name fields; 2 * 3 * 4; a_b_c')).toBe('The issue_field_values and file_name fields; 2 * 3 * 4; a_b_c');
    expect(plainText('_NOTE: Only users with push access can set it._')).toBe('NOTE: Only users with push access can set it.');
    expect(plainText('``a `tick` inside``')).toBe('a `tick` inside');
    expect(plainText('in code `_not emphasis_` stays')).toBe('in code _not emphasis_ stays');
  });

  test('links keep their text and only an http(s) address', () => {
    expect(plainText('See [the docs](https://docs.example.com/x "title").')).toBe('See the docs (https://docs.example.com/x).');
    expect(plainText('Click [here](javascript:alert(1)) or [there](/relative).')).toBe('Click here or there.');
    expect(plainText('<https://example.com/a>')).toBe('https://example.com/a');
  });

  test('paragraphs and lists; everything escaped', () => {
    const text = 'Intro line\nwraps here.\n\n- `a`: first\n  continues\n- <b>second</b>\n\n1. one\n2. two\n\n## Heading';
    expect(blocks(text)).toEqual([
      { kind: 'p', text: 'Intro line wraps here.' },
      { kind: 'ul', items: ['a: first continues', '<b>second</b>'] },
      { kind: 'ol', items: ['one', 'two'] },
      { kind: 'p', text: 'Heading' },
    ]);
    expect(prose(text).text).toBe('<p>Intro line wraps here.</p><ul><li>a: first continues</li><li>&lt;b&gt;second&lt;/b&gt;</li></ul><ol><li>one</li><li>two</li></ol><p>Heading</p>');
    expect(proseLine('Pick one:\n- `a`\n- b')).toBe('Pick one: a; b');
    expect(prose('<script>alert(1)</script> & "q"').text).toBe('<p>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;q&quot;</p>');
  });
});
