#!/usr/bin/env bash
# Fuzzes the live service from its own OpenAPI description with Schemathesis (docs/api.md, "Conformance"):
# starts the built service on a free loopback port with a fresh data folder, uploads real documents at the
# paths the description's examples name, then runs every Schemathesis check for a bounded time. Fails on any
# finding: a server error, a response the description does not allow (status, content type, headers, body
# schema), a request the schema forbids that is accepted, or a valid one that is refused.
#   bash scripts/schemathesis.sh            (after the build; .ci/run calls it)
# PDFSERVICE_FUZZ_SECONDS bounds the run (default 180).
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
VENV=.venv-ci
if ! "$VENV/bin/schemathesis" --version 2>/dev/null | grep -q " $SCHEMATHESIS_VERSION\$"; then
  echo "schemathesis: installing Schemathesis $SCHEMATHESIS_VERSION into $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

work=$(mktemp -d)
server_pid=''
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

user=fuzzer
password="fuzz-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
# Login throttling is kept out of the way: the fuzzer logs in wrongly on purpose, from the address it tests from.
PDFSERVICE_HOST=127.0.0.1 PDFSERVICE_PORT=0 PDFSERVICE_DATA_DIR="$work/data" \
  PDFSERVICE_ADMIN_USER="$user" PDFSERVICE_ADMIN_PASSWORD="$password" \
  PDFSERVICE_LOGIN_MAX_FAILURES=1000 PDFSERVICE_LOGIN_LOCKOUT_SECONDS=1 PDFSERVICE_LOG_LEVEL=info \
  node dist/src/main.js > "$work/server.log" 2>&1 &
server_pid=$!
base=''
for _ in $(seq 1 100); do
  base=$(grep -o '"msg":"listening"[^}]*"url":"[^"]*"\|"url":"[^"]*"[^}]*"msg":"listening"' "$work/server.log" | grep -o 'http://[^"]*' | head -1 || true)
  [ -n "$base" ] && break
  if ! kill -0 "$server_pid" 2>/dev/null; then cat "$work/server.log" >&2; exit 1; fi
  sleep 0.2
done
[ -n "$base" ] || { echo "schemathesis: the service did not start" >&2; cat "$work/server.log" >&2; exit 1; }

# A real document where the description's examples point: three pages with every annotation kind and a form field.
SERVICE_URL="$base" SERVICE_AUTH="$user:$password" node --input-type=module -e '
  const { everySubtypeFixture } = await import("./dist/test/helpers/annotated-pdf.js");
  const auth = "Basic " + Buffer.from(process.env.SERVICE_AUTH).toString("base64");
  const put = async (url, body, type) => {
    const reply = await fetch(process.env.SERVICE_URL + "/pdfservice/v1/documents/" + url, { method: "PUT", body, headers: { Authorization: auth, ...(type ? { "Content-Type": type } : {}) } });
    if (!reply.ok) throw new Error(`PUT ${url}: ${reply.status} ${await reply.text()}`);
  };
  await put("reports/2026", undefined);
  await put("reports/2026/q1.pdf", everySubtypeFixture().pdf, "application/pdf");
'

seconds=${PDFSERVICE_FUZZ_SECONDS:-180}
# User management runs last, on its own: the fuzzer may change its own password there, after which it is a stranger.
users_seconds=$(( seconds / 6 ))
# One worker: Python 3.11 before 3.11.9 can fail with "AST constructor recursion depth mismatch" when threads compile at once.
# Every check runs by default; no --checks on the command line, because a check named there overrides the
# per-operation settings in schemathesis.toml.
fuzz() {
  SCHEMATHESIS_HOOKS=schemathesis_hooks PYTHONPATH=scripts "$VENV/bin/schemathesis" --no-color --config-file scripts/schemathesis.toml \
    run "$base/pdfservice/v1/openapi.json" --url "$base" --auth "$user:$password" --workers 1 --request-timeout 60 \
    --suppress-health-check all "$@"
}
echo "schemathesis: fuzzing $base for ${seconds}s"
status=0
fuzz --max-time "$(( seconds - users_seconds ))" --exclude-operation-id updateUser --exclude-operation-id deleteUser || status=$?
fuzz --max-time "$users_seconds" --include-operation-id updateUser --include-operation-id deleteUser || status=$?
if [ "$status" -ne 0 ]; then
  echo "schemathesis: findings above (exit $status); the service log ends:" >&2
  tail -20 "$work/server.log" >&2
fi
exit "$status"
