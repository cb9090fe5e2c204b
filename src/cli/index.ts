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

// SIGTERM, SIGINT and SIGHUP before `serve` listens (the 0.1-0.3 s of loading the CLI) would end the process
// without a word, as nothing listens yet: for serve, each is noted here and handed to serve (early-signals.ts), which
// acts on it as on any signal during its start-up. A second SIGTERM/SIGINT meanwhile exits at once, as it would later.
const command = process.argv[2];
if (command === undefined || command === 'serve' || (command.startsWith('-') && !['--help', '-h', '--version', '-v'].includes(command))) {
  const early: { signals: NodeJS.Signals[]; listeners: Array<[NodeJS.Signals, () => void]> } = { signals: [], listeners: [] };
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    const listener = (): void => {
      if (signal !== 'SIGHUP' && early.signals.some((s) => s !== 'SIGHUP')) process.exit(signal === 'SIGINT' ? 130 : 143);
      early.signals.push(signal);
    };
    process.on(signal, listener);
    early.listeners.push([signal, listener]);
  }
  (globalThis as Record<symbol, unknown>)[Symbol.for('api-catalog.early-signals')] = early;
}

await import('./main.js');
