#!/usr/bin/env bash
# From a fresh Debian 12 machine to the default scenario in one command:
#   sudo tools/run-default.sh
# installs the packages (tools/setup-debian.sh), configures and builds the project in build/,
# and runs the default scenario build/examples/gsn-fat-tree (its arguments are passed on).
# Under sudo, the build runs as the calling user, so that build/ stays theirs.
set -euo pipefail
cd "$(dirname "$0")/.."

bash tools/setup-debian.sh

as_user=()
if [[ $(id -u) -eq 0 && -n "${SUDO_USER:-}" && "${SUDO_USER}" != "root" ]]; then
  as_user=(sudo -u "$SUDO_USER" --)
fi

"${as_user[@]}" cmake -S . -B build
"${as_user[@]}" cmake --build build -j2
"${as_user[@]}" ./build/examples/gsn-fat-tree "$@"
