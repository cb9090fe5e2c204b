// Starts the built CLI's `serve --http --port 0` with the given arguments and resolves once its start banner is
// complete ("Stop with Ctrl-C."), with the banner text, the URL it prints and a stop() that ends the process.
// Used by the docs generators (scripts/docs/banner.mjs, scripts/docs/session.mjs); never a fixed port.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../dist/cli/index.js', import.meta.url));

export function serveHttp(args = [], env = process.env) {
  const child = spawn(process.execPath, [CLI, 'serve', '--http', '--port', '0', ...args], { stdio: ['ignore', 'ignore', 'pipe'], env });
  let stderr = '';
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`serve --http exited with ${code} before its banner:\n${stderr}`)));
    let started = false;
    child.stderr.on('data', (b) => {
      stderr += b.toString();
      if (started) return;
      const end = stderr.indexOf('  Stop with Ctrl-C.\n');
      if (end < 0) return;
      const start = stderr.indexOf('api-catalog: serving');
      const banner = stderr.slice(start, end + '  Stop with Ctrl-C.\n'.length);
      const url = /URL: (\S+)/.exec(banner)?.[1];
      started = true;
      child.removeAllListeners('exit');
      resolve({
        banner,
        url,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
