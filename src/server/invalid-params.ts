// A request whose params fail the SDK's wire schema (tools/call without params, a name that is not a string) is
// answered by the SDK with -32602 "Invalid tools/call request: " and then zod's issue list as pretty-printed JSON:
// a dozen lines for one missing field. CatalogMcpServer (every server instance we build, both eras, stdio and
// HTTP) wraps each request handler so that such an error leaves as one line naming what is missing or wrong
// ("params.name is required"). Other errors pass through unchanged.
import { ProtocolError, ProtocolErrorCode, Server, type JSONRPCRequest, type RequestId, type Result, type ServerContext } from '@modelcontextprotocol/server';

interface Issue {
  path: Array<string | number>;
  message: string;
}

/** What a method's params must name, said when the request has no params at all. */
const REQUIRED_PARAMS: Readonly<Record<string, readonly string[]>> = {
  'tools/call': ['name'],
  'resources/read': ['uri'],
  'prompts/get': ['name'],
};

/** At most this many issues are named; the count of the rest follows. */
const MAX_ISSUES = 3;

/** zod's issue list (JSON text), or undefined when `text` is not one. */
function issuesOf(text: string): Issue[] | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (!Array.isArray(parsed) || parsed.length === 0) return undefined;
  const issues: Issue[] = [];
  for (const item of parsed) {
    const i = item as { path?: unknown; message?: unknown } | null;
    if (i === null || typeof i !== 'object' || !Array.isArray(i.path) || typeof i.message !== 'string') return undefined;
    issues.push({ path: i.path.filter((p): p is string | number => typeof p === 'string' || typeof p === 'number'), message: i.message });
  }
  return issues;
}

/** `params.arguments.tags[0]`; the request itself when the path is empty. */
function pathText(path: ReadonlyArray<string | number>): string {
  if (path.length === 0) return 'the request';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

function describeIssue(method: string, issue: Issue): string {
  const where = pathText(issue.path);
  // zod 4: "Invalid input: expected string, received undefined"
  const detail = issue.message.replace(/^Invalid input:\s*/, '').replace(/\s+/g, ' ').trim().slice(0, 200);
  if (/received undefined$/.test(detail)) {
    const required = issue.path.length === 1 && issue.path[0] === 'params' ? REQUIRED_PARAMS[method] : undefined;
    if (required !== undefined) {
      const fields = required.map((f) => `params.${f}`).join(' and ');
      return `${fields} ${required.length > 1 ? 'are' : 'is'} required (the request has no params)`;
    }
    return `${where} is required`;
  }
  return `${where}: ${detail}`;
}

/**
 * The one-line form of an SDK schema refusal for `method`; anything else unchanged. Two shapes reach us: the
 * tools/call wrapper's ProtocolError(-32602, "Invalid tools/call request: [...]"), and the generic check of every
 * other method, which throws a plain Error whose message is the issue list (answered -32603 as it stands): both
 * become -32602 "Invalid <method> request: <what is wrong>".
 */
export function oneLineInvalidParams(method: string, err: unknown): unknown {
  if (!(err instanceof Error)) return err;
  let issues: Issue[] | undefined;
  if (err instanceof ProtocolError) {
    if (err.code !== ProtocolErrorCode.InvalidParams) return err;
    const m = /^Invalid \S+ (?:request|params): ([\s\S]*)$/.exec(err.message);
    issues = m?.[1] !== undefined ? issuesOf(m[1]) : undefined;
  } else if (typeof (err as { code?: unknown }).code !== 'number') {
    issues = issuesOf(err.message);
  }
  if (issues === undefined) return err;
  const named = issues.slice(0, MAX_ISSUES).map((i) => describeIssue(method, i));
  const more = issues.length > MAX_ISSUES ? `; and ${issues.length - MAX_ISSUES} more` : '';
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid ${method} request: ${named.join('; ')}${more}`);
}

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/** The SDK's Server, with schema refusals answered in one line (see oneLineInvalidParams). */
export class CatalogMcpServer extends Server {
  /**
   * Called as each request's handler settles, with whether the request was cancelled by then: the SDK sends no
   * answer to a cancelled request, so a transport that counts a request in flight until its answer (stdio's drain)
   * counts it out here instead.
   */
  onHandlerSettled?: (id: RequestId, cancelled: boolean) => void;

  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const inner = super._wrapHandler(method, handler);
    return async (request, ctx) => {
      try {
        return await inner(request, ctx);
      } catch (err) {
        throw oneLineInvalidParams(method, err);
      } finally {
        this.onHandlerSettled?.(ctx.mcpReq.id, ctx.mcpReq.signal.aborted);
      }
    };
  }
}
