// The MCP tools' names typed at the command line: README and every doc teach list_domains, search_tools,
// describe_tools and execute_tool, and a newcomer tries them in the shell. Each is an unknown command whose one line
// names the command that does the same (audit first51, defect 7: they got no suggestion at all). The built CLI,
// spawned; exit 2 as for any unknown command, and nothing is run.
import { describe, expect, test } from 'vitest';
import { builtCli, REPO_ROOT } from '../helpers/mcp.js';
import { runProcess } from '../helpers/run.js';

const cli = (args: string[]) => runProcess(process.execPath, [builtCli(), ...args], { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '' } });
const HELP = '; run `api-catalog --help` for the commands\n';

describe('an MCP tool name as a command', () => {
  test.each([
    ['list_domains', 'domains'],
    ['list-domains', 'domains'],
    ['search_tools', 'search'],
    ['describe_tools', 'describe'],
    ['describe-tools', 'describe'],
    ['execute_tool', 'call'],
  ])('%s: did you mean %s, with the command to run', async (typed, command) => {
    const r = await cli([typed, 'x']);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    const tool = typed.replace(/-/g, '_');
    expect(r.stderr).toBe(`api-catalog: unknown command "${typed}" (did you mean ${command}? ${tool} is the MCP tool's name; at the command line it is \`api-catalog ${command}\`)${HELP}`);
  });

  test.each(['execute', 'exec', 'run'])('%s: did you mean call (what execute_tool does)', async (typed) => {
    const r = await cli([typed]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(`api-catalog: unknown command "${typed}" (did you mean call? \`api-catalog call\` does what the MCP tool execute_tool does)${HELP}`);
  });

  test('a misspelt command still gets the nearest command, and a word near nothing gets no suggestion', async () => {
    expect((await cli(['serach'])).stderr).toBe(`api-catalog: unknown command "serach" (did you mean search?)${HELP}`);
    expect((await cli(['frobnicate'])).stderr).toBe(`api-catalog: unknown command "frobnicate"${HELP}`);
  });
});
