// The shared core of the four meta-tools: plain functions over a CatalogSet that return envelopes. Used by the
// MCP server (src/server) and by the CLI (`domains`, `describe`, `call`); it never imports the MCP SDK.
export { buildCatalogSet, executionConfigFor, loadCatalogSet, type CatalogEntry, type CatalogSet, type ExecutionSettings } from './catalogs.js';
export { fail, ok, type Envelope, type EnvelopeError } from './envelope.js';
export { listDomains } from './domains.js';
export { searchTools } from './search.js';
export { API_TEXT_NOTE, describeTools, levelOne, levelThree, levelTwo, operationFingerprint, type DescribeContext, type DetailLevel } from './describe.js';
export { executeTool, type ConfirmAnswer, type ExecuteContext, type ExecuteOutcome } from './execute.js';
export { LIMITS, toolNames, type ToolNames } from './names.js';
export { LiveCatalogs, type LiveCatalogsOptions, type ReloadOutcome, type ReloadTrigger, type ServedCatalogs, type WatchOptions } from './reload.js';
