// The protocol eras this server speaks: 2026-07-28 ("modern": no handshake, per-request _meta) and the handshake
// revisions 2024-10-07 … 2025-11-25 ("legacy"), and the one rewrite both transports apply to the SDK's answers:
// an UnsupportedProtocolVersionError (-32022) lists every version we speak, modern first, as the revision's
// versioning page shows (the SDK's entries list only the modern ones).
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';

export type Era = 'legacy' | 'modern';

export const MODERN_PROTOCOL_VERSIONS: readonly string[] = ['2026-07-28'];
export const LEGACY_PROTOCOL_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;
/** Every protocol version the server speaks, newest first. */
export const ALL_PROTOCOL_VERSIONS: readonly string[] = [...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS];

export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** A JSON-RPC error object naming the versions we speak when it is an UnsupportedProtocolVersionError; else as is. */
export function withAllSupportedVersions<T>(message: T): T {
  const m = message as { error?: { code?: unknown; data?: { supported?: unknown } } } | null;
  if (m === null || typeof m !== 'object' || m.error?.code !== UNSUPPORTED_PROTOCOL_VERSION) return message;
  const data = m.error.data;
  if (data === undefined || !Array.isArray(data.supported)) return message;
  const supported = [...new Set([...(data.supported as string[]), ...ALL_PROTOCOL_VERSIONS])];
  return { ...m, error: { ...m.error, data: { ...data, supported } } } as T;
}
