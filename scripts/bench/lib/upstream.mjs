// A local stand-in for the upstream API on 127.0.0.1:0: answers every request with a small canned GitHub-like
// JSON body (201 for POST), so execute timings and agent-task tokens never touch the internet.
import { createServer } from 'node:http';

/** The canned issue returned for POST (and any other write). */
export const ISSUE = {
  id: 1,
  number: 1347,
  state: 'open',
  title: 'Found a bug',
  body: "I'm having a problem with this.",
  html_url: 'https://github.com/octocat/hello-world/issues/1347',
  user: { login: 'octocat', id: 1 },
  labels: [{ name: 'bug' }],
  assignees: [],
  comments: 0,
  created_at: '2011-04-22T13:33:48Z',
  updated_at: '2011-04-22T13:33:48Z',
};
/** The canned repository returned for GET. */
export const REPO = {
  id: 1296269,
  name: 'hello-world',
  full_name: 'octocat/hello-world',
  private: false,
  owner: { login: 'octocat', id: 1 },
  html_url: 'https://github.com/octocat/hello-world',
  description: 'This your first repo!',
  default_branch: 'main',
  stargazers_count: 80,
};

/** Starts the server; returns { url, requests(), close() }. */
export async function startUpstream() {
  let count = 0;
  const server = createServer((req, res) => {
    count++;
    req.resume();
    req.on('end', () => {
      const write = req.method !== 'GET' && req.method !== 'HEAD';
      const body = JSON.stringify(write ? ISSUE : REPO);
      res.writeHead(write ? 201 : 200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => count,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections?.();
        server.close(() => r());
      }),
  };
}
