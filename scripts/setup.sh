#!/usr/bin/env bash
# Sets up everything pdfservice needs on Debian 12, as root: the Debian packages
# the service and its tests use, the npm dependencies, and the build.
# Idempotent and quick when nothing is missing: it installs only what is absent
# and rebuilds only when sources changed.
set -euo pipefail
cd "$(dirname "$0")/.."

# qpdf, poppler-utils (pdftotext, pdfinfo, pdfsig, pdfdetach): independent checks in tests.
# libnss3-tools (certutil, pk12util): the NSS database pdfsig -add-signature signs from, the peer in the signing benchmark.
# mupdf-tools: the native peer in benchmarks. imagemagick: test images.
# libreoffice-writer-nogui: Word (.doc, .docx) to PDF on upload; fonts-liberation2 (metric-compatible
# with Times, Arial, Courier) and fonts-dejavu-core so converted documents keep their layout and glyphs.
# default-jdk-headless, libpdfbox2-java: Apache PDFBox, an independent reader of our XFDF and FDF in tests.
# bubblewrap: Word conversions run LibreOffice in its sandbox, without network or the data folder (docs/office.md).
PACKAGES=(qpdf poppler-utils libnss3-tools mupdf-tools imagemagick libreoffice-writer-nogui bubblewrap fonts-liberation2 fonts-dejavu-core default-jdk-headless libpdfbox2-java)

missing=()
for pkg in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$pkg")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ]; then
    echo "setup: missing Debian packages: ${missing[*]} (run as root, or install them)" >&2
    exit 1
  fi
  echo "setup: installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  echo "setup: Node.js 20 or newer is needed (found $(node --version))" >&2
  exit 1
fi

# npm dependencies: reinstall only when the lock file changed since the last install.
lock_hash=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f node_modules/.setup-lock-hash ] || [ "$(cat node_modules/.setup-lock-hash)" != "$lock_hash" ]; then
  echo "setup: installing npm dependencies"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_hash" > node_modules/.setup-lock-hash
fi

# Build: only when a source is newer than the last build.
stamp=dist/.build-stamp
if [ ! -f "$stamp" ] || [ -n "$(find src test corpus bench robust tsconfig.json package.json -newer "$stamp" -print -quit 2>/dev/null)" ]; then
  echo "setup: building"
  npx tsc -p tsconfig.json
  touch "$stamp"
fi
