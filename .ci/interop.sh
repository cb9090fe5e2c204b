#!/usr/bin/env bash
# Interop smoke (RELIABILITY L1, L2, H1), in both protocol eras: the official MCP conformance suite against
# `serve --http`, once with the scenarios 2025-11-25 requires and once with those 2026-07-28 requires, each with its
# baseline (test/interop/conformance-baseline-<revision>.yml); and the MCP Inspector CLI against the stdio server as
# a legacy client and as a client pinned to 2026-07-28. Needs a build (dist/) and the npm registry (npx fetches the
# pinned tools and Node 22). Every server runs with a canary GITHUB_TOKEN; at the end all captured output is scanned
# for it. Exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."

CONFORMANCE_VERSION=0.2.0-alpha.12
INSPECTOR_VERSION=2.12.0
NODE22=node@22
OUT=.cache/interop
rm -rf "$OUT" && mkdir -p "$OUT"
CANARY="CANARY-$(node -e 'process.stdout.write(require("crypto").randomBytes(12).toString("hex"))')"
export GITHUB_TOKEN="$CANARY"
failures=0
server_pid=""

step() { printf '\n==> %s\n' "$*"; }
pass() { printf '    ok: %s\n' "$*"; }
fail() { printf '    FAILED: %s\n' "$*"; failures=$((failures + 1)); }
cleanup() { if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; fi; }
trap cleanup EXIT

if [ ! -f dist/cli/index.js ]; then
  echo "interop: dist/cli/index.js is missing; run npm run build first" >&2
  exit 2
fi
CLI="$PWD/dist/cli/index.js"

# ------------------------------------------------------------------------------------------ L1 conformance
port=$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{process.stdout.write(String(s.address().port));s.close()})')
node "$CLI" serve --http --port "$port" >"$OUT/http-server.stdout" 2>"$OUT/http-server.stderr" &
server_pid=$!
ready=0
for _ in $(seq 1 100); do
  if node -e "fetch('http://127.0.0.1:$port/healthz').then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))" 2>/dev/null; then ready=1; break; fi
  if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
  sleep 0.2
done

# conformance <revision> <scenarios that must pass...>
conformance() {
  local revision=$1
  shift
  step "conformance@$CONFORMANCE_VERSION --requirements $revision against serve --http (baseline test/interop/conformance-baseline-$revision.yml)"
  npx -y -p "$NODE22" -p "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" -c \
    "conformance server --url http://127.0.0.1:$port/mcp --requirements $revision --expected-failures $PWD/test/interop/conformance-baseline-$revision.yml -o $PWD/$OUT/conformance-$revision" \
    >"$OUT/conformance-$revision.log" 2>&1
  local rc=$?
  grep -v '^npm warn' "$OUT/conformance-$revision.log" | sed -n '/=== SUMMARY ===/,$p'
  if [ $rc -eq 0 ]; then pass "conformance $revision: every failure is in the baseline"; else fail "conformance $revision exit $rc (unexpected failure or stale baseline entry; log: $OUT/conformance-$revision.log)"; fi
  for s in "$@"; do
    if grep -q "^✓ $s:" "$OUT/conformance-$revision.log"; then pass "$s"; else fail "$s must pass ($revision)"; fi
  done
}

if [ "$ready" != 1 ]; then
  fail "HTTP server did not start on 127.0.0.1:$port"
  cat "$OUT/http-server.stderr"
else
  conformance 2025-11-25 server-initialize ping tools-list resources-list dns-rebinding-protection server-sse-multiple-streams server-session-lifecycle
  conformance 2026-07-28 tools-list resources-list dns-rebinding-protection server-sse-multiple-streams sep-2164-resource-not-found \
    input-required-result-unsupported-methods input-required-result-validate-input
fi
cleanup
server_pid=""

# ------------------------------------------------------------------------------------------ L2 inspector
# One config file, one server entry per era and purpose: the Inspector's `protocolEra` is a per-server setting.
cat >"$OUT/inspector.json" <<JSON
{ "mcpServers": {
  "legacy": { "command": "node", "args": ["$CLI", "serve"], "protocolEra": "legacy" },
  "modern": { "command": "node", "args": ["$CLI", "serve"], "protocolEra": "modern" },
  "legacy-refused": { "command": "node", "args": ["$CLI", "serve", "--no-require-describe", "--base-url", "http://127.0.0.1:9"], "protocolEra": "legacy" },
  "modern-refused": { "command": "node", "args": ["$CLI", "serve", "--no-require-describe", "--base-url", "http://127.0.0.1:9"], "protocolEra": "modern" }
} }
JSON
inspector() { # inspector <name> <args...>: runs the Inspector CLI, output in $OUT/<name>.{out,err}, returns its exit code
  local name=$1
  shift
  npx -y -p "$NODE22" -p "@modelcontextprotocol/inspector@$INSPECTOR_VERSION" -c "mcp-inspector --cli --config $PWD/$OUT/inspector.json $*" \
    >"$OUT/$name.out" 2>"$OUT/$name.err"
}

for era in legacy modern; do
  step "inspector@$INSPECTOR_VERSION ($era client) --strict tools/list on the stdio server"
  inspector "tools-list-$era" "--server $era --method tools/list --strict"
  rc=$?
  if [ $rc -eq 0 ] && node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const names = r.tools.map((t) => t.name).sort().join(",");
    if (names !== "describe_tools,execute_tool,list_domains,search_tools") { console.error("tools: " + names); process.exit(1); }
  ' "$OUT/tools-list-$era.out"; then pass "tools/list exit 0, the four meta-tools, no schema-portability error"; else fail "tools/list exit $rc (6 = schema-portability error; see $OUT/tools-list-$era.err)"; grep -v '^npm warn' "$OUT/tools-list-$era.err" | tail -20; fi

  step "inspector ($era client) tools/call search_tools on the stdio server"
  inspector "search-$era" "--server $era --method tools/call --tool-name search_tools --tool-arg \"query=create an issue\" limit=3"
  rc=$?
  if [ $rc -eq 0 ] && node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const v = r.structuredContent;
    if (!v || v.success !== true || !v.value.results.some((h) => h.name === "issues_create")) { console.error(JSON.stringify(r).slice(0, 500)); process.exit(1); }
  ' "$OUT/search-$era.out" && grep -q "\"era\":\"$era\"" "$OUT/search-$era.err"; then pass "search_tools exit 0, issues_create found, served in the $era era"; else fail "search_tools exit $rc (see $OUT/search-$era.out, $OUT/search-$era.err)"; fi

  step "inspector ($era client) tools/call execute_tool that fails upstream (connection refused) -> exit 5"
  inspector "execute-fails-$era" "--server $era-refused --method tools/call --tool-name execute_tool --tool-arg tool_name=meta_root"
  rc=$?
  if [ $rc -eq 5 ] && grep -q 'UPSTREAM_UNREACHABLE' "$OUT/execute-fails-$era.out"; then pass "exit 5 with UPSTREAM_UNREACHABLE"; else fail "expected exit 5 with UPSTREAM_UNREACHABLE, got $rc (see $OUT/execute-fails-$era.out)"; fi
done

# ------------------------------------------------------------------------------------------ H1 canary
step "canary scan of every captured output ($OUT)"
hits=$(grep -rl -- "$CANARY" "$OUT" 2>/dev/null || true)
if [ -z "$hits" ]; then pass "0 files contain the canary GITHUB_TOKEN"; else fail "canary found in: $hits"; fi

echo
if [ $failures -eq 0 ]; then echo "interop: all checks passed"; else echo "interop: $failures check(s) failed"; fi
[ $failures -eq 0 ]
