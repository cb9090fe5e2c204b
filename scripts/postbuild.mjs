// Makes the built CLI entry executable so `npm link` / the `bin` entry works after `npm run build`.
import { chmodSync, existsSync } from 'node:fs';
const entry = new URL('../dist/cli/index.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('postbuild: dist/cli/index.js is missing; did tsc fail?');
  process.exit(1);
}
chmodSync(entry, 0o755);
