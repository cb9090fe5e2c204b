// Second half of `npm run build` (after tsc has type-checked and emitted dist/): bundles the CLI with esbuild
// into dist/cli/index.js (the `bin`) plus lazily loaded chunks under dist/cli/chunks/, so that a client spawning
// the server pays for one small entry file and the chunks its first answers need instead of resolving and
// parsing hundreds of node_modules files. The rest of dist/ stays tsc's per-module output (tests, benchmarks and
// library users import it). Dynamic import() boundaries survive as chunks (ESM + splitting).
import { build } from 'esbuild';
import { chmodSync, existsSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = fileURLToPath(new URL('../dist/cli/', import.meta.url));
if (!existsSync(`${outdir}index.js`)) {
  console.error('postbuild: dist/cli/index.js is missing; did tsc fail?');
  process.exit(1);
}
rmSync(`${outdir}chunks`, { recursive: true, force: true });

/**
 * The MCP SDK's Server imports its Ajv provider at load only to build a default validator, and the server always
 * passes its own (src/server/create-server.ts, which loads Ajv on the first elicitation). In the bundle that
 * import is replaced by this module with the same export, which requires the SDK's provider (CommonJS build)
 * when one is constructed: Ajv (~250 KB of JS) then stays out of every start. Same class, same behaviour.
 */
const lazySdkAjvProvider = {
  name: 'lazy-sdk-ajv-provider',
  setup(b) {
    b.onLoad({ filter: /@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]validation[\\/]ajv-provider\.js$/ }, () => ({
      loader: 'js',
      contents: [
        "import { createRequire } from 'node:module';",
        'export class AjvJsonSchemaValidator {',
        "  constructor(ajv) { this.inner = new (createRequire(import.meta.url)('@modelcontextprotocol/sdk/validation/ajv').AjvJsonSchemaValidator)(ajv); }",
        '  getValidator(schema) { return this.inner.getValidator(schema); }',
        '}',
      ].join('\n'),
    }));
  },
};
const result = await build({
  absWorkingDir: root,
  entryPoints: { index: 'src/cli/index.ts' },
  outdir,
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Stack traces stay readable: the CLI turns source maps on for --verbose (or NODE_OPTIONS=--enable-source-maps).
  sourcemap: true,
  // The package's own sources are in the maps; node_modules' are not (smaller maps, faster to read on a stack trace).
  sourcesContent: false,
  legalComments: 'none',
  minify: true,
  logLevel: 'warning',
  metafile: true,
  plugins: [lazySdkAjvProvider],
  // CommonJS dependencies call require() for Node built-ins; give each ESM chunk a real one.
  banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
});
const bytes = Object.entries(result.metafile.outputs).filter(([f]) => f.endsWith('.js')).reduce((n, [, o]) => n + o.bytes, 0);
// Makes the bin executable so `npm link` / the `bin` entry works after `npm run build`.
chmodSync(`${outdir}index.js`, 0o755);
console.error(`postbuild: bundled the CLI into dist/cli/index.js + chunks (${(bytes / 1024 / 1024).toFixed(1)} MB of JS)`);
