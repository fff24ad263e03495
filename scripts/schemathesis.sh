#!/usr/bin/env bash
# Fuzzes the live service from its own OpenAPI description with Schemathesis (docs/api.md, "Conformance"):
# starts the built service on a free loopback port with a fresh data folder, uploads real documents at the
# paths the description's examples name, then runs every Schemathesis check for a bounded time. Fails on any
# finding: a server error, a response the description does not allow (status, content type, headers, body
# schema), a request the schema forbids that is accepted, or a valid one that is refused.
#   bash scripts/schemathesis.sh            (after the build; .ci/run calls it)
#   bash scripts/schemathesis.sh install    only install Schemathesis into .venv-ci (.ci/run does it while the tests run)
# PDFSERVICE_FUZZ_SECONDS bounds the run (default 180).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
# shellcheck source=scripts/service-url.sh
source scripts/service-url.sh

SCHEMATHESIS_VERSION=4.32.5
VENV=.venv-ci
# The environment is made once per machine for each version of Schemathesis and of Python, in the user's cache folder,
# and .venv-ci (ignored) links to it, as scripts/setup.sh does for .venv-clients: a fresh clone's CI then installs
# nothing (the install runs beside the tests and took CPU from them).
if ! "$VENV/bin/schemathesis" --version 2>/dev/null | grep -q " $SCHEMATHESIS_VERSION\$"; then
  venv_cache="${XDG_CACHE_HOME:-$HOME/.cache}/pdfservice/venv-ci-$( (echo "schemathesis==$SCHEMATHESIS_VERSION"; python3 --version) | sha256sum | cut -c1-16)"
  if ! "$venv_cache/bin/schemathesis" --version 2>/dev/null | grep -q " $SCHEMATHESIS_VERSION\$"; then
    echo "schemathesis: installing Schemathesis $SCHEMATHESIS_VERSION into $venv_cache ($VENV links to it)"
    rm -rf "$venv_cache" && mkdir -p "$(dirname "$venv_cache")"
    python3 -m venv "$venv_cache"
    "$venv_cache/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
  else
    echo "schemathesis: $VENV -> $venv_cache (Schemathesis $SCHEMATHESIS_VERSION, installed before on this machine)"
  fi
  rm -rf "$VENV" && ln -s "$venv_cache" "$VENV"
fi
if [ "${1:-}" = install ]; then exit 0; fi

service_work_folder

user=fuzzer
password="fuzz-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
# Login throttling is kept out of the way: the fuzzer logs in wrongly on purpose, from the address it tests from.
PDFSERVICE_HOST=127.0.0.1 PDFSERVICE_PORT=0 PDFSERVICE_DATA_DIR="$work/data" \
  PDFSERVICE_ADMIN_USER="$user" PDFSERVICE_ADMIN_PASSWORD="$password" \
  PDFSERVICE_LOGIN_MAX_FAILURES=1000 PDFSERVICE_LOGIN_LOCKOUT_SECONDS=1 PDFSERVICE_LOG_LEVEL=info \
  node $PDFSERVICE_NODE_FLAGS dist/src/main.js > "$work/server.log" 2>&1 &
server_pid=$!
base=$(service_url "$server_pid" "$work/server.log")

# The state every operation's success path needs, where the description's examples point and scripts/schemathesis.toml's
# dictionaries name it: a real document (three pages with every annotation kind, a form field and a signature field
# "approval"), a user and an optimize profile to change, a token and a finished job to read, a key store that signs, and
# a second admin ("observer") that restores this state after every write (scripts/schemathesis_hooks.py) and reads the
# request counts for the coverage report. Its bytes are kept so the hooks can put the document back.
observer="observer"
observer_password="obs-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
keystore_password="fuzz-keystore"
openssl req -x509 -newkey rsa:2048 -nodes -subj "/CN=pdfservice fuzzer" -days 2 -keyout "$work/key.pem" -out "$work/cert.pem" 2>/dev/null
openssl pkcs12 -export -inkey "$work/key.pem" -in "$work/cert.pem" -passout "pass:$keystore_password" -out "$work/signer.p12"
SERVICE_URL="$base" SERVICE_AUTH="$user:$password" OBSERVER="$observer:$observer_password" WORK="$work" node --input-type=module -e '
  const { writeFile } = await import("node:fs/promises");
  const { everySubtypeFixture } = await import("./dist/test/helpers/annotated-pdf.js");
  const api = process.env.SERVICE_URL + "/pdfservice/v1/";
  const auth = "Basic " + Buffer.from(process.env.SERVICE_AUTH).toString("base64");
  const call = async (method, url, body, type, extra = {}) => {
    const reply = await fetch(api + url, { method, body, headers: { Authorization: auth, ...(type ? { "Content-Type": type } : {}), ...extra } });
    if (!reply.ok) throw new Error(`${method} ${url}: ${reply.status} ${await reply.text()}`);
    return reply;
  };
  const json = (value) => JSON.stringify(value);
  const [name, pw] = process.env.OBSERVER.split(":");
  await call("POST", "users", json({ username: name, password: pw, rights: ["GET", "POST", "PUT", "DELETE", "admin"] }), "application/json");
  await call("POST", "users", json({ username: "fuzz-target", password: "fuzz-target-password", rights: ["GET"] }), "application/json");
  await call("PUT", "optimize-profiles/fuzz-profile", json({}), "application/json");
  await call("PUT", "documents/reports");
  await call("PUT", "documents/reports/2026");
  await call("PUT", "documents/reports/2026/q1.pdf", everySubtypeFixture().pdf, "application/pdf");
  await call("PUT", "documents/reports/2026/q1.pdf/fields/signature-fields/approval", json({ widget: [{ pageIndex: 0, rectangle: { x: 400, y: 40, width: 150, height: 40 } }] }), "application/json");
  // Metadata with an XMP packet, so that GET .../metadata/xmp has one to answer.
  await call("PATCH", "documents/reports/2026/q1.pdf/metadata", json({ title: "Q1 report" }), "application/merge-patch+json");
  // A tagged document with figures (docs/accessibility.md), so that PATCH .../figures has figures to describe.
  const { taggedPdf } = await import("./dist/test/helpers/figure-fixtures.js");
  await call("PUT", "documents/reports/2026/tagged.pdf", taggedPdf({ tagged: true }), "application/pdf");
  // A document attachment (docs/attachments.md), so that GET and DELETE .../attachments/{name} have one to find.
  await call("PUT", "documents/reports/2026/q1.pdf/attachments/fuzz.txt", "fuzzed attachment", "application/octet-stream");
  // A pipeline, a folder and a binding of the two (docs/watched-folders.md), so that the binding operations can succeed.
  await call("PUT", "pipelines/fuzz-pipeline", json({ steps: [{ TextStampAction: { text: "FUZZ", x: 10, y: 10 } }] }), "application/json");
  await call("PUT", "documents/reports/watched");
  await call("PUT", "watched-folders/fuzz-watch", json({ folder: "reports/watched", pipeline: { name: "fuzz-pipeline" } }), "application/json");
  const token = await (await call("POST", "tokens", json({ name: "fuzz" }), "application/json")).json();
  const job = await (await call("POST", "documents/reports/2026/q1.pdf", json({ LinearizeAction: {} }), "application/json", { Prefer: "respond-async" })).json();
  await writeFile(process.env.WORK + "/q1.pdf", Buffer.from(await (await call("GET", "documents/reports/2026/q1.pdf")).arrayBuffer()));
  await writeFile(process.env.WORK + "/tokens.txt", token.id + "\n");
  await writeFile(process.env.WORK + "/jobs.txt", job.id + "\n");
  // A one-shot conversion run as a job: its result file is what GET /jobs/{id}/result downloads.
  const form = new FormData();
  form.append("file", new Blob([everySubtypeFixture().pdf], { type: "application/pdf" }), "fuzz.pdf");
  const oneshot = await (await call("POST", "convert", form, undefined, { Prefer: "respond-async" })).json();
  await writeFile(process.env.WORK + "/results.txt", oneshot.id + "\n");
'
config="$work/schemathesis.toml"
{ cat scripts/schemathesis.toml; echo; echo '[dictionaries.ids]'; echo "values = [\"$(cat "$work/tokens.txt")\", \"$(cat "$work/jobs.txt")\", \"$(cat "$work/results.txt")\"]"; } > "$config"
export PDFSERVICE_FUZZ_URL="$base" PDFSERVICE_FUZZ_OBSERVER="$observer:$observer_password" PDFSERVICE_FUZZ_FIXTURE="$work/q1.pdf" \
  PDFSERVICE_FUZZ_KEYSTORE="$work/signer.p12" PDFSERVICE_FUZZ_KEYSTORE_PASSWORD="$keystore_password" \
  PDFSERVICE_FUZZ_PROTECTED_USERS="$user,$observer" PDFSERVICE_FUZZ_WORK="$work" PDFSERVICE_FUZZ_AUTH="$user:$password"

seconds=${PDFSERVICE_FUZZ_SECONDS:-180}
# User management runs last, on its own: the fuzzer may change its own password there, after which it is a stranger.
users_seconds=$(( seconds / 6 ))
# One worker: Python 3.11 before 3.11.9 can fail with "AST constructor recursion depth mismatch" when threads compile at once.
# Every check runs by default; no --checks on the command line, because a check named there overrides the
# per-operation settings in schemathesis.toml.
fuzz() {
  SCHEMATHESIS_HOOKS=schemathesis_hooks PYTHONPATH=scripts "$VENV/bin/schemathesis" --no-color --config-file "$config" \
    run "$base/pdfservice/v1/openapi.json" --url "$base" --auth "$user:$password" --workers 1 --request-timeout 60 \
    --suppress-health-check all "$@"
}
echo "schemathesis: fuzzing $base for ${seconds}s"
status=0
# The examples and coverage phases run to their end, whatever the machine's speed: they are what brings every operation
# to its success path (the coverage gate below), so a slow machine must not cut them short. Fuzzing and stateful
# testing then have the time that is left, at least a minute.
started=$SECONDS
fuzz --phases examples,coverage --exclude-operation-id updateUser --exclude-operation-id deleteUser || status=$?
left=$(( seconds - users_seconds - (SECONDS - started) ))
fuzz --phases fuzzing,stateful --max-time "$(( left > 60 ? left : 60 ))" --exclude-operation-id updateUser --exclude-operation-id deleteUser || status=$?
fuzz --max-time "$users_seconds" --include-operation-id updateUser --include-operation-id deleteUser || status=$?
# Coverage per operation, from the service's own request counts: every operation must have reached its success path.
curl -sf -u "$observer:$observer_password" "$base/pdfservice/v1/metrics" > "$work/metrics.txt"
curl -sf "$base/pdfservice/v1/openapi.json" > "$work/openapi.json"
touch "$work/positive-400.tsv"
if [ -n "${PDFSERVICE_FUZZ_KEEP:-}" ]; then cp "$work/metrics.txt" "$work/openapi.json" "$work/server.log" "$work/positive-400.tsv" "$PDFSERVICE_FUZZ_KEEP/"; fi
python3 scripts/schemathesis_coverage.py "$work/metrics.txt" "$work/openapi.json" "$work/positive-400.tsv" || status=$?
if [ "$status" -ne 0 ]; then
  echo "schemathesis: findings above (exit $status); the service log ends:" >&2
  tail -20 "$work/server.log" >&2
fi
exit "$status"
