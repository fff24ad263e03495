#!/usr/bin/env bash
# The README's two commands:
#   bash scripts/run.sh start   set up what the service needs, then start it (PDFSERVICE_* variables apply)
#   bash scripts/run.sh test    set up that and what the tests need, then run the whole test suite
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  start) bash scripts/setup.sh runtime; exec node dist/src/main.js ;;
  test) bash scripts/setup.sh test; exec node --test --test-concurrency=2 dist/test/ ;;
  *) echo "usage: bash scripts/run.sh start|test" >&2; exit 2 ;;
esac
