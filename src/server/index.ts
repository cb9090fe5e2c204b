// The MCP server layer's public surface: createServer (one connection, legacy session or 2026-07-28 request), the
// two transports (both protocol eras each), the signer of describe handles, the tool surface, and hot reload of the
// catalogs (LiveCatalogs, given to createServer/serveHttp as `deps.live`).
export { createServer, toCallToolResult, SESSION_CREDENTIAL_HEADER, type CatalogServer, type ServerDeps } from './create-server.js';
export { serveStdio, serveConnection, STDIO_MAX_FRAME_BYTES, type StdioCloseReason, type StdioHandle } from './transports/stdio.js';
export { serveHttp, type HttpHandle, type HttpServeOptions } from './transports/http.js';
export { Signer, resolveSigner, SIGNING_KEY_ENV } from './signing.js';
export { MODERN_PROTOCOL_VERSIONS, LEGACY_PROTOCOL_VERSIONS, type Era } from './eras.js';
export { toolDefinitions, workflowText, type ToolDefinition } from './surface.js';
export { TOOL_DESCRIPTIONS_URI } from './resources.js';
export { loadCatalogSet, buildCatalogSet, toolNames, LiveCatalogs, type CatalogSet, type ExecutionSettings, type ReloadOutcome, type ServedCatalogs } from './core/index.js';
