// OAuth 2.0 Protected Resource Metadata (RFC 9728) for the MCP endpoint, its well-known URLs, and the
// RFC 6750 `WWW-Authenticate: Bearer ...` challenges. Pure functions: no I/O, no token handling.
import type { OAuthProtectedResourceMetadata } from '@modelcontextprotocol/server';

/** Scope for the read-only meta-tools (list_domains, search_tools, describe_tools) and resources. */
export const SCOPE_READ = 'catalog:read';
/** Scope for execute_tool (calls the upstream API). */
export const SCOPE_EXECUTE = 'catalog:execute';
export const ALL_SCOPES: readonly string[] = [SCOPE_READ, SCOPE_EXECUTE];

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * The PRM URL for a resource (RFC 9728 §3.1: the well-known segment goes between host and path):
 * `https://mcp.example.com/mcp` -> `https://mcp.example.com/.well-known/oauth-protected-resource/mcp`.
 */
export function protectedResourceMetadataUrl(resource: string): string {
  const u = new URL(resource);
  const path = u.pathname === '/' ? '' : u.pathname.replace(/\/$/, '');
  return `${u.origin}${WELL_KNOWN}${path}`;
}

/** Request paths that serve the PRM document: the path-suffixed form and the bare form (clients try both). */
export function metadataPaths(resource: string): string[] {
  const suffixed = new URL(protectedResourceMetadataUrl(resource)).pathname;
  return suffixed === WELL_KNOWN ? [WELL_KNOWN] : [suffixed, WELL_KNOWN];
}

/** The PRM document: this resource, the one authorization server that issues tokens for it, the scopes. */
export function protectedResourceMetadata(resource: string, issuer: string): OAuthProtectedResourceMetadata {
  return {
    resource,
    authorization_servers: [issuer],
    scopes_supported: [...ALL_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'api-catalog MCP server',
  };
}

/** RFC 6750 §3 error codes used here. */
export type BearerError = 'invalid_request' | 'invalid_token' | 'insufficient_scope';

/**
 * `Bearer realm="api-catalog"[, error=..., error_description=...][, scope=...][, resource_metadata=...]`.
 * Descriptions are fixed strings chosen by this module (never token content); quotes and backslashes are
 * dropped so the quoted-string stays well formed.
 */
export function bearerChallenge(parts: { error?: BearerError; description?: string; scope?: string; resourceMetadata?: string }): string {
  const q = (v: string): string => `"${v.replace(/["\\\r\n]/g, '')}"`;
  const params = ['realm="api-catalog"'];
  if (parts.error !== undefined) params.push(`error=${q(parts.error)}`);
  if (parts.description !== undefined) params.push(`error_description=${q(parts.description)}`);
  if (parts.scope !== undefined) params.push(`scope=${q(parts.scope)}`);
  if (parts.resourceMetadata !== undefined) params.push(`resource_metadata=${q(parts.resourceMetadata)}`);
  return `Bearer ${params.join(', ')}`;
}
