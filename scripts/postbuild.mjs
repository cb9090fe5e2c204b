// Second half of `npm run build` (after tsc has type-checked and emitted dist/): bundles the CLI with esbuild
// into dist/cli/index.js (the `bin`) plus lazily loaded chunks under dist/cli/chunks/, so that a client spawning
// the server pays for one small entry file and the chunks its first answers need instead of resolving and
// parsing hundreds of node_modules files. The rest of dist/ stays tsc's per-module output (tests, benchmarks and
// library users import it). Dynamic import() boundaries survive as chunks (ESM + splitting). The entry
// (src/cli/index.ts) imports nothing of ours statically: it turns on the compile cache and, with --verbose, source
// maps, then import()s the command (src/cli/main.ts), so every chunk loads after those switches.
import { build } from 'esbuild';
import { chmodSync, existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { usage } from './lib/usage.mjs';

usage(import.meta.url);

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = fileURLToPath(new URL('../dist/cli/', import.meta.url));
if (!existsSync(`${outdir}index.js`)) {
  console.error('postbuild: dist/cli/index.js is missing; did tsc fail?');
  process.exit(1);
}
rmSync(`${outdir}chunks`, { recursive: true, force: true });

/**
 * The MCP SDK's server imports its runtime shim at load, and the Node shim imports the SDK's bundled Ajv (~290 KB
 * of JS) only to offer a default JSON Schema validator; our servers always pass their own lazily built one
 * (src/server/server-setup.ts). In the bundle the shim is replaced by this module with the same exports, whose
 * validator requires the SDK's Ajv build (CommonJS) when one is constructed: Ajv then stays out of every start.
 * Same class, same behaviour.
 */
const lazySdkAjvShim = {
  name: 'lazy-sdk-ajv-shim',
  setup(b) {
    b.onLoad({ filter: /@modelcontextprotocol[\\/]server[\\/]dist[\\/]shimsNode\.mjs$/ }, () => ({
      loader: 'js',
      contents: [
        "import { createRequire } from 'node:module';",
        "import process from 'node:process';",
        'export class DefaultJsonSchemaValidator {',
        "  constructor(ajv) { this.inner = new (createRequire(import.meta.url)('@modelcontextprotocol/server/validators/ajv').AjvJsonSchemaValidator)(ajv); }",
        '  getValidator(schema) { return this.inner.getValidator(schema); }',
        '}',
        'export { process };',
      ].join('\n'),
    }));
  },
};
/**
 * The search engine (src/search) loads on demand in the bundle: src/server/core/search-engine.ts (a plain import of
 * it, for tsc's dist/, tests and library users) is replaced by search-engine-lazy.ts (same exports), so that `serve`
 * answers initialize and tools/list before the engine's modules load (main.ts loads it first for other commands).
 */
const lazySearchEngine = {
  name: 'lazy-search-engine',
  setup(b) {
    b.onResolve({ filter: /[\\/]search-engine\.js$/ }, () => ({ path: fileURLToPath(new URL('../src/server/core/search-engine-lazy.ts', import.meta.url)) }));
  },
};
const result = await build({
  absWorkingDir: root,
  // The worker thread that builds a reloaded catalog set's search index is started from a file, so it is an entry
  // of its own: dist/cli/index-worker.js (src/server/core/index-thread.ts looks for it beside the module that starts
  // it, or one folder up from a chunk). What it shares with the CLI lands in common chunks.
  entryPoints: { index: 'src/cli/index.ts', 'index-worker': 'src/server/core/index-worker.ts' },
  outdir,
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Stack traces stay readable: the entry turns source maps on for --verbose before any chunk loads (or
  // NODE_OPTIONS=--enable-source-maps).
  sourcemap: true,
  // The package's own sources are in the maps; node_modules' are not (smaller maps, faster to read on a stack trace).
  sourcesContent: false,
  legalComments: 'none',
  minify: true,
  logLevel: 'warning',
  metafile: true,
  plugins: [lazySdkAjvShim, lazySearchEngine],
  // CommonJS dependencies call require() for Node built-ins; give each ESM chunk a real one.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
});
const bytes = Object.entries(result.metafile.outputs).filter(([f]) => f.endsWith('.js')).reduce((n, [, o]) => n + o.bytes, 0);
// Makes the bin executable so `npm link` / the `bin` entry works after `npm run build`.
chmodSync(`${outdir}index.js`, 0o755);
console.error(`postbuild: bundled the CLI into dist/cli/index.js + chunks (${(bytes / 1024 / 1024).toFixed(1)} MB of JS)`);
