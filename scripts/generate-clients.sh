#!/usr/bin/env bash
# Regenerates the client packages' generated code from the service's own OpenAPI description (docs/clients.md):
# starts the built service on a free loopback port with a fresh data folder, saves the description it serves as
# clients/openapi.json, then runs openapi-typescript (clients/typescript/src/generated/api.ts) and
# openapi-python-client (clients/python/src/pdfservice_client/generated/) over that file. The generated code is
# committed; test/clients/generated.test.ts fails when it differs from what this script would write.
#   bash scripts/generate-clients.sh          (after the build and the set-up, which makes .venv-clients)
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/service-url.sh
source scripts/service-url.sh

service_work_folder

PDFSERVICE_HOST=127.0.0.1 PDFSERVICE_PORT=0 PDFSERVICE_DATA_DIR="$work/data" \
  PDFSERVICE_ADMIN_USER=admin PDFSERVICE_ADMIN_PASSWORD="$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')" \
  PDFSERVICE_LOG_LEVEL=info node $PDFSERVICE_NODE_FLAGS dist/src/main.js > "$work/server.log" 2>&1 &
server_pid=$!
base=$(service_url "$server_pid" "$work/server.log")

curl -fsS "$base/pdfservice/v1/openapi.json" > "$work/openapi.json"
node -e 'const fs = require("node:fs"); fs.writeFileSync(process.argv[2], JSON.stringify(JSON.parse(fs.readFileSync(process.argv[1], "utf8")), null, 2) + "\n")' \
  "$work/openapi.json" clients/openapi.json
echo "generate-clients: clients/openapi.json"
node clients/typescript/scripts/generate.mjs clients/openapi.json clients/typescript/src/generated/api.ts
echo "generate-clients: clients/typescript/src/generated/api.ts"
bash clients/python/generate.sh clients/openapi.json clients/python/src/pdfservice_client/generated
echo "generate-clients: clients/python/src/pdfservice_client/generated"
