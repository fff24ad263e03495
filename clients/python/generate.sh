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
"$repo/.venv-clients/bin/openapi-python-client" generate --path "$input" --meta none --output-path "$work/out" >"$work/log" 2>&1 \
  || { cat "$work/log" >&2; exit 1; }
rm -rf "$output"
mkdir -p "$(dirname "$output")"
mv "$work/out" "$output"
