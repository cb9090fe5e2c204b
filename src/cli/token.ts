// `api-catalog token new <name> [--scopes ...]`: makes a named bearer token for `serve --tokens <file>`. Prints the
// token (shown once, stored nowhere) and the file line that holds only its hash. Parsing and printing only.
import { didYouMean, parseCommand, UsageError } from './args.js';
import { ALL_SCOPES } from '../server/auth/metadata.js';
import { newToken, parseScopes, TOKEN_NAME_RE } from '../server/auth/tokens.js';

const USAGE = `usage: api-catalog token new <name> [--scopes catalog:read,catalog:execute]

Makes a bearer token for one client of \`serve --http --tokens <file>\`. stdout gets two lines:
  1. the token: give it to the client (Authorization: Bearer <token>); it is shown once and stored nowhere
  2. the tokens-file line: "<name> <scopes> sha256:<hash of the token>"; append it to the file, e.g.
       api-catalog token new ci-bot --scopes catalog:read | tee >(tail -1 >> tokens.txt) | head -1
The name is the client's principal: its sessions, describe handles, rate limits and audit lines are its own.
A running server re-reads the file when it changes; remove a line to revoke that token.
To rotate a client's token, run \`token new\` with the same name and append its line as well: both tokens
work (one principal) until you delete the old line, once the client uses the new token. To revoke a name,
delete every line that has it.

  --scopes <list>   comma-separated: catalog:read (list_domains, search_tools, describe_tools, resources),
                    catalog:execute (execute_tool); default both. Repeatable: the values add up
                    (--scopes catalog:read --scopes catalog:execute is both)`;

export async function run(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  // repeatable, as serve's list options are: a second --scopes adds to the first instead of replacing it; --verbose
  // is taken as by every command (src/cli/main.ts reads it for stack traces)
  const { values, positionals } = parseCommand('token', argv, { scopes: { type: 'string', multiple: true }, verbose: { type: 'boolean' } });
  const [action, name, extra] = positionals;
  if (action !== 'new') {
    throw new UsageError(`token: ${action === undefined ? 'missing the action' : `unknown action ${JSON.stringify(action)}`}; the form is \`api-catalog token new <name> [--scopes ...]\``);
  }
  if (name === undefined) throw new UsageError('token new: missing the name, e.g. `api-catalog token new ci-bot`');
  if (extra !== undefined) throw new UsageError(`token new: unexpected argument ${JSON.stringify(extra)}; one name at a time`);
  if (!TOKEN_NAME_RE.test(name)) {
    throw new UsageError(`token new: the name ${JSON.stringify(name.slice(0, 70))} must be 1-64 characters of letters, digits, . _ @ - (starting with a letter or digit)`);
  }
  // a typo of a scope gets its "did you mean", as every flag value does (docs/CLI.md)
  const scopes = parseScopes(values.scopes?.join(',') ?? ALL_SCOPES.join(','), (unknown) => didYouMean(unknown, ALL_SCOPES));
  if (typeof scopes === 'string') throw new UsageError(`token new: --scopes: ${scopes}`);
  const { token, line } = newToken(name, scopes);
  process.stdout.write(`${token}\n${line}\n`);
  process.stderr.write(
    `api-catalog: line 1 is the token for ${name} (shown once); append line 2 to the --tokens file` +
      ` (if ${name} is there already, this is a rotation: both tokens work until you delete the old line)\n`,
  );
  return 0;
}
