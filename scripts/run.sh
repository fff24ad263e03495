#!/usr/bin/env bash
# The README's two commands:
#   bash scripts/run.sh start   set up, then start the service (PDFSERVICE_* variables apply)
#   bash scripts/run.sh test    set up, then run the whole test suite
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
case "${1:-}" in
  start) exec node dist/src/main.js ;;
  test) exec node --test --test-concurrency=2 dist/test/ ;;
  *) echo "usage: bash scripts/run.sh start|test" >&2; exit 2 ;;
esac
