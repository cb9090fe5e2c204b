// Log redaction takes secrets, not configuration (audit 11, defect 4). An env var named like a credential but saying
// where something is (API_CATALOG_OAUTH_ISSUER, API_CATALOG_TOKENS_FILE) stays readable: the issuer URL and the
// tokens file path are what an operator must read to fix a mistake. A URL's password is a secret, the URL is not. A
// short secret (a Redis password like `WRONG`) is not replaced inside ordinary words, where each replacement would
// show what it is (`[REDACTED]PASS`), only where a credential stands. The last test runs the built CLI against a
// real redis-server. Needs `npm run build`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { secretLookingEnv } from '../../src/config.js';
import { createLogger, redact } from '../../src/logger.js';
import { newToken } from '../../src/server/auth/tokens.js';
import { fixtureRegistry } from '../helpers/mcp.js';
import { freePort, startRedis } from '../helpers/redis.js';
import { startReplica, type Replica } from '../helpers/replicas.js';
import { tempDir } from '../helpers/temp.js';
import { events, until } from '../ops/helpers.js';

test('secretLookingEnv: credential-named values and URL passwords, never locations', () => {
  const secrets = secretLookingEnv({
    API_CATALOG_OAUTH_ISSUER: 'https://auth.example.com/realms/agents',
    API_CATALOG_TOKENS_FILE: '/etc/api-catalog/tokens.txt',
    GITHUB_TOKEN_PATH: '/run/secrets/github-token',
    AUTH_CALLBACK_URL: 'https://app.example.com/oauth/callback',
    API_CATALOG_STATE: 'redis://:hunter2@redis.internal:6379/0',
    DATABASE_URL: 'postgres://app:s3cr%40t-pass@db.internal/app',
    SHOP_API_KEY: 'CANARY-shopkey-7f3a',
    API_CATALOG_HTTP_TOKEN: 'a-long-shared-token-value',
    HOME: '/root',
    // a location named like a credential: the URL stays readable, a token in its user name or query does not
    GIT_AUTH_URL: 'https://ghp-user-token-0123@git.example.com/org/repo.git',
    HOOK_TOKEN_URL: 'https://hooks.example.com/in?access_token=tok-in-query-99&x=1',
  });
  expect(secrets.sort()).toEqual(
    ['CANARY-shopkey-7f3a', 'a-long-shared-token-value', 'hunter2', 's3cr%40t-pass', 's3cr@t-pass', 'ghp-user-token-0123', 'tok-in-query-99'].sort(),
  );
});

test('a short secret is replaced where a credential stands, never inside ordinary words', () => {
  const lines: Array<Record<string, any>> = [];
  const log = createLogger({ write: (l) => lines.push(JSON.parse(l) as Record<string, any>) });
  log.addSecret('WRONG');
  log.addSecret('redis');
  log.log('warn', {
    event: 'state_store_down',
    store: 'redis',
    detail: 'authentication failed (WRONGPASS): Redis refused the password; the word WRONG alone is also a word',
    url: 'redis://:WRONG@127.0.0.1:6379/0 and redis://default:redis@host:1',
    header: 'Authorization: Bearer WRONG',
    query: 'password=WRONG&x=1',
    upstream: 'GET /v1/things?access_token=WRONG&api_key=WRONG -H x-api-key: WRONG',
  });
  expect(lines[0]).toEqual({
    ts: expect.any(String),
    level: 'warn',
    event: 'state_store_down',
    store: 'redis',
    detail: 'authentication failed (WRONGPASS): Redis refused the password; the word WRONG alone is also a word',
    url: 'redis://:[REDACTED]@127.0.0.1:6379/0 and redis://default:[REDACTED]@host:1',
    header: 'Authorization: Bearer [REDACTED]',
    query: 'password=[REDACTED]&x=1',
    upstream: 'GET /v1/things?access_token=[REDACTED]&api_key=[REDACTED] -H x-api-key: [REDACTED]',
  });
  // 8 characters and more: replaced wherever they appear
  expect(redact('x-CANARY-1234-y', ['CANARY-1234'])).toBe('x-[REDACTED]-y');
});

test('serve: the issuer URL and the tokens file path are readable; a short wrong Redis password never shows, no word is redacted', async () => {
  const redis = await startRedis({ password: 'the-right-password-0c4e' });
  const dir = tempDir('ac-redaction-');
  const tokensFile = join(dir, 'tokens.txt');
  // readable by others: the server warns, naming the file
  writeFileSync(tokensFile, `${newToken('alice', ['catalog:read']).line}\n`, { mode: 0o644 });
  const issuer = `http://127.0.0.1:${await freePort()}/realms/agnets`;
  let r: Replica | undefined;
  try {
    r = await startReplica(
      ['--registry', fixtureRegistry('petstore')],
      {
        API_CATALOG_OAUTH_ISSUER: issuer,
        API_CATALOG_TOKENS_FILE: tokensFile,
        API_CATALOG_STATE: `redis://:WRONG@127.0.0.1:${redis.port}/0`,
        API_CATALOG_LOG_LEVEL: 'info',
      },
      { healthy: false },
    );
    const stderr = r.stderr;
    await until(() => events(stderr(), 'state_store_down').length > 0 && events(stderr(), 'readiness_changed').some((e) => JSON.stringify(e).includes('oauth')), 'the store and issuer verdicts');
    writeFileSync(tokensFile, 'alice catalog:read\n');
    await until(() => events(stderr(), 'tokens_reload_failed').length > 0, 'the broken edit to be refused');
    const text = stderr();
    expect(events(text, 'tokens_file_mode')[0]).toMatchObject({ file: tokensFile });
    expect(events(text, 'tokens_reload_failed')[0]?.message).toContain(`--tokens ${tokensFile} line 1`);
    expect(JSON.stringify(events(text, 'readiness_changed'))).toContain(issuer);
    expect(events(text, 'state_store_down')[0]).toMatchObject({ store: 'redis', reason: 'auth', detail: expect.stringContaining('(WRONGPASS)') });
    expect(text).not.toContain('[REDACTED]');
    expect(text).not.toMatch(/\bWRONG\b/);
  } finally {
    await r?.stop();
    await redis.close();
  }
}, 60_000);
