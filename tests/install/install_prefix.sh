#!/usr/bin/env bash
# Installs the build into a fresh prefix for the install tier (never CMAKE_INSTALL_PREFIX).
# Usage: install_prefix.sh <build dir> <prefix>
set -euo pipefail
rm -rf "$2"
cmake --install "$1" --prefix "$2" >/dev/null
test -f "$2/lib/cmake/ganglion/ganglionConfig.cmake"
test -f "$2/lib/cmake/ganglion/ganglionConfigVersion.cmake"
echo "installed $(find "$2" -type f | wc -l) files into $2"
