// The CLI's words for what the shared core (src/server/core/) says to agents. The core's messages and next steps
// name the MCP tools ("call list_domains", "describe_tools: no tool named ...") and the server ("the server is in
// read-only mode"); a person at the command line has commands and flags instead. The core's texts stay as agents
// need them: they are translated here, only where the CLI prints them. Never applied to the API's own text
// (api_text, summaries): only to the core's messages, next steps and notes.

const COMMAND_OF_TOOL: Record<string, string> = {
  list_domains: 'api-catalog domains',
  search_tools: 'api-catalog search',
  describe_tools: 'api-catalog describe',
  execute_tool: 'api-catalog call',
};
const TOOL = /\b(list_domains|search_tools|describe_tools|execute_tool)\b/;

/** A core message or next step in the CLI's words: commands for the meta-tools, "this catalog" for the server. */
export function forPeople(text: string): string {
  return (
    text
      // "describe_tools: ..." -> "describe: ...", as the CLI's own messages start
      .replace(new RegExp(`^${TOOL.source}: `), (_m, tool: string) => `${(COMMAND_OF_TOOL[tool] as string).replace(/^api-catalog /, '')}: `)
      // an entry's message, shown after its name ("pets.gett: no such operation"); the name may hold a quote ("it's")
      .replace(/\bTool '.*?' not found\b/g, 'no such operation')
      .replace(/\bTool '.*?' has no parameter\b/g, 'no parameter')
      .replace(/\bno tool named\b/g, 'no operation named')
      .replace(/\b(T|t)he server (?:is in|runs in) read-only mode\b/g, (_m, t: string) => `${t === 'T' ? 'T' : 't'}his catalog is read-only`)
      // "the server" that sends the request is this process; the operator and "the user" are the person reading
      .replace(/\bcannot be reached from the server\b/g, 'cannot be reached from this machine')
      .replace(/\b[Tt]he server's HTTP client\b/g, "api-catalog's HTTP client")
      .replace(/\bthe server (will not follow|failed unexpectedly)\b/g, (_m, rest: string) => `api-catalog ${rest}`)
      .replace(/\bThe server configuration is incomplete \(base URL\); ask the operator to fix it\./g, 'The base URL is missing: give --base-url, or set it in the config file.')
      .replace(/\bask the operator to set the base URL\b/g, 'set the base URL (--base-url)')
      .replace(/\bTell the user the server is misconfigured \(see the message\); do not retry\./g, 'The configuration is wrong (see the message): fix it, then run it again.')
      .replace(/\bTell the user the call failed inside api-catalog\b/g, 'The call failed inside api-catalog')
      .replace(/\bTell the user this operation cannot be called through this server and choose another one\./g, 'This operation cannot be called through api-catalog; choose another one.')
      // the execution layer's steps for an answer it cannot read, a cut body, a base URL with userinfo
      .replace(/; tell the user the upstream service\b/g, '; the upstream service')
      .replace(/\bor ask the operator to raise (API_CATALOG_\w+)/g, 'or raise $1')
      .replace(/\. Do not retry until then\./g, ', then run it again.')
      .replace(/\bTell the user to ([a-z])/g, (_m, c: string) => c.toUpperCase())
      .replace(new RegExp(`\\b(Call|call|Use|use) ${TOOL.source}\\b`, 'g'), (_m, verb: string, tool: string) => `${/^[CU]/.test(verb) ? 'Run' : 'run'} \`${COMMAND_OF_TOOL[tool]}\``)
      .replace(new RegExp(TOOL.source, 'g'), (tool: string) => `\`${COMMAND_OF_TOOL[tool]}\``)
  );
}

/** A core failure message as the CLI's one line: "api-catalog describe: no operation named ...". */
export function errorLine(command: string, message: string): string {
  return `api-catalog ${command}: ${forPeople(message).replace(new RegExp(`^${command}: `), '')}`;
}

/**
 * Where a read-only refusal comes from, as the flag, env var or config key that set it (the precedence
 * loadServerConfig applies: the flag, then the environment, then the file), and how to lift it.
 */
export function readOnlySource(argv: readonly string[], env: Record<string, string | undefined>): { set: string; lift: string } {
  if (argv.includes('--read-only')) return { set: '--read-only', lift: 'drop --read-only' };
  // on as the config reads it (src/config.ts: 1, true, yes, on)
  if (/^(1|true|yes|on)$/i.test((env['API_CATALOG_READ_ONLY'] ?? '').trim())) return { set: 'API_CATALOG_READ_ONLY', lift: 'unset API_CATALOG_READ_ONLY (or set it to 0)' };
  return { set: 'serve.readOnly in the config file', lift: 'set serve.readOnly to false in the config file' };
}
