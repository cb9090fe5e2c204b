// The MCP server layer's public surface: createServer (one session), the two transports, and the tool surface.
export { createServer, toCallToolResult, SESSION_CREDENTIAL_HEADER, type CatalogServer, type ServerDeps } from './create-server.js';
export { serveStdio, STDIO_MAX_FRAME_BYTES, type StdioCloseReason, type StdioHandle } from './transports/stdio.js';
export { serveHttp, type HttpHandle, type HttpServeOptions } from './transports/http.js';
export { toolDefinitions, workflowText, type ToolDefinition } from './surface.js';
export { TOOL_DESCRIPTIONS_URI } from './resources.js';
export { loadCatalogSet, buildCatalogSet, toolNames, type CatalogSet, type ExecutionSettings } from './core/index.js';
