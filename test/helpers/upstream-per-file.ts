// One local upstream for a test file and the MCP connections its tests open: started before the file's tests,
// every connection closed and the upstream's recorded requests cleared after each test, the upstream closed at the
// end. The hooks are registered by the call, so call it at the top level of the file.
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Connected } from './mcp.js';
import { startUpstream, type Upstream } from './upstream.js';

export interface UpstreamPerFile {
  /** The running upstream (available inside tests and hooks, not at collection time). */
  readonly up: Upstream;
  /** Connections to close after the current test. */
  readonly open: Connected[];
}

export function upstreamPerFile(): UpstreamPerFile {
  let up: Upstream | undefined;
  const open: Connected[] = [];
  beforeAll(async () => {
    up = await startUpstream();
  });
  afterAll(async () => {
    await up?.close();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
    up?.clear();
  });
  return {
    get up(): Upstream {
      if (up === undefined) throw new Error('upstreamPerFile: the upstream starts in beforeAll; read it inside a test or hook');
      return up;
    },
    open,
  };
}
