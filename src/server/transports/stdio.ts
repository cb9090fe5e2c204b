// stdio transport: the MCP protocol on stdin/stdout, nothing else on stdout (logs go to the logger). Garbage
// lines are skipped (C3); a frame over the buffer cap closes the session with reason 'overflow' (C4); stdin EOF
// closes it with reason 'eof' (C5). Closing the server aborts in-flight tool calls (their AbortSignal).
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { silentLogger, type Logger } from '../../logger.js';
import { createServer, type ServerDeps } from '../create-server.js';

export type StdioCloseReason = 'eof' | 'overflow' | 'shutdown' | 'error';

export interface StdioHandle {
  /** Resolves once the session is over, with why. */
  closed: Promise<StdioCloseReason>;
  /** Ends the session (SIGTERM/SIGINT): aborts in-flight calls and stops reading. */
  close(): Promise<void>;
}

/** Largest single stdin line (one JSON-RPC message): the SDK default, 10 MiB. */
export const STDIO_MAX_FRAME_BYTES = STDIO_DEFAULT_MAX_BUFFER_SIZE;

/** Serves one MCP session on the given streams (default process.stdin/stdout). */
export async function serveStdio(
  deps: ServerDeps,
  streams: { stdin?: Readable; stdout?: Writable; logger?: Logger } = {},
): Promise<StdioHandle> {
  const stdin = streams.stdin ?? process.stdin;
  const stdout = streams.stdout ?? process.stdout;
  const logger = streams.logger ?? deps.logger ?? silentLogger;
  const { server } = createServer(deps);
  const transport = new StdioServerTransport(stdin, stdout, { maxBufferSize: STDIO_MAX_FRAME_BYTES });
  let reason: StdioCloseReason | undefined;
  let resolveClosed!: (r: StdioCloseReason) => void;
  const closed = new Promise<StdioCloseReason>((r) => (resolveClosed = r));

  transport.onerror = (error: Error) => {
    if (/exceeded maximum size/i.test(error.message)) {
      reason ??= 'overflow';
      logger.log('error', {
        event: 'stdio_frame_too_large',
        message: `a stdin message exceeded ${STDIO_MAX_FRAME_BYTES} bytes; closing the session`,
      });
    } else {
      // Unparseable lines (C3): report and keep serving.
      logger.log('warn', { event: 'stdio_bad_message', message: error.message.slice(0, 200) });
    }
  };
  server.onclose = () => {
    resolveClosed(reason ?? 'eof');
  };
  const onEnd = () => {
    reason ??= 'eof';
    void server.close();
  };
  stdin.once('end', onEnd);
  stdin.once('close', onEnd);
  await server.connect(transport);
  // connect() replaced transport.onerror with a wrapper that still calls ours; nothing else to do.
  logger.log('info', { event: 'serve', transport: 'stdio' });
  return {
    closed,
    async close() {
      reason ??= 'shutdown';
      stdin.off('end', onEnd);
      stdin.off('close', onEnd);
      await server.close();
    },
  };
}
