#!/usr/bin/env node
// The `api-catalog` entry (the package's `bin`, dist/cli/index.js): turns on what must be on before any other
// module loads, then imports the command itself (./main.ts). ES module imports are all loaded before a module's
// first line runs, so a switch in a module that statically imports the CLI would come too late for those imports:
// this module imports nothing else statically, and the bundle (scripts/postbuild.mjs) keeps it that way, with every
// chunk of the CLI loaded by the import() below.
import module from 'node:module';

// Node >= 22.1 can keep V8's compiled code of the bundle's chunks on disk (in the OS temp folder) and reuse it on
// the next spawn: desktop clients start the server for every session. Node 20 has no such API, so this does
// nothing there (where every number in docs/BENCHMARKS.md was taken: its effect is not measured here).
// NODE_DISABLE_COMPILE_CACHE=1 turns it off.
(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();

// The built CLI is one esbuild bundle: a stack trace is printed only with --verbose, and then it points into src/
// through the source maps of every chunk. Off otherwise, because Node reads every chunk's map when source maps are
// on, which would cost every start (NODE_OPTIONS=--enable-source-maps turns them on too).
if (process.argv.includes('--verbose')) process.setSourceMapsEnabled(true);

await import('./main.js');
