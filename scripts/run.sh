#!/usr/bin/env bash
# The README's two commands:
#   bash scripts/run.sh start   set up what the service needs, then start it (PDFSERVICE_* variables apply)
#   bash scripts/run.sh test    set up that and what the tests need, then run the whole test suite
#   bash scripts/run.sh test api jobs   the same for some groups only: the folders of test/ that hold tests
# Both run the Node.js the set-up installs under .tools/node (scripts/env.sh).
# The container group (test/container/: builds the image, minutes the first time) runs only when named, with its set-up.
set -euo pipefail
cd "$(dirname "$0")/.."
groups() { for dir in test/*/; do compgen -G "$dir*.test.ts" >/dev/null && basename "$dir"; done | tr '\n' ' '; }
case "${1:-}" in
  start) bash scripts/setup.sh runtime; . scripts/env.sh; exec node $PDFSERVICE_NODE_FLAGS dist/src/main.js ;;
  test)
    shift
    targets=()
    # Files, not folders: Node 22 and later take the arguments of --test as files or glob patterns, and a folder is
    # neither (it failed as a module that cannot be found).
    for group in $(groups); do [ "$group" = container ] || targets+=(dist/test/"$group"/*.test.js); done
    if [ $# -gt 0 ]; then
      targets=()
      for group in "$@"; do
        if ! compgen -G "test/$group/*.test.ts" >/dev/null || [[ "$group" == */* ]]; then
          echo "run.sh: no test group \"$group\"; the groups: $(groups)" >&2
          exit 2
        fi
        targets+=(dist/test/"$group"/*.test.js)
      done
    fi
    if [[ " $* " == *" container "* ]]; then bash scripts/setup.sh test container; else bash scripts/setup.sh test; fi
    . scripts/env.sh
    echo "run.sh: Node.js $(node --version) ($(command -v node))"
    # Two files at a time, the longest first by their times in test/file-times.tsv (scripts/run-tests-in-order.mjs;
    # docs/testing.md, "CI time"): in path order the run ended with long files alone on one core. The spec report, the
    # longest files of the run at its end; PDFSERVICE_TEST_FAILURES (set by .ci/run): a file that gets a line per failed test.
    exec node $PDFSERVICE_NODE_FLAGS scripts/run-tests-in-order.mjs --spec --times=test/file-times.tsv \
      ${PDFSERVICE_TEST_TIMES_OUT:+--write-times="$PDFSERVICE_TEST_TIMES_OUT"} 2 "${targets[@]}" ;;
  *) echo "usage: bash scripts/run.sh start | test [group...]" >&2; exit 2 ;;
esac
