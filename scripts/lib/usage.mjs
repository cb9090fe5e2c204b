// --help and unknown options for the repository's scripts (npm run docs, search:check, learn:mappings, ...). The
// usage text is the script's opening comment, so what a script says it does and its code sit together.
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The opening `//` comment of a script (after any #! line), without the comment marks. */
export function openingComment(file) {
  const out = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (out.length === 0 && line.startsWith('#!')) continue;
    if (!line.startsWith('//')) break;
    out.push(line.replace(/^\/\/ ?/, ''));
  }
  return out.join('\n');
}

/** True when the script at `scriptUrl` is the one node was started with (not imported by another). */
export function isMain(scriptUrl) {
  return process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(scriptUrl);
}

/**
 * The first thing a script does. `--help` or `-h`: prints its opening comment, exit 0. An option it does not take
 * (`known`: the options it reads; words without a leading dash pass; `null`: options pass through to another
 * command): one line naming it, exit 2. Otherwise nothing; nothing either when the script is imported by another
 * (the arguments are then the other's).
 */
export function usage(scriptUrl, known = [], argv = process.argv.slice(2)) {
  const file = fileURLToPath(scriptUrl);
  if (!isMain(scriptUrl)) return;
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${openingComment(file)}\n`);
    process.exit(0);
  }
  if (known === null) return;
  const unknown = argv.find((a) => a.startsWith('-') && !known.includes(a.split('=')[0]));
  if (unknown !== undefined) {
    const takes = known.length > 0 ? `it takes ${known.join(', ')}` : 'it takes none';
    process.stderr.write(`${basename(file, '.mjs')}: unknown option ${unknown} (${takes}); --help says what it does\n`);
    process.exit(2);
  }
}
