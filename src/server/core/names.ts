// The public names of the four meta-tools (a configurable prefix avoids collisions with other servers).
// Messages and instructions name the tools as the agent sees them.

export interface ToolNames {
  listDomains: string;
  searchTools: string;
  describeTools: string;
  executeTool: string;
}

/** The four names with `prefix` prepended (empty: the documented names). */
export function toolNames(prefix = ''): ToolNames {
  return {
    listDomains: `${prefix}list_domains`,
    searchTools: `${prefix}search_tools`,
    describeTools: `${prefix}describe_tools`,
    executeTool: `${prefix}execute_tool`,
  };
}

/** Limits on meta-tool inputs (K1, K2). */
export const LIMITS = {
  searchDefault: 8,
  searchMax: 25,
  /** Longest query kept (longer queries are cut, not rejected). */
  queryMaxChars: 500,
  offsetMax: 10_000,
  describeMax: 5,
  /** Above this many names describe_tools rejects the call outright. */
  describeHardMax: 20,
  nameMaxChars: 200,
  /** Byte cap of one tool's Level 3 description (K3). */
  fullDescribeBytes: 16_000,
} as const;
