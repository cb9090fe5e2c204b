// Vitest setup file: one turn of the event loop before every test. A test worker talks to vitest's main process
// over an RPC whose replies are read only when the worker's event loop turns, with a fixed 60 s deadline that no
// option changes. A file of many synchronous tests (the search-quality gate: 467 runs) never turns it, so on a
// machine busy with other work (a run there takes several times its quiet time) the deadline passed with the reply
// unread, and the run failed with "Timeout calling onTaskUpdate" although every test passed. setImmediate runs
// after the poll phase, where those replies are read.
import { beforeEach } from 'vitest';

beforeEach(() => new Promise<void>((resolve) => setImmediate(resolve)));
