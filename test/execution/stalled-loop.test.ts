// The upstream deadline and a blocked event loop (ops audit, defect 1): when the process's event loop is stalled
// (a synchronous index build after a SIGHUP, in the audit) past a call's deadline while the upstream has already
// answered, the deadline timer runs first when the loop resumes, before the answer waiting in the socket is read. A
// completed POST must come back as its answer, not as UPSTREAM_TIMEOUT "retry later" (which makes an agent create a
// duplicate). The upstream is a real HTTP server in a worker thread, so it answers while this thread is blocked. The
// stall starts in an I/O callback, as a signal handler's does (the worker's message that it has the request), and is
// a synchronous loop that runs until the upstream has sent its whole answer and well past the call's time limit: no
// sleeps, no assertion on durations.
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { executeOperation } from '../../src/execution/index.js';
import { catalog, okay, op } from './fixtures.js';

// flags in shared memory: [1] the test lets the upstream answer, [2] the answer was written out
const flags = new Int32Array(new SharedArrayBuffer(12));
const [GO, ANSWERED] = [1, 2];
let worker: Worker;
let url = '';

// The upstream: says it has the request, answers POST /widgets with 201 once the test says go, then says when the
// answer is written out.
const UPSTREAM = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const flags = new Int32Array(workerData.shared);
const server = http.createServer((req, res) => {
  let body = '';
  req.on('data', (d) => (body += d));
  req.on('end', () => {
    parentPort.postMessage('received');
    Atomics.wait(flags, 1, 0);
    const answer = JSON.stringify({ id: 7, created: JSON.parse(body || '{}') });
    res.writeHead(201, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
    res.end(answer, () => {
      Atomics.store(flags, 2, 1);
      Atomics.notify(flags, 2);
    });
  });
});
server.listen(0, '127.0.0.1', () => parentPort.postMessage(server.address().port));
`;

beforeAll(async () => {
  worker = new Worker(UPSTREAM, { eval: true, workerData: { shared: flags.buffer } });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  url = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  Atomics.store(flags, GO, 1);
  Atomics.notify(flags, GO);
  await worker?.terminate();
});

test('a POST the upstream answered while the event loop was blocked past the deadline returns its answer, not UPSTREAM_TIMEOUT', async () => {
  // long enough for a busy machine to get the request to the upstream before the deadline
  const totalMs = 1000;
  const create = op({ name: 'widgets_create', method: 'post', path: '/widgets', body: { mediaType: 'application/json', properties: { name: { type: 'string' } } } });
  const started = performance.now();
  const call = executeOperation(create, { name: 't1' }, { catalog: catalog(), baseUrl: url, env: {}, timeouts: { totalMs } });
  // When the upstream has the request, this thread blocks: the upstream answers, and the deadline passes, while
  // nothing here can run.
  const stalled = new Promise<void>((resolve) =>
    worker.once('message', () => {
      Atomics.store(flags, GO, 1);
      Atomics.notify(flags, GO);
      while (Atomics.load(flags, ANSWERED) === 0 || performance.now() - started < 2 * totalMs) {
        // a synchronous stall, as a large index build on the serving thread was
      }
      resolve();
    }),
  );
  await stalled;
  const out = okay(await call);
  expect(out.status).toBe(201);
  expect(JSON.stringify(out)).toContain('"created"');
});
