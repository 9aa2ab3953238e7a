#!/usr/bin/env bash
# Fetches Debian's ns3 source package of the installed release (ns-3.37) and unpacks it, once:
# the source tree is WORK_DIR/ns3-3.37/ns-3.37 afterwards. tools/ns3-tree-test.sh builds the
# modules inside that tree; the CMake option GSN_ENABLE_MPI compiles its src/mpi from it.
# A deb-src entry for bookworm is added when apt has none (as root, or through sudo).
#
# Usage: tools/fetch-ns3-source.sh WORK_DIR
# Exit status 0 with the tree in place (already there, or fetched), 1 otherwise (with a line
# saying why on stderr). Nothing of the package is copied into the repository.
set -euo pipefail
say() { printf 'fetch-ns3-source: %s\n' "$*" >&2; }

if [[ $# -ne 1 ]]; then
  say "usage: $0 WORK_DIR"
  exit 1
fi
work=$(realpath -m "$1")
tree="$work/ns3-3.37/ns-3.37"
if [[ -x "$tree/ns3" ]]; then
  exit 0
fi
mkdir -p "$work"

SUDO=()
[[ $(id -u) -ne 0 ]] && SUDO=(sudo -n)

if ! apt-get source --print-uris ns3 2>/dev/null | grep -q "ns3_3.37"; then
  say "adding a deb-src entry for bookworm (/etc/apt/sources.list.d/gsn-deb-src.sources)"
  if ! "${SUDO[@]}" tee /etc/apt/sources.list.d/gsn-deb-src.sources >/dev/null <<'SRC'
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  then
    say "error: cannot add the deb-src entry (not root and no sudo)"
    exit 1
  fi
  "${SUDO[@]}" apt-get update -qq || true
fi
say "fetching Debian's ns3 source package into $work"
if ! (cd "$work" && apt-get source --download-only ns3 >/dev/null 2>&1 &&
  dpkg-source -x ns3_3.37-*.dsc ns3-3.37 >/dev/null 2>&1); then
  say "error: apt-get source ns3 / dpkg-source failed in $work"
  exit 1
fi
if [[ ! -x "$tree/ns3" ]]; then
  say "error: no ns-3.37 tree in $tree after apt-get source ns3"
  exit 1
fi
