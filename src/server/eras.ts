// The protocol eras this server speaks: 2026-07-28 ("modern": no handshake, per-request _meta) and the handshake
// revisions 2024-10-07 … 2025-11-25 ("legacy"), and the one rewrite both transports apply to the SDK's answers:
// an UnsupportedProtocolVersionError (-32022) names every version we speak in its message. Its data.supported
// stays what server/discover advertises (the versions a request's _meta may claim), which is what a 2026-07-28
// client retries with and what the official conformance suite checks; legacy versions go through initialize.
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';

export type Era = 'legacy' | 'modern';

export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;

export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** The message of an UnsupportedProtocolVersionError: what was asked for, and every version we speak and how. */
export function unsupportedVersionMessage(requested: unknown): string {
  const asked = typeof requested === 'string' ? JSON.stringify(requested.slice(0, 40)) : 'this version';
  return (
    `Unsupported protocol version ${asked}: this server speaks ${MODERN_PROTOCOL_VERSIONS.join(', ')} (every request carrying its _meta) ` +
    `and, after an initialize handshake, ${LEGACY_PROTOCOL_VERSIONS.join(', ')}`
  );
}

/** A JSON-RPC message whose UnsupportedProtocolVersionError names every version we speak; anything else as is. */
export function withAllSupportedVersions<T>(message: T): T {
  const m = message as { error?: { code?: unknown; message?: unknown; data?: { requested?: unknown } } } | null;
  if (m === null || typeof m !== 'object' || m.error?.code !== UNSUPPORTED_PROTOCOL_VERSION) return message;
  return { ...m, error: { ...m.error, message: unsupportedVersionMessage(m.error.data?.requested) } } as T;
}
