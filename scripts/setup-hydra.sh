#!/usr/bin/env bash
# Builds Ory Hydra, the OpenID Connect provider of the tests (test/api/oidc.test.ts, docs/oidc.md "The test provider"),
# from the Go module proxy into .tools/hydra/hydra (ignored by git). test/oidc/go.mod pins github.com/ory/hydra/v2
# v2.3.0 as a Go tool with its go.sum. Run by `bash scripts/setup.sh test`; quick when the binary is there and the
# pins have not changed (their hash is the stamp). The first build on a machine compiles Hydra's ~400 modules (about
# 25 minutes on 2 loaded cores); later builds, a fresh clone's included, find them in Go's build cache and only link.
set -euo pipefail
cd "$(dirname "$0")/.."

dir=.tools/hydra
stamp=$(cat test/oidc/go.mod test/oidc/go.sum | sha256sum | cut -d' ' -f1)
# `--up-to-date`: only tells, by the exit status, whether the binary is there and built from these pins.
up_to_date=0
if [ -x "$dir/hydra" ] && [ "$(cat "$dir/.stamp" 2>/dev/null)" = "$stamp" ]; then up_to_date=1; fi
if [ "${1:-}" = --up-to-date ]; then [ "$up_to_date" = 1 ]; exit; fi
if [ "$up_to_date" = 1 ]; then exit 0; fi

# The Go of the image lives in /usr/local/go; Debian 12's golang-go (1.19) is too old for Hydra.
if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then PATH="/usr/local/go/bin:$PATH"; fi
if ! command -v go >/dev/null; then
  echo "setup: Go (1.24 or newer) is not on PATH; it builds Ory Hydra for the OpenID Connect tests (docs/oidc.md)" >&2
  exit 1
fi
echo "setup: building Ory Hydra v2.3.0, the tests' OpenID Connect provider (Go module proxy, test/oidc/go.mod -> $dir/hydra; the first build on a machine takes many minutes)"
mkdir -p "$dir"
# The tags of Hydra's own Makefile: SQLite (cgo) for the in-memory database the tests use.
(cd test/oidc && CGO_ENABLED=1 go build -buildvcs=false -tags sqlite,sqlite_omit_load_extension -o "../../$dir/hydra.new" github.com/ory/hydra/v2)
mv "$dir/hydra.new" "$dir/hydra"
echo "$stamp" > "$dir/.stamp"
