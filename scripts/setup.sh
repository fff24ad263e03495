#!/usr/bin/env bash
# Sets up pdfservice on Debian 12, as root: Debian packages, Node.js 24 (in .tools/node), npm dependencies, the build.
#   bash scripts/setup.sh runtime   what the service needs to run (bash scripts/run.sh start)
#   bash scripts/setup.sh [test]    that and what the tests, corpus suite and benchmarks use
#   bash scripts/setup.sh test container   that and podman for the container group (test/container/, docs/container.md)
# Idempotent and quick when nothing is missing: it installs only what is absent
# and rebuilds only when sources changed. Each step it takes is printed.
set -euo pipefail
cd "$(dirname "$0")/.."

profile="${1:-test}"
case "$profile" in
  runtime | test) ;;
  *) echo "usage: bash scripts/setup.sh [runtime|test [container]]" >&2; exit 2 ;;
esac
container=0
if [ "$profile" = test ] && [ "${2:-}" = container ]; then container=1; fi

# What the service runs:
# libreoffice-writer: Word (.doc, .docx) to PDF on upload (not the -nogui build: the warm pool's instances need the UI
# descriptions it leaves out, docs/office.md "The pool"; apt replaces a -nogui build already there); fonts-liberation2 (metric-compatible
# with Times, Arial, Courier) and fonts-dejavu-core so converted documents keep their layout and glyphs.
# bubblewrap: Word conversions run LibreOffice in its sandbox, without network or the data folder (docs/office.md).
# default-jre-headless: the warm veraPDF helper (PDF/A preflight and the check after PDFAConvertAction, docs/pdfa.md) is a JVM.
# maven: builds that helper from java/verapdf/pom.xml with the veraPDF jars from Maven Central (step below).
# tesseract-ocr with its orientation data (-osd) and language packs: OCRAction (docs/ocr.md); more languages are one
# package each (tesseract-ocr-<code>), found at the next start.
# ghostscript, fonts-urw-base35 (metric-compatible standard 14 it embeds), icc-profiles-free (sRGB output intent):
# PDFAConvertAction (docs/pdfa.md).
# qpdf: LinearizeAction (docs/optimize.md); the tests also check outputs with it.
# libreoffice-calc, libreoffice-impress: spreadsheets and presentations (issue 22); python3-uno: the
# Python bridge of the warm LibreOffice pool's helper (scripts/office/uno-helper.py, docs/office.md "The pool").
# fonts-crosextra-carlito, fonts-crosextra-caladea, fonts-noto-core, fonts-noto-cjk: metric-compatible with the fonts
# Office documents name (Calibri, Cambria, ...) and CJK text, so layout and page counts match LibreOffice's desktop.
RUNTIME_PACKAGES=(libreoffice-writer bubblewrap fonts-liberation2 fonts-dejavu-core
  libreoffice-calc libreoffice-impress python3-uno fonts-crosextra-carlito fonts-crosextra-caladea
  fonts-noto-core fonts-noto-cjk
  tesseract-ocr tesseract-ocr-osd tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr-fra tesseract-ocr-spa tesseract-ocr-ita
  tesseract-ocr-por tesseract-ocr-rus default-jre-headless maven ghostscript fonts-urw-base35 icc-profiles-free qpdf
  chromium-headless-shell)

# What only the tests, the corpus and robustness suites and the benchmarks use:
# poppler-utils (pdftotext, pdfinfo, pdfsig, pdfdetach): independent checks in tests (qpdf too, a runtime package).
# libnss3-tools (certutil, pk12util): the NSS database pdfsig -add-signature signs from, the peer in the signing benchmark.
# mupdf-tools: the native peer in benchmarks. imagemagick: test images.
# default-jdk-headless, libpdfbox2-java: Apache PDFBox, an independent reader of our XFDF and FDF in tests.
# zsh: test/api/readme.test.ts checks that the README's examples parse in zsh as well as bash.
# python3-venv: the virtual environment scripts/schemathesis.sh installs Schemathesis into (CI's conformance run, .ci/run).
# ocrmypdf: the peer of the OCR benchmark (bench/ocr.ts), OCRAction's open-source reference (issue 19).
# libactivation-java, libjaxb-api-java: on the class path of PDFBox Preflight, the second PDF/A-1b validator (test/tools/pdfa-convert.test.ts).
# apache2-bin: the WebDAV server the DMS tests start from test/dav/httpd.conf (mod_dav, mod_dav_fs, mod_auth_basic; docs/dms.md);
# only the binary and modules, not apache2, so no system service or site is set up. litmus: the WebDAV suite run against it.
# swift (swift-ring-builder; it brings python3-swift, the servers with the s3api and tempauth middleware): the S3 server
# the S3 store's tests start from test/s3/ (docs/s3.md); not swift-proxy, swift-object, swift-container, swift-account,
# which add only system services and their start scripts (test/s3/swift-run.py starts the servers with the run's
# swift.conf, which those scripts cannot). memcached: tempauth requires a cache; the tests start one per run on a port
# of their own (the package's system service, where an init system starts it, is not used).
# redis-server (Redis 7.0): the Redis the shared-session tests start on a free loopback port (test/helpers/redis-server.ts,
# docs/deployment.md). Debian's package also sets up a system service on port 6379: the step below stops and disables it,
# so nothing depends on it.
# nginx: the load balancer of the proof test (test/redis/cluster.test.ts), run with the repository's deploy/nginx files; the
# package's system service (port 80) is disabled below, as Redis's is.
# python3-docx (python-docx 0.8): the independent reader of the DOCX export in test/api/export-docx.test.ts (styles, lists,
# tables, images).
# chromium, the full browser: the one test/api/cors-browser.test.ts drives (CORS is enforced by browsers only;
# playwright's own browser download cannot be used: nothing is fetched outside the package registries), and the
# `chromium --headless --print-to-pdf` loop the html benchmark compares with. HTML uploads (docs/html.md) run in
# chromium-headless-shell, a runtime package: about a fifth of the full browser's CPU a conversion.
TEST_PACKAGES=(poppler-utils libnss3-tools mupdf-tools imagemagick default-jdk-headless libpdfbox2-java zsh python3-venv
  ocrmypdf libactivation-java libjaxb-api-java apache2-bin litmus swift memcached redis-server nginx python3-docx chromium)
# python3-openpyxl: the independent reader of the XLSX export in test/api/export-sheets.test.ts (cell values, types,
# the header row's style and freeze).
TEST_PACKAGES+=(python3-openpyxl)

# Node.js (docs/deployment.md "Node.js"): Node 24 LTS, installed below; Node 22 also runs the service and the tests.
NODE_VERSION=24.22.3
NPM_VERSION=11.19.1

PACKAGES=("${RUNTIME_PACKAGES[@]}")
if [ "$profile" = test ]; then PACKAGES+=("${TEST_PACKAGES[@]}"); fi
# npm fetches Node.js (below); Debian's, only on a machine that has none and has not installed Node.js here yet.
if [ ! -x .tools/node/bin/npm ] && ! command -v npm >/dev/null; then PACKAGES+=(npm); fi
# What only the container group uses (bash scripts/run.sh test container; docs/container.md), so not installed otherwise:
# podman builds and runs the image (netavark, aardvark-dns and iptables: its network and published ports; runc: Debian's
# crun cannot run containers on a host with cgroup controllers in both v1 and v2, scripts/container.sh); debootstrap
# makes the Debian 12 base image from Debian's packages (no image registry is needed); docker-compose's `config` validates
# compose.yaml against the Compose schema without a Docker daemon (Debian's podman-compose 1.0.3 has no such command).
CONTAINER_PACKAGES=(podman runc netavark aardvark-dns iptables debootstrap docker-compose)
if [ "$container" -eq 1 ]; then PACKAGES+=("${CONTAINER_PACKAGES[@]}"); fi

did=0
# One dpkg-query for every package: each call reads dpkg's whole status database, and a call per package took 15 s for
# the 47 of the test profile at load 25 (0.2 s in one call). A package dpkg does not know is not listed at all.
declare -A installed=()
while read -r state name; do
  if [ "$state" = ii ]; then installed[${name%%:*}]=1; fi
done < <(dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' "${PACKAGES[@]}" 2>/dev/null || true)
missing=()
for pkg in "${PACKAGES[@]}"; do
  [ -n "${installed[$pkg]:-}" ] || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing Debian packages: ${missing[*]} (run as root, or install them)" >&2
    exit 1
  fi
  echo "setup: installing Debian packages: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  did=1
fi

# The tests start their own Redis and nginx; the system services their packages enable (and start where services may
# start) are stopped and disabled, every run, so that no test or CI step comes to rely on them. Quiet when already so.
disable_system_service() { # name, binary, pid file
  local name=$1 binary=$2 pidfile=$3
  [ -x "$binary" ] || return 0
  if command -v systemctl >/dev/null && systemctl is-enabled --quiet "$name" 2>/dev/null; then
    echo "setup: disabling the system $name service (the tests start their own)"
    systemctl disable --now "$name" >/dev/null 2>&1 || true
  elif ! command -v systemctl >/dev/null && command -v update-rc.d >/dev/null && ls /etc/rc[2-5].d/S*"$name" >/dev/null 2>&1; then
    echo "setup: disabling the system $name service (the tests start their own)"
    update-rc.d "$name" disable >/dev/null 2>&1 || true
  fi
  # Only the service's own process (its pid file): the tests' servers keep running.
  if [ -x "/etc/init.d/$name" ] && [ -f "$pidfile" ]; then
    echo "setup: stopping the system $name"
    "/etc/init.d/$name" stop >/dev/null 2>&1 || true
  fi
}
if [ "$profile" = test ] && [ "$(id -u)" -eq 0 ]; then
  disable_system_service redis-server /usr/bin/redis-server /run/redis/redis-server.pid
  disable_system_service nginx /usr/sbin/nginx /run/nginx.pid
fi

# Node.js: the official binaries of NODE_VERSION, which the npm registry carries as the package node-linux-<arch>, and
# npm NPM_VERSION beside them, in .tools/node (ignored by git); every script then runs that node (scripts/env.sh), never
# the machine's. Fetched with `npm pack` (which checks each tarball against the registry's integrity hash) by whatever
# npm the machine has: on a machine without one, Debian's npm (the packages step above) serves this once.
if [ "$(.tools/node/bin/node --version 2>/dev/null)" != "v$NODE_VERSION" ] || [ "$(.tools/node/bin/npm --version 2>/dev/null)" != "$NPM_VERSION" ]; then
  case "$(uname -m)" in
    x86_64) node_arch=x64 ;;
    aarch64) node_arch=arm64 ;;
    *) echo "setup: no Node.js package for this processor ($(uname -m))" >&2; exit 1 ;;
  esac
  echo "setup: installing Node.js $NODE_VERSION and npm $NPM_VERSION into .tools/node (npm packages node-linux-$node_arch, npm)"
  node_tmp=$(mktemp -d)
  # The machine's npm, or (on an upgrade, where the machine has none) the npm installed here before.
  npm_cli=(npm)
  if ! command -v npm >/dev/null; then npm_cli=("$PWD/.tools/node/bin/node" "$PWD/.tools/node/lib/node_modules/npm/bin/npm-cli.js"); fi
  (cd "$node_tmp" && "${npm_cli[@]}" pack --silent "node-linux-$node_arch@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
  rm -rf .tools/node.new && mkdir -p .tools/node.new/lib/node_modules/npm
  tar xzf "$node_tmp/node-linux-$node_arch-$NODE_VERSION.tgz" -C .tools/node.new --strip-components=1
  tar xzf "$node_tmp/npm-$NPM_VERSION.tgz" -C .tools/node.new/lib/node_modules/npm --strip-components=1
  ln -s ../lib/node_modules/npm/bin/npm-cli.js .tools/node.new/bin/npm
  ln -s ../lib/node_modules/npm/bin/npx-cli.js .tools/node.new/bin/npx
  rm -rf "$node_tmp" .tools/node && mv .tools/node.new .tools/node
  did=1
fi
. scripts/env.sh
hash -r

# npm dependencies: reinstall only when the lock file or Node.js changed since the last install (native modules are
# built for one Node.js). devDependencies included even for runtime: the build needs TypeScript, and the service runs
# from that build.
lock_hash=$( (cat package-lock.json; node --version) | sha256sum | cut -d' ' -f1)
if [ ! -f node_modules/.setup-lock-hash ] || [ "$(cat node_modules/.setup-lock-hash)" != "$lock_hash" ]; then
  echo "setup: npm dependencies (npm ci)"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_hash" > node_modules/.setup-lock-hash
  did=1
fi

# The web console (console/, docs/console.md): its own npm packages (Preact, openapi-fetch; Vite and TypeScript to build)
# in console/node_modules, from its own lock file, so none of them is a dependency of the service; then its build in
# console/dist, which the service serves at /pdfservice/v1/console. Both for the runtime profile too: the service serves
# the build. Reinstalled when console/package-lock.json or Node.js changed; rebuilt when a source of the console or the
# generated API types it is typed with (clients/typescript/src/generated/api.ts) is newer than the build.
console_lock_hash=$( (cat console/package-lock.json; node --version) | sha256sum | cut -d' ' -f1)
if [ ! -f console/node_modules/.setup-lock-hash ] || [ "$(cat console/node_modules/.setup-lock-hash)" != "$console_lock_hash" ]; then
  echo "setup: the console's npm dependencies (npm ci in console/)"
  (cd console && npm ci --no-audit --no-fund --loglevel=error)
  echo "$console_lock_hash" > console/node_modules/.setup-lock-hash
  did=1
fi
console_stamp=console/dist/index.html
console_inputs=(console/src console/index.html console/vite.config.ts console/tsconfig.json console/package-lock.json clients/typescript/src/generated/api.ts)
if [ ! -f "$console_stamp" ] || [ -n "$(find "${console_inputs[@]}" -newer "$console_stamp" -print -quit 2>/dev/null)" ]; then
  # A build is kept in the user's cache folder by the hash of its inputs' contents (and Node.js's version): a new clone
  # on the same machine copies it instead of building (85 s of a fresh clone's set-up at load 25). touch: the copy is
  # then newer than the clone's sources, as a build would be.
  console_hash=$( (find "${console_inputs[@]}" -type f | LC_ALL=C sort | xargs sha256sum; node --version) | sha256sum | cut -d' ' -f1)
  console_cache="${XDG_CACHE_HOME:-$HOME/.cache}/pdfservice/console-$console_hash"
  if [ -f "$console_cache/index.html" ]; then
    echo "setup: the console's build from this machine's build of the same sources ($console_cache -> console/dist)"
    rm -rf console/dist && cp -a "$console_cache" console/dist && touch "$console_stamp"
  else
    echo "setup: building the console (console/: tsc, then vite build -> console/dist)"
    (cd console && npm run --silent build >/dev/null)
    mkdir -p "$(dirname "$console_cache")" && rm -rf "$console_cache.$$" && cp -a console/dist "$console_cache.$$" \
      && rm -rf "$console_cache" && mv "$console_cache.$$" "$console_cache"
  fi
  did=1
fi

# The veraPDF helper (src/tools/verapdf.ts): our Java program and the veraPDF jars in .tools/verapdf (ignored). Maven
# needs the network the first time only; rebuilt only when the pom or the Java source changed (their hash is the stamp).
# A build is also kept in the user's cache folder by that hash, as the OpenTelemetry Collector below is, and a new clone
# on the same machine copies it (16 MB) instead of running Maven: Maven took 86 s of a fresh clone's set-up at load 25.
verapdf_dir=.tools/verapdf
verapdf_hash=$(cat java/verapdf/pom.xml $(find java/verapdf/src -type f | sort) | sha256sum | cut -d' ' -f1)
verapdf_cache="${XDG_CACHE_HOME:-$HOME/.cache}/pdfservice/verapdf-$verapdf_hash"
if [ ! -f "$verapdf_dir/.stamp" ] || [ "$(cat "$verapdf_dir/.stamp")" != "$verapdf_hash" ] || [ ! -f "$verapdf_dir/verapdf-helper.jar" ]; then
  rm -rf "$verapdf_dir"
  if [ -f "$verapdf_cache/verapdf-helper.jar" ] && [ "$(cat "$verapdf_cache/.stamp" 2>/dev/null)" = "$verapdf_hash" ]; then
    echo "setup: the veraPDF helper from this machine's build of the same sources ($verapdf_cache -> $verapdf_dir)"
    mkdir -p .tools && cp -a "$verapdf_cache" "$verapdf_dir"
  else
    echo "setup: building the veraPDF helper (Maven, java/verapdf/pom.xml -> $verapdf_dir)"
    # Maven's output only when it fails (quiet mode still prints terminal colour codes).
    if ! mvn_out=$(mvn -q -B -Dstyle.color=never -f java/verapdf/pom.xml package 2>&1); then
      echo "$mvn_out" >&2
      echo "setup: building the veraPDF helper failed (Maven needs Maven Central the first time)" >&2
      exit 1
    fi
    rm -rf "$verapdf_dir/build"
    echo "$verapdf_hash" > "$verapdf_dir/.stamp"
    # Into the cache under a name of its own first, so that another clone's set-up never copies half of it.
    mkdir -p "$(dirname "$verapdf_cache")" && rm -rf "$verapdf_cache.$$" && cp -a "$verapdf_dir" "$verapdf_cache.$$" \
      && rm -rf "$verapdf_cache" && mv "$verapdf_cache.$$" "$verapdf_cache"
  fi
  did=1
fi

# The Python client's tools (clients/python/requirements-dev.txt: openapi-python-client, build, pytest) in a virtual
# environment, as .venv-ci holds Schemathesis; test/clients/python.test.ts builds and tests the client with it (it only
# reads the environment). PyPI is needed the first time only. The environment is made once per machine for each pinned
# list and Python, in the user's cache folder, and .venv-clients (ignored) links to it: a venv cannot be copied (its
# scripts name its own path), and making it anew took 195 s of a fresh clone's set-up at load 25.
if [ "$profile" = test ]; then
  clients_venv=.venv-clients
  # The stamp: the pinned list's hash, as before the cache (an environment made then is kept); the cache's name adds Python's version.
  clients_hash=$(sha256sum clients/python/requirements-dev.txt | cut -d' ' -f1)
  if [ ! -f "$clients_venv/.stamp" ] || [ "$(cat "$clients_venv/.stamp")" != "$clients_hash" ]; then
    clients_cache="${XDG_CACHE_HOME:-$HOME/.cache}/pdfservice/venv-clients-$( (echo "$clients_hash"; python3 --version) | sha256sum | cut -c1-16)"
    if [ "$(cat "$clients_cache/.stamp" 2>/dev/null)" = "$clients_hash" ]; then
      echo "setup: the Python client's tools: $clients_venv -> $clients_cache (made before on this machine)"
    else
      echo "setup: the Python client's tools ($clients_cache, clients/python/requirements-dev.txt; $clients_venv links to it)"
      rm -rf "$clients_cache" && mkdir -p "$(dirname "$clients_cache")"
      python3 -m venv "$clients_cache"
      "$clients_cache/bin/pip" install --quiet --disable-pip-version-check -r clients/python/requirements-dev.txt
      echo "$clients_hash" > "$clients_cache/.stamp"
    fi
    # A link, or the folder an older set-up made here.
    rm -rf "$clients_venv" && ln -s "$clients_cache" "$clients_venv"
    did=1
  fi
fi

# A minimal OpenTelemetry Collector, the real OTLP receiver the tracing test (test/api/tracing.test.ts) and `bench
# --compare-tracing` start: test/otel/collector/main.go (the core OTLP receiver and OTLP/HTTP exporter only), built with
# Go from the Go module proxy, its whole dependency graph pinned by its go.mod and go.sum. Kept outside the clone, in
# the user's cache folder by version, so that every clone on the machine shares one binary; rebuilt only when the
# program or its pins change. Measured here on 2026-12-01 (2 shared cores): with Go's module and build caches
# empty, 944 packages, 284 s wall and 306 s of CPU at load average 10 falling to 5 (352 s wall, 230 s CPU in a second
# run at load 5 to 7); with the caches warm, 8 s for a change of main.go (the link). Jaeger v1.76.0, the receiver
# before it, took 3,372 s wall and 765 s of CPU cold (2,325 packages). The binary is 52 MiB.
if [ "$profile" = test ]; then
  otelcol_dir="${XDG_CACHE_HOME:-$HOME/.cache}/pdfservice/otelcol-v0.165.0"
  otelcol_hash=$(cat test/otel/collector/go.mod test/otel/collector/go.sum test/otel/collector/main.go | sha256sum | cut -d' ' -f1)
  if [ ! -x "$otelcol_dir/otelcol" ] || [ "$(cat "$otelcol_dir/.stamp" 2>/dev/null)" != "$otelcol_hash" ]; then
    go_cmd=$(command -v go || true)
    if [ -z "$go_cmd" ] && [ -x /usr/local/go/bin/go ]; then go_cmd=/usr/local/go/bin/go; fi
    if [ -z "$go_cmd" ]; then
      echo "setup: Go (1.25 or later) is needed to build the OpenTelemetry Collector for the tracing tests (test/otel/collector); Debian 12's golang is too old" >&2
      exit 1
    fi
    echo "setup: building a minimal OpenTelemetry Collector v0.165.0 (test/otel/collector) with $("$go_cmd" version | cut -d' ' -f3) from the Go module proxy -> $otelcol_dir (a few minutes the first time)"
    mkdir -p "$otelcol_dir"
    (cd test/otel/collector && "$go_cmd" build -o "$otelcol_dir/otelcol.new" .)
    mv "$otelcol_dir/otelcol.new" "$otelcol_dir/otelcol"
    echo "$otelcol_hash" > "$otelcol_dir/.stamp"
    did=1
  fi
fi

# Build: only when a source is newer than the last build. The output of a source that was moved or deleted goes with a
# clean build: `node --test dist/test/` would run an old test file left there.
stamp=dist/.build-stamp
# (A fresh clone has no dist: nothing is orphaned, and a failing `cd` must not end the set-up under `set -e`.)
orphan=""
if [ -d dist ]; then
  orphan=$(cd dist && find src test corpus bench robust -name '*.js' 2>/dev/null | while read -r out; do [ -f "../${out%.js}.ts" ] || echo "$out"; done || true)
fi
if [ ! -f "$stamp" ] || [ -n "$orphan" ] || [ -n "$(find src test corpus bench robust clients/typescript/src tsconfig.json package.json -newer "$stamp" -print -quit 2>/dev/null)" ]; then
  echo "setup: building"
  if [ -n "$orphan" ]; then rm -rf dist; fi
  npx tsc -p tsconfig.json
  touch "$stamp"
  did=1
fi

if [ "$did" -eq 0 ]; then echo "setup: nothing to do ($profile: packages, Node.js $NODE_VERSION, npm dependencies, the console$([ "$profile" = test ] && echo ', the OpenTelemetry Collector') and build are up to date)"; fi
