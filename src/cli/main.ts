// The `api-catalog` command: dispatches to one module per subcommand under src/cli/. src/cli/ is the only
// place that reads argv, writes to stdout/stderr for people, or sets the exit code; everything it calls is
// a library function that returns or throws. Loaded by the entry, ./index.ts, once it has set up the compile cache
// and (with --verbose) source maps: this module's own imports come after that.
import { AppError } from '../errors.js';
import { mark } from '../startup-marks.js';
import { answerProbe, probeEligible } from './probe.js';
import { loadSearchEngine } from '../server/core/search-engine.js';

type Subcommand = { summary: string; load: () => Promise<{ run(argv: string[]): Promise<number> }> };

const SUBCOMMANDS: Record<string, Subcommand> = {
  serve: { summary: 'run the MCP server (stdio by default, --http for Streamable HTTP)', load: () => import('./serve.js') },
  import: { summary: 'import an OpenAPI spec (file or URL) into a registry', load: () => import('./import.js') },
  domains: { summary: 'list the domains of a catalog', load: () => import('./domains.js') },
  search: { summary: 'search operations: api-catalog search "<query>"', load: () => import('./search.js') },
  describe: { summary: 'describe operations: api-catalog describe <name> [--detail]', load: () => import('./describe.js') },
  call: { summary: "call an operation: api-catalog call <name> --args '{...}' [--dry-run]", load: () => import('./call.js') },
  embed: { summary: 'compute operation vectors with an embeddings endpoint: api-catalog embed --registry <dir>', load: () => import('./embed.js') },
  eval: { summary: 'measure search quality: api-catalog eval <queries.jsonl>', load: () => import('./eval.js') },
  token: { summary: 'make a named bearer token for serve --tokens: api-catalog token new <name> [--scopes ...]', load: () => import('./token.js') },
  'suggest-overlay': { summary: 'propose overlay keywords for missed queries: --queries <file.jsonl>', load: () => import('./suggest-overlay.js') },
};

/**
 * Names a newcomer types from the MCP docs (the four tools, or a verb of theirs) and the command that does the same
 * here: `list_domains` is `domains`. Written with `_`; `list-domains`, `Search_Tools` are looked up the same way.
 * Only "did you mean": the commands keep one name each (docs/CLI.md).
 */
const COMMAND_FOR_TOOL: Record<string, string> = {
  list_domains: 'domains',
  search_tools: 'search',
  describe_tools: 'describe',
  execute_tool: 'call',
  execute: 'call',
  exec: 'call',
  run: 'call',
};

/** The hint after `unknown command "<name>"`: the command for an MCP tool's name, else the nearest command's name. */
async function unknownCommandHint(name: string): Promise<string> {
  const key = name.toLowerCase().replace(/-/g, '_');
  const command = Object.hasOwn(COMMAND_FOR_TOOL, key) ? COMMAND_FOR_TOOL[key] : undefined;
  if (command !== undefined) {
    const tool = Object.keys(COMMAND_FOR_TOOL).find((t) => COMMAND_FOR_TOOL[t] === command) as string;
    return key === tool
      ? ` (did you mean ${command}? ${key} is the MCP tool's name; at the command line it is \`api-catalog ${command}\`)`
      : ` (did you mean ${command}? \`api-catalog ${command}\` does what the MCP tool ${tool} does)`;
  }
  const { didYouMean } = await import('./args.js');
  return didYouMean(name, Object.keys(SUBCOMMANDS));
}

function usage(): string {
  const width = Math.max(...Object.keys(SUBCOMMANDS).map((k) => k.length));
  const lines = Object.entries(SUBCOMMANDS).map(([k, v]) => `  ${k.padEnd(width)}  ${v.summary}`);
  return [
    'usage: api-catalog <command> [options]',
    '',
    'commands:',
    ...lines,
    '',
    'With no command, `api-catalog` serves the embedded GitHub catalog over stdio.',
    'Run `api-catalog <command> --help` for the options of a command.',
    // every command takes it (src/cli/args.ts), so it is said once here rather than in each command's --help
    'Every command also takes --verbose: a stack trace, pointing into src/, beside an error.',
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  // Start-up phases for the benchmark's table (serve prints them with API_CATALOG_STARTUP_TRACE=1).
  mark('cli');
  const [first, ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') {
    process.stdout.write(usage() + '\n');
    return 0;
  }
  if (first === '--version' || first === '-v') {
    // the package's package.json: two folders up from src/cli/ or tsc's dist/cli/, three from the bundle's dist/cli/chunks/
    const { createRequire } = await import('node:module');
    const up = import.meta.url.includes('/dist/cli/chunks/') ? '../../../' : '../../';
    const pkg = createRequire(import.meta.url)(`${up}package.json`) as { version: string };
    process.stdout.write(pkg.version + '\n');
    return 0;
  }
  const name = first === undefined || first.startsWith('-') ? 'serve' : first;
  const args = first === undefined || first.startsWith('-') ? argv : rest;
  const sub = SUBCOMMANDS[name];
  if (!sub) {
    process.stderr.write(`api-catalog: unknown command ${JSON.stringify(name)}${await unknownCommandHint(name)}; run \`api-catalog --help\` for the commands\n`);
    return 2;
  }
  if (name !== 'serve') {
    // `api-catalog search ... | head`: a reader that stops early is not an error (serve's stdio transport
    // handles its own stdout lifecycle).
    process.stdout.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(0);
      throw err;
    });
  }
  // a v2 client's stdio probe (server/discover, then disposed of) is answered before the server loads (probe.ts)
  if (name === 'serve' && process.stdin.isTTY !== true && probeEligible(args, process.env)) {
    if ((await answerProbe(process.stdin, process.stdout)) === 'answered') process.exit(0);
  }
  // another learned ranking build (npm run learn -- --out <dir>) for every command that searches
  const semanticDir = process.env['API_CATALOG_SEMANTIC_DIR'];
  if (semanticDir) (await import('../search/semantic.js')).useSemanticDir(semanticDir);
  // serve's first answers never search: in the bundle the search engine loads after them (search-engine-lazy.ts);
  // every other command has it before it runs
  if (name !== 'serve') await loadSearchEngine();
  const mod = await sub.load();
  return mod.run(args);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    const verbose = process.argv.includes('--verbose');
    // A mistake on the command line: one line, exit 2 (UsageError, src/cli/args.ts).
    if ((err as { usage?: unknown }).usage === true && err instanceof AppError) {
      process.stderr.write(`api-catalog ${err.message}\n`);
      process.exitCode = 2;
      return;
    }
    if (err instanceof AppError) {
      process.stderr.write(`api-catalog: ${err.message}\n`);
    } else {
      process.stderr.write(`api-catalog: unexpected error: ${err instanceof Error ? err.message : String(err)}\n`);
    }
    if (verbose && err instanceof Error && err.stack) process.stderr.write(err.stack + '\n');
    process.exitCode = 1;
  },
);
