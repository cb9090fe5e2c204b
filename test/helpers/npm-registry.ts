// A stand-in for the npm registry on loopback, so the package test installs with npm itself and nothing from the
// internet: it serves a packument and a tarball for every package the project's lockfile lists as a runtime
// dependency (not dev), packed from the copy npm ci put in node_modules (GNU tar + gzip, as `npm pack` lays them
// out: `package/...`). Anything else is 404, so an install that needs more than the lockfile's runtime
// dependencies fails. Test-only.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

export interface TestNpmRegistry {
  /** `http://127.0.0.1:<port>/`. */
  url: string;
  /** Package names asked for that it does not have (npm skips optional ones it cannot get). */
  misses: string[];
  close(): Promise<void>;
}

interface Version {
  manifest: Record<string, unknown>;
  file: string;
}

/** Packs the runtime dependencies of `root` (its package-lock.json and node_modules) into `dir` and serves them. */
export async function startNpmRegistry(root: string, dir: string): Promise<TestNpmRegistry> {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean; devOptional?: boolean; link?: boolean }> };
  const packages = new Map<string, Map<string, Version>>();
  mkdirSync(dir, { recursive: true });
  let n = 0;
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.dev === true || entry.devOptional === true || entry.link === true) continue;
    const folder = join(root, path);
    const pkg = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Record<string, unknown> & { name: string; version: string };
    const versions = packages.get(pkg.name) ?? new Map<string, Version>();
    if (versions.has(pkg.version)) continue;
    const file = join(dir, `${n++}.tgz`);
    // the package folder as `package/...`, without the dependencies nested under it
    const r = spawnSync('tar', ['-czf', file, '--exclude=./node_modules', '--transform=s,^\\.,package,', '-C', folder, '.'], { encoding: 'utf8' });
    if (r.error !== undefined) throw new Error(`tar is not installed (\`apt-get install tar\`): ${r.error.message}`);
    if (r.status !== 0) throw new Error(`tar failed for ${path}: ${r.stderr}`);
    versions.set(pkg.version, { manifest: pkg, file });
    packages.set(pkg.name, versions);
  }
  const misses: string[] = [];
  let base = '';
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname.slice(1));
    const tarball = /^-\/(\d+)\.tgz$/.exec(path);
    if (tarball) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(readFileSync(join(dir, `${tarball[1]}.tgz`)));
      return;
    }
    const versions = packages.get(path);
    if (versions === undefined) {
      misses.push(path);
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"not found"}');
      return;
    }
    const out: Record<string, unknown> = {};
    let latest = '';
    for (const [version, v] of versions) {
      const bytes = readFileSync(v.file);
      out[version] = {
        ...v.manifest,
        dist: {
          tarball: `${base}-/${v.file.slice(v.file.lastIndexOf('/') + 1)}`,
          integrity: `sha512-${createHash('sha512').update(bytes).digest('base64')}`,
          shasum: createHash('sha1').update(bytes).digest('hex'),
        },
      };
      latest = version;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ name: path, 'dist-tags': { latest }, versions: out }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url: base,
    misses,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
