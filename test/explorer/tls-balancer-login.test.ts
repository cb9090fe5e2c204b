// The explorer's login through the balancers DEPLOY.md prescribes, terminating TLS: deploy/nginx.conf and
// deploy/haproxy.cfg as shipped, with only the listen address made a TLS one (a throwaway certificate) and the
// replica address set. A browser's form POST carries the page's own Origin (https://<name>:<port>), which must pass,
// and the balancer's X-Forwarded-Proto must make the login cookie Secure. Real nginx and HAProxy (fails, never skips,
// when one is missing), a real replica on 127.0.0.1.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { COOKIE_NAME } from '../../src/server/explorer/index.js';
import { serveHttp, type HttpHandle } from '../../src/server/transports/http.js';
import { haproxyConfig, nginxConfig, type BalancerKind } from '../helpers/balancer.js';
import { catalogs, fixtureRegistry } from '../helpers/mcp.js';
import { freePort, portOpen } from '../helpers/redis.js';
import { tempDir } from '../helpers/temp.js';
import { makeCertificates, type TestCertificates } from '../helpers/tls.js';
import { until } from '../helpers/timing.js';

const STATIC = 'tls-balancer-static-token-3e9b07';
let certs: TestCertificates;
let replica: HttpHandle;

beforeAll(async () => {
  certs = makeCertificates();
  // the name clients use through the balancer, as DEPLOY.md's recipe sets it
  replica = await serveHttp(
    { catalogs: catalogs(fixtureRegistry('petstore')), settings: { baseUrls: {}, readOnly: false, env: {} }, rateLimitPerMinute: 0 },
    { port: 0, explorer: true, authToken: STATIC, allowHosts: ['localhost'] },
  );
});
afterAll(async () => {
  await replica?.close();
  certs?.remove();
});

/** The balancer's binary; fails with the package to install when it is missing. */
function binary(kind: BalancerKind): string {
  const found = spawnSync('sh', ['-c', `command -v ${kind} || ls /usr/sbin/${kind} 2>/dev/null | head -1`], { encoding: 'utf8' });
  const path = found.stdout.trim().split('\n')[0];
  if (!path) throw new Error(`${kind} is not installed: \`apt-get install ${kind}\`; this test needs a real balancer`);
  return path;
}

interface Running {
  port: number;
  stop(): Promise<void>;
}

/** The shipped config with a TLS listener on a free port in front of the replica, run in the foreground. */
async function startTlsBalancer(kind: BalancerKind): Promise<Running> {
  const port = await freePort();
  const dir = tempDir(`ac-tls-${kind}-`);
  let args: string[];
  if (kind === 'nginx') {
    mkdirSync(join(dir, 'tmp'), { recursive: true });
    const config = nginxConfig(port, [replica.port]).replace(
      `listen 127.0.0.1:${port};`,
      `listen 127.0.0.1:${port} ssl;\n    ssl_certificate ${certs.cert};\n    ssl_certificate_key ${certs.key};`,
    );
    expect(config).toContain(`${port} ssl;`);
    writeFileSync(join(dir, 'nginx.conf'), config);
    args = ['-c', join(dir, 'nginx.conf'), '-p', `${dir}/`];
  } else {
    const pem = join(dir, 'server.pem');
    writeFileSync(pem, readFileSync(certs.cert, 'utf8') + readFileSync(certs.key, 'utf8'));
    const config = haproxyConfig(port, [replica.port]).replace(`bind 127.0.0.1:${port}`, `bind 127.0.0.1:${port} ssl crt ${pem}`);
    expect(config).toContain(`${port} ssl crt`);
    writeFileSync(join(dir, 'haproxy.cfg'), config);
    args = ['-f', join(dir, 'haproxy.cfg'), '-db'];
  }
  const child: ChildProcess = spawn(binary(kind), args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.stderr?.on('data', (d: Buffer) => (out += d.toString('utf8')));
  child.on('error', (err) => (out += String(err)));
  await until(async () => child.exitCode !== null || (await portOpen(port)), `${kind} listening on ${port}`);
  if (child.exitCode !== null) throw new Error(`${kind} did not start: ${out}`);
  return {
    port,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise<void>((r) => child.once('exit', () => r()));
        child.kill('SIGTERM');
        await exited;
      }
    },
  };
}

/** One https request to the balancer as a browser at https://localhost:<port>/ sends it. */
function viaBalancer(port: number, method: string, path: string, headers: Record<string, string>, body = ''): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', servername: 'localhost', port, method, path, ca: readFileSync(certs.ca), headers: { host: `localhost:${port}`, ...headers }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe.each(['nginx', 'haproxy'] as const)('the explorer behind %s terminating TLS', (kind) => {
  test('the login form posted from the page’s own origin passes, and the cookie is Secure', async () => {
    const lb = await startTlsBalancer(kind);
    try {
      const origin = `https://localhost:${lb.port}`;
      const form = { 'content-type': 'application/x-www-form-urlencoded', origin };
      const page = await viaBalancer(lb.port, 'GET', '/', { accept: 'text/html' });
      expect(page.status).toBe(401);
      expect(page.body).toContain('action="/explorer/login"');
      const r = await viaBalancer(lb.port, 'POST', '/explorer/login', form, new URLSearchParams({ token: STATIC, next: '/?q=pet' }).toString());
      expect(r.status, r.body).toBe(303);
      expect(r.headers.location).toBe('/?q=pet');
      const cookie = String(r.headers['set-cookie']);
      expect(cookie).toMatch(new RegExp(`^${COOKIE_NAME}=[^;]+;.*; Secure$`));
      // the cookie opens the explorer; its dry-run form and logout, posted from the same page, pass as well
      const session = cookie.split(';')[0] as string;
      expect((await viaBalancer(lb.port, 'GET', '/?q=pet', { accept: 'text/html', cookie: session })).status).toBe(200);
      expect((await viaBalancer(lb.port, 'POST', '/explorer/dry-run', { ...form, cookie: session }, 'tool=pets.get&args=%7B%22petId%22%3A1%7D')).status).toBe(303);
      expect((await viaBalancer(lb.port, 'POST', '/explorer/logout', { ...form, cookie: session })).status).toBe(303);
    } finally {
      await lb.stop();
    }
  });
});
