#!/usr/bin/env bash
# Generates the Python client's API package from an OpenAPI description with openapi-python-client (pinned, in the
# project's .venv-clients, made by scripts/setup.sh). Used by scripts/generate-clients.sh and by
# test/clients/generated.test.ts, which checks that the committed package is what this writes.
#   bash clients/python/generate.sh <openapi.json> <output folder>
set -euo pipefail
input=$1
output=$2
repo=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# --meta none: the package alone (pyproject.toml is ours). Its warnings name the operations it leaves out (binary
# answers, XFDF bodies): the wrapper (client.py) covers the ones users need.
# A multipart body whose parts are other names of one another (the action routes' "pageAction" or "action") is
# described with oneOf over "required", which openapi-python-client cannot model (it writes `isinstance(body, Any)`,
# a TypeError at every call): the generator is given a copy with the first name required, the interface's name.
node -e '
const fs = require("node:fs");
const api = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
for (const item of Object.values(api.paths)) for (const op of Object.values(item)) {
  const schema = op?.requestBody?.content?.["multipart/form-data"]?.schema;
  if (!schema?.oneOf?.every((s) => Array.isArray(s.required) && Object.keys(s).length === 1)) continue;
  schema.required = [...new Set([...(schema.required ?? []), schema.oneOf[0].required[0]])];
  delete schema.oneOf;
}
fs.writeFileSync(process.argv[2], JSON.stringify(api));
' "$input" "$work/openapi.json"
input=$work/openapi.json
"$repo/.venv-clients/bin/openapi-python-client" generate --path "$input" --meta none --output-path "$work/out" >"$work/log" 2>&1 \
  || { cat "$work/log" >&2; exit 1; }
rm -rf "$output"
mkdir -p "$(dirname "$output")"
mv "$work/out" "$output"
