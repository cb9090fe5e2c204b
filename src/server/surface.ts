// What tools/list shows: the four meta-tools' names, descriptions, input schemas (JSON Schema 2020-12, the
// default dialect of MCP schemas: no $schema needed) and annotations, and the workflow text (server instructions,
// the tool_descriptions resource). Static per process (J1): the text depends only on two process-wide settings,
// the name prefix and whether describe is required (`--no-require-describe` drops the sentences that say it is) —
// never on the loaded catalog, the client or the request — so tools/list is cacheable by anyone. Examples use
// placeholders (`<name>`, `<value>`), not an operation of the loaded catalog: one taken from it would make
// the text differ by catalog (and carry imported text into it, J1), and go stale when a reload swaps the catalog
// under a process whose tools/list clients cache for an hour; describe_tools gives the real example call anyway.
// Annotations are set here (J5).
import { LIMITS, type ToolNames } from './core/names.js';

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties: Record<string, unknown>; required?: string[]; additionalProperties?: boolean };
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

/** The process-wide settings the text depends on (besides the names). */
export interface SurfaceOptions {
  /** execute_tool refuses an operation that was not described first (TOOL_DESCRIPTION_REQUIRED); default true. */
  requireDescribe?: boolean;
}

/** The four tool definitions, in workflow order. */
export function toolDefinitions(n: ToolNames, { requireDescribe = true }: SurfaceOptions = {}): ToolDefinition[] {
  const readOnly = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
  return [
    {
      name: n.listDomains,
      title: 'List API domains',
      description: `Step 1 (optional): the map of the API — domains with tool counts (a large API's in groups). Then use ${n.searchTools}.`,
      inputSchema: {
        type: 'object',
        properties: {
          catalog: { type: 'string', description: 'Only this catalog (when several are loaded).' },
          prefix: { type: 'string', description: "Only the domains of this group (a group's prefix)." },
        },
        additionalProperties: false,
      },
      annotations: readOnly,
    },
    {
      name: n.searchTools,
      title: 'Search API operations',
      description:
        `Step 1: find API operations. Search in the API's words: a short "<action> <resource>" for the first step ` +
        `of the task ("create invoice", "list webhooks"), not the user's whole request; add domain when ` +
        `${n.listDomains} made it clear; keywords: other words the API may use for it. Weak results: browse the ` +
        `domain (domain, no query). Returns names, one-line summaries, required params; never schemas. ` +
        `Example: {"query": "<action> <resource>", "keywords": ["<synonym>"]}`,
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'Short "<action> <resource>" in API terms.' },
          domain: { type: 'string', description: `A domain or group prefix from ${n.listDomains}.` },
          // the server takes a list or one comma/space-separated string (as README shows): the schema says both
          keywords: {
            anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }],
            description: 'Synonyms or likely API names; widen recall, weigh less than query.',
          },
          limit: { type: 'integer', minimum: 1, maximum: LIMITS.searchMax, default: LIMITS.searchDefault },
          offset: { type: 'integer', minimum: 0, maximum: LIMITS.offsetMax, default: 0 },
        },
        additionalProperties: false,
      },
      annotations: readOnly,
    },
    {
      name: n.describeTools,
      title: 'Describe API operations',
      description:
        `Step 2: learn how to call up to ${LIMITS.describeMax} operations found by ${n.searchTools}. ` +
        (requireDescribe ? `You cannot execute an operation before describing it. ` : '') +
        `detail: "summary", "parameters" (default) or "full"; parameter: one parameter in full. ` +
        `Example: {"tool_names": ["<name>"]}`,
      inputSchema: {
        type: 'object',
        properties: {
          tool_names: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: LIMITS.describeMax },
          detail: { type: 'string', enum: ['summary', 'parameters', 'full'], default: 'parameters' },
          parameter: { type: 'string' },
        },
        required: ['tool_names'],
        additionalProperties: false,
      },
      annotations: readOnly,
    },
    {
      name: n.executeTool,
      title: 'Execute an API operation',
      description:
        (requireDescribe
          ? `Step 3: call one described operation with args matching its parameters. ` +
            `Fails with TOOL_DESCRIPTION_REQUIRED if you did not call ${n.describeTools} for it first; pass the handle it gave. `
          : `Step 3: call one operation with args matching its parameters (${n.describeTools} gives them). `) +
        `Destructive operations run only with confirm set to the exact tool_name. dry_run: true returns the request without sending it. ` +
        `Example: {"tool_name": "<name>", "args": {"<parameter>": "<value>"}` +
        (requireDescribe ? `, "handle": "<handle>"}` : '}'),
      inputSchema: {
        type: 'object',
        properties: {
          tool_name: { type: 'string' },
          args: { type: 'object', description: 'Arguments as described.' },
          confirm: { type: 'string', description: 'For destructive operations: the tool_name again.' },
          handle: { type: 'string', description: `From ${n.describeTools}.` },
          dry_run: { type: 'boolean', default: false },
          fields: {
            anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
            description: 'Keep only these result fields (JMESPath or field names).',
          },
        },
        required: ['tool_name'],
        additionalProperties: false,
      },
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: false,
        openWorldHint: true,
      },
    },
  ];
}

/** The workflow: the server's instructions and the text of `resource:///tool_descriptions` in resources/list (SEEDS.md §2). */
export function workflowText(n: ToolNames, { requireDescribe = true }: SurfaceOptions = {}): string {
  return [
    'How to use this API (progressive disclosure):',
    `1. Find operations: ${n.searchTools} (or ${n.listDomains} for the map). The listing tells you WHICH operation.`,
    `   Search in the API's words, one step at a time: "<action> <resource>" ("list invoices"), the domain or group prefix when ${n.listDomains} made it clear, keywords for other names; if results are weak, browse the domain.`,
    `2. Fetch descriptions of the ones you picked: ${n.describeTools}, or read resource:///tool_descriptions?tools=<name>,<name>. The description tells you HOW.`,
    requireDescribe
      ? `3. Call: ${n.executeTool} with the "handle" the description gave. You cannot execute an operation whose description you have not fetched: it fails with TOOL_DESCRIPTION_REQUIRED.`
      : `3. Call: ${n.executeTool} with the arguments the description gave.`,
  ].join('\n');
}
