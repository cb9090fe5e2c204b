// Prints the start banner of `api-catalog serve --http` (what `npm start` shows), for the docs' generated blocks.
// The server listens on a free port (--port 0) and the banner is printed with the default port 3333 in its place,
// which is what `npm start` prints on a machine where 3333 is free. Arguments go on to `serve --http` as they are:
//   node scripts/docs/banner.mjs [serve options]
import { serveHttp } from './serve-http.mjs';
import { usage } from '../lib/usage.mjs';

usage(import.meta.url, null);

const s = await serveHttp(process.argv.slice(2));
await s.stop();
const port = new URL(s.url).port;
process.stdout.write(s.banner.replaceAll(`:${port}`, ':3333'));
