// Redaction by pattern (src/secret-patterns.ts): a credential-shaped string that is not one of the server's own
// secrets never reaches a log line, the search log or the explorer's reading of it; ordinary log content (hashes,
// ids, paths, operation names, English queries) is left as it is. Token-shaped values are assembled at run time
// so that no committed file holds a string a secret scanner would flag.
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLogger, redact } from '../../src/logger.js';
import { redactSecretPatterns, secretRulesIn } from '../../src/secret-patterns.js';
import { logPage } from '../../src/server/explorer/report.js';
import { readSearchLog, SearchLog } from '../../src/server/search-log.js';
import { tempDir } from '../helpers/temp.js';

/** `n` random-looking characters of `alphabet` from a fixed seed (deterministic, like a real token body). */
function body(n: number, alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'): string {
  let x = 0x2545f491 ^ n;
  let s = '';
  while (s.length < n) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    s += alphabet[(x >>> 0) % alphabet.length];
  }
  return s;
}
const b64url = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');

// [rule, credential as pasted, what stays in clear before it, and after it]
const POSITIVE: Array<[string, string, string, string?]> = [
  ['github', `ghp_${body(36)}`, 'ghp_'],
  ['github', `ghs_${body(36)}`, 'ghs_'],
  ['github-fine-grained', `github_pat_${body(22)}_${body(59)}`, 'github_pat_'],
  ['stripe', `sk_live_${body(24)}`, 'sk_live_'],
  ['stripe', `rk_test_${body(24)}`, 'rk_test_'],
  ['stripe-webhook', `whsec_${body(32)}`, 'whsec_'],
  ['slack', `xoxb-${'1234567890'}-${'0987654321'}-${body(24)}`, 'xoxb-'],
  ['slack-webhook', `https://hooks.slack.com/services/T0000${body(4).toUpperCase()}/B0000${body(4).toUpperCase()}/${body(24)}`, 'https://hooks.slack.com/'],
  ['aws-access-key-id', `AKIA${body(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`, 'AKIA'],
  ['aws-secret-access-key', `aws_secret_access_key = ${body(40)}`, 'aws_secret_access_key = '],
  ['google-api-key', `AIza${body(35)}`, 'AIza'],
  ['anthropic', `sk-ant-api03-${body(40)}`, 'sk-ant-'],
  ['openai', `sk-proj-${body(40)}`, 'sk-'],
  ['sendgrid', `SG.${body(22)}.${body(43)}`, 'SG.'],
  ['gitlab', `glpat-${body(20)}`, 'glpat-'],
  ['npm', `npm_${body(36)}`, 'npm_'],
  ['huggingface', `hf_${body(34)}`, 'hf_'],
  ['jwt', `${b64url({ alg: 'RS256', typ: 'JWT' })}.${b64url({ sub: '1234567890', iss: 'https://idp.example' })}.${body(43)}`, ''],
  ['auth-scheme', `Bearer ${body(12)}`, 'Bearer '],
  ['auth-scheme', `token 0123abcd4567ef`, 'token '],
  ['url-userinfo', `redis://default:${body(12)}@cache.internal:6379`, 'redis://default:', '@cache.internal:6379'],
  ['credential-parameter', `https://api.example.com/v1/x?page=2&api_key=${body(20)}`, 'https://api.example.com/v1/x?page=2&api_key='],
  ['private-key', `-----BEGIN RSA PRIVATE KEY-----\n${body(64)}\n-----END RSA PRIVATE KEY-----`, ''],
  ['high-entropy', body(40), ''],
];

const NEGATIVE = [
  'delete a branch',
  'create a token for an installation',
  'revoke token permissions',
  'basic authentication settings',
  'Bearer tokens are accepted',
  'bearer authentication is required',
  'sk_live_mode is a flag name',
  'list issues assigned to me',
  'repos/create-or-update-file-contents',
  '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', // sha256 hex (content hashes)
  '3f2504e0-4f89-41d3-9a0c-0305e82c3301', // a UUID (request ids)
  '/work/wt/stranger/registry/github/operations/repos.json',
  'https://api.github.com/repos/octocat/hello-world/issues?per_page=100&page=2',
  'GET /repos/{owner}/{repo}/actions/runs/{run_id}/attempts/{attempt_number}/logs',
  'search_index built in 412 ms from registry/github/search.snapshot',
];

describe('redactSecretPatterns: the rule table', () => {
  it.each(POSITIVE)('%s: %s', (rule, credential, kept, after = '') => {
    const text = `please use ${credential} for this`;
    expect(secretRulesIn(text)).toContain(rule);
    const out = redactSecretPatterns(text);
    expect(out).toBe(`please use ${kept}[REDACTED]${after} for this`);
    const secretPart = credential.slice(kept.length, credential.length - after.length);
    expect(out).not.toContain(secretPart);
  });

  it.each(NEGATIVE)('leaves ordinary text alone: %s', (text) => {
    expect(secretRulesIn(text)).toEqual([]);
    expect(redactSecretPatterns(text)).toBe(text);
  });

  it('redacts every credential in a line, keeps the words around them', () => {
    const a = `ghp_${body(36)}`;
    const b = `xoxb-1234567890-${body(24)}`;
    expect(redactSecretPatterns(`${a} and ${b}`)).toBe('ghp_[REDACTED] and xoxb-[REDACTED]');
  });
});

describe('logs, the search log and the explorer\'s reading of it', () => {
  const dir = tempDir('ac-patterns-');
  const token = `ghp_${body(36)}`;

  it('a log line never carries a pasted token that is none of the server\'s secrets', () => {
    const lines: string[] = [];
    const logger = createLogger({ write: (l) => lines.push(l) });
    logger.log('info', { event: 'search', query: `delete a branch ${token}`, nested: { note: [`jwt ${POSITIVE.find((p) => p[0] === 'jwt')![1]}`] } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(token.slice(4));
    expect(JSON.parse(lines[0]!)).toMatchObject({ query: 'delete a branch ghp_[REDACTED]', nested: { note: ['jwt [REDACTED]'] } });
    expect(redact({ ok: 'list issues' })).toEqual({ ok: 'list issues' });
  });

  it('serve --search-log writes the query with the token redacted; the explorer reads it that way', () => {
    const file = join(dir, 'search.jsonl');
    const log = new SearchLog({ file });
    log.recordSearch('s1', { catalog: 'github', query: `delete a branch ${token}`, total: 1, results: [{ name: 'git/delete-ref', score: 1 }] });
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(token.slice(4));
    expect(text).toContain('delete a branch ghp_[REDACTED]');
    expect(readSearchLog(file).map((s) => s.query)).toEqual(['delete a branch ghp_[REDACTED]']);
  });

  it('the explorer\'s search-log page redacts a token left in an older log line', () => {
    const file = join(dir, 'old.jsonl');
    const line = { type: 'search', id: 'a1', time: '2026-11-01T00:00:00.000Z', session: 's', catalog: 'github', query: `delete a branch ${token}`, total: 0, results: [] };
    appendFileSync(file, JSON.stringify(line) + '\n');
    const page = logPage(file).body.toString();
    expect(page).toContain('delete a branch ghp_[REDACTED]');
    expect(page).not.toContain(token.slice(4));
  });
});
