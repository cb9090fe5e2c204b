// package.json's `engines` says what the installed dependencies need: the lowest Node version it admits satisfies
// the `engines` of every package in package-lock.json that npm installs (optional platform builds aside), so
// `npm install` prints no EBADENGINE warning on any Node it claims to support.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../helpers/mcp.js';

const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

interface LockPackage {
  version?: string;
  engines?: { node?: string } | string[];
  optional?: boolean;
  dev?: boolean;
}

describe('engines', () => {
  const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockPackage> };
  const lowest = semver.minVersion(pkg.engines.node)!.version;

  it('the lowest Node that package.json admits satisfies every installed dependency', () => {
    const unmet: string[] = [];
    for (const [path, p] of Object.entries(lock.packages)) {
      const range = !Array.isArray(p.engines) ? p.engines?.node : undefined;
      if (path === '' || p.optional === true || range === undefined) continue;
      if (!semver.satisfies(lowest, range)) unmet.push(`${path.replace(/^node_modules\//, '')}@${p.version} wants node ${range}`);
    }
    expect(unmet, `engines.node is ${pkg.engines.node} (lowest ${lowest})`).toEqual([]);
  });

  it('and this Node is one of them (the tests run on a supported version)', () => {
    expect(semver.satisfies(process.versions.node, pkg.engines.node)).toBe(true);
  });
});
