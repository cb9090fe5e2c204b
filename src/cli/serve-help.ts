// `api-catalog serve --help`: what the command does and every option (the options part is generated from
// src/config/options.ts by optionsHelp). Text only; serve.ts prints it.
import { optionsHelp } from '../config.js';

export const HELP = `usage: api-catalog serve [options]

Serves the four meta-tools over MCP: stdio by default, Streamable HTTP with --http (http://<host>:<port>/mcp).
Every option below can come from a flag, an environment variable or the config file (--config; its keys are
shown, e.g. serve.http.port); flags win over the environment, the environment over the file. Lists from
--allow-origin / --allow-host and their sources add up. See docs/config.example.json and docs/config.schema.json.

${optionsHelp()}

The config file also holds per-catalog settings (catalogs.<name>: baseUrl, credentials as env var NAMES,
idempotencyHeader, allowedOrigins, blockPrivateAddresses, allowHttpCredentials, credentialPrefix); upstream
credentials come from <CATALOG>_TOKEN, _API_KEY, _USERNAME, _PASSWORD (or the names the file gives) and
<CATALOG>_BASE_URL overrides a base URL. A catalog with an operation that takes two or more API keys (together or
as alternatives) reads each from its own <CATALOG>_<SCHEME>_API_KEY (renamed by credentials["apiKey:<scheme>"]).

Filters (--include-domains, --exclude-domains, --exclude-tools): filtered operations cannot be listed, searched,
described or executed; an unknown domain or a glob matching nothing stops the start.

HTTP authentication: set API_CATALOG_HTTP_TOKEN (at least 16 characters, e.g. \`openssl rand -hex 32\`) in the
environment — never on the command line, where \`ps\` shows it. Every /mcp request must then carry
\`Authorization: Bearer <token>\` (else 401). The token is never sent upstream and never logged.
With --oauth-issuer, clients find the issuer at /.well-known/oauth-protected-resource and send its access
tokens for the --public-url resource (scopes catalog:read for list/search/describe and resources,
catalog:execute for execute_tool); API_CATALOG_HTTP_TOKEN, when also set, is accepted as well.
--allow-remote binds a non-loopback address only with one of them; Host headers accepted: loopback, the bound
address, the --public-url host and --allow-host values. Origins accepted (browser pages): loopback on this port,
the page's own (Origin matching Host), the --public-url's and --allow-origin values. Static and named tokens are
passwords: off loopback without an https --public-url (a TLS proxy in front) the start warns that they travel in
clear text.

Protocol eras: one endpoint (stdio, or /mcp over HTTP) serves MCP 2026-07-28 clients (no handshake, no session:
every request stands alone) and handshake-era clients (initialize; 2024-10-07 ... 2025-11-25) alike.
describe_tools answers carry a signed "handle" per operation that execute_tool takes: over 2026-07-28 HTTP it is
the proof of the describe (any replica checks it), over HTTP and stdio alike; where a legacy connection or
session remembers describes it is optional. API_CATALOG_SIGNING_KEY (32+ characters, env only) is the key;
unset, one is generated (and shared through --state when given).

Several replicas: 2026-07-28 clients need no shared store, only the same API_CATALOG_SIGNING_KEY on every replica
(or --state), but for confirmations of destructive calls: one approval runs one call, so those need --state.
--state redis://... is what legacy sessions need (any replica serves any session, no sticky
routing), and it shares rate limits and stored large results between replicas. A principal is who authenticated
a request (the API_CATALOG_HTTP_TOKEN holder, an OAuth subject, or "anonymous" on loopback); legacy sessions,
handles and stored results are bound to it and rate limits count per principal. GET /readyz answers 503 with
the reason while the state store is unreachable; --require-state refuses to start without --state.
State store URL: redis://[user]:password@host:port/db, or rediss://... for TLS (a private CA through
NODE_EXTRA_CA_CERTS). The database number is selected and checked; a database Redis lacks, a Cluster node or a
Sentinel stop the start; a wrong password (WRONGPASS/NOAUTH), a TLS problem or a read-only replica keep the
replica unready, named in the log and /readyz, until fixed. Run Redis with AOF (docs/DEPLOY.md).

Registry updates: SIGHUP reloads the catalogs, and so does a change of a registry's catalog.json (unless
--no-watch): the new version (operations, search index, settings) replaces the old one whole, or the old one goes
on serving when the new one does not load (logged as catalog_reload_failed; /readyz shows it as reloadFailed).
With several registries each reloads on its own: a broken one keeps its previous catalog, the others' changes
are served, and the refusal names it. A watch reload waits a random 0..--watch-jitter seconds (replicas on one
volume spread out); one refused because the files disagree (a copy still under way) is retried after 2, 5 and
15 s, then at each change of the files. A SIGHUP during start-up is applied once the server serves.
A registry whose files disagree (catalog.json's operation counts against the operations files) is refused, at
start and on reload, naming both files and both counts. list_domains and /readyz show the catalog version.

Catalog explorer (with --http): open http://<host>:<port>/ in a browser to see the domains, search with the
agents' ranking and scores, read describe_tools at each level with its token count, dry-run a call, read the
import report and the search log. Deep links: /?q=<query>, /?tool=<name>, /?domain=<name>. With
API_CATALOG_HTTP_TOKEN set, the page asks for the token once and keeps an HttpOnly cookie derived from it.

Semantic search (off by default; no network unless configured): key from env API_CATALOG_EMBEDDINGS_KEY only
(API_CATALOG_EMBEDDINGS_AUTH=api-key for Azure); query timeout API_CATALOG_EMBEDDINGS_TIMEOUT_MS (1500). Vectors
come from \`import --embeddings-url\` or \`api-catalog embed\`. If the endpoint is down or slow, or the vectors do
not match the model, search answers lexically and says so.

API_CATALOG_STARTUP_TRACE=1 prints one JSON line on stderr saying where start-up went (for npm run bench).
A registry's search.snapshot (written by import) is used when it matches the registry; else the index is built.
Operations (with --http): GET /healthz is liveness (200 while the process answers; it checks no dependency);
GET /readyz is readiness (503 with every reason while the catalogs are not searchable, the state store is not
reachable or authenticated, the OAuth issuer's keys are not fetched, or the replica drains); GET /metrics is
Prometheus text (same authentication as /mcp). Each execute_tool writes one audit line (who, which operation,
outcome, upstream status; never arguments) to the log stream, or to --audit-log <file>.

Named tokens: --tokens <file> holds one "<name> <scopes> sha256:<hash>" line per client; \`api-catalog token new
<name> [--scopes catalog:read,catalog:execute]\` prints a new token and its line. Each name is its own principal
(sessions, handles, rate limits, audit lines); the file is re-read when it changes.

Shutdown: on SIGTERM or SIGINT the server stops taking work (HTTP: /readyz 503, new requests 503 with Retry-After
and Connection: close, which a balancer may retry elsewhere; stdio: new requests get an error), lets calls in
flight finish for up to --shutdown-grace seconds (default 25), then exits 0. A second signal exits at once
(130 for SIGINT, 143 for SIGTERM). See docs/DEPLOY.md.
Exit codes: 0 after stdin EOF or a drain; 1 when a stdio message exceeds 10 MiB or on a startup error.`;
