#!/usr/bin/env bash
# The container image (Containerfile, docs/container.md), with Debian's podman:
#   bash scripts/container.sh base      make the Debian 12 base image with debootstrap, unless it exists
#   bash scripts/container.sh build     the base, then the image, unless one built from the same files exists;
#                                       prints the image's name (localhost/pdfservice:<hash of those files>)
#   bash scripts/container.sh podman …  podman with this machine's settings (below), e.g. run, rm, logs
# No image registry is needed: the base is made from Debian's packages (the mirror apt uses here), and the build fetches
# only Debian packages, npm packages and Maven Central's jars.
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=localhost/pdfservice-base:bookworm
NAME=localhost/pdfservice

# podman as this machine allows: Debian 12's crun refuses a host whose cgroup v2 hierarchy holds a controller beside
# cgroup v1's ("cgroups in hybrid mode not supported"), runc does not; and a root without CAP_SYS_RESOURCE cannot give a
# container podman's default limits (1048576 files, 4194304 processes: "setrlimit RLIMIT_NOFILE: Operation not
# permitted"), so the container gets the limits this shell has (processes: at most 32768, conmon's own here).
# On an ordinary host both are harmless. A containers.conf in a folder of its own, so the machine's is left alone.
podman_conf() {
  local dir=${XDG_RUNTIME_DIR:-/tmp}/pdfservice-container nofile nproc
  nofile=$(ulimit -Hn); nproc=$(ulimit -Hu)
  [ "$nofile" = unlimited ] && nofile=1048576
  if [ "$nproc" = unlimited ] || [ "$nproc" -gt 32768 ]; then nproc=32768; fi
  mkdir -p "$dir"
  printf '[containers]\ndefault_ulimits = ["nofile=%s:%s", "nproc=%s:%s"]\n[engine]\nruntime = "runc"\n' \
    "$nofile" "$nofile" "$nproc" "$nproc" > "$dir/containers.conf"
  export CONTAINERS_CONF="$dir/containers.conf"
}

# The Debian mirror apt uses on this machine (deb822 or one-line sources), else Debian's own.
debian_mirror() {
  local uri
  uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
    grep -oE '(URIs:[[:space:]]*|^deb[[:space:]]+(\[[^]]*\][[:space:]]+)?)https?://[^[:space:]]+/debian/?([[:space:]]|$)' |
    grep -oE 'https?://[^[:space:]]+' | head -1 || true)
  echo "${uri:-http://deb.debian.org/debian}"
}

make_base() {
  if podman image exists "$BASE"; then return 0; fi
  local mirror dir
  mirror=$(debian_mirror)
  dir=$(mktemp -d /var/tmp/pdfservice-rootfs.XXXXXX)
  trap 'rm -rf "$dir"' EXIT
  echo "container: making the base image $BASE (debootstrap bookworm from $mirror)" >&2
  if ! out=$(debootstrap --variant=minbase bookworm "$dir" "$mirror" 2>&1); then
    echo "$out" >&2
    echo "container: debootstrap failed" >&2
    exit 1
  fi
  # Updates and security updates too, so the image's apt-get installs the current packages.
  printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s-security bookworm-security main\n' \
    "$mirror" "$mirror" "$mirror" > "$dir/etc/apt/sources.list"
  rm -rf "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/*
  tar -C "$dir" -c . | podman import --quiet --change 'CMD ["/bin/bash"]' - "$BASE" >/dev/null
  rm -rf "$dir"
  trap - EXIT
}

# The files the image is built from: what .containerignore lets into the build context (its "!" lines), hashed by name
# and content, so an image is rebuilt exactly when one of them changed.
context_hash() {
  local paths
  mapfile -t paths < <(sed -n 's/^!\([^*]*\)$/\1/p' .containerignore | sed 's:/$::')
  find "${paths[@]}" -type f ! -path '*/target/*' ! -name '*.pyc' -print0 | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16
}

build() {
  make_base
  local tag
  tag="$NAME:$(context_hash)"
  if ! podman image exists "$tag"; then
    echo "container: building $tag" >&2
    # The certificate authorities added to this host (a TLS-inspecting proxy's), for the build's downloads only.
    local ca
    ca=$(mktemp)
    find /usr/local/share/ca-certificates -name '*.crt' -type f -exec cat {} + > "$ca" 2>/dev/null || true
    # docker format: OCI images have no HEALTHCHECK. Output only when it fails.
    if ! out=$(podman build --format docker --build-arg "BASE=$BASE" --secret "id=extra-ca,src=$ca" -t "$tag" . 2>&1); then
      rm -f "$ca"
      echo "$out" >&2
      echo "container: the build failed" >&2
      exit 1
    fi
    rm -f "$ca"
  fi
  echo "$tag"
}

podman_conf
case "${1:-}" in
  base) make_base ;;
  build) build ;;
  podman) shift; exec podman "$@" ;;
  *) echo "usage: bash scripts/container.sh base | build | podman ARGS..." >&2; exit 2 ;;
esac
