#!/bin/sh
# The fuzz smoke test: configures and builds the fuzz project with clang into <build dir>,
# then runs every target for 5 seconds. Usage: run_smoke.sh <build dir> [clang++]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$1
cxx=${2:-clang++}
generator=Ninja
command -v ninja > /dev/null 2>&1 || generator="Unix Makefiles"
[ -f "$build/CMakeCache.txt" ] || cmake -S "$here" -B "$build" -G "$generator" -DCMAKE_CXX_COMPILER="$cxx" > "$build.configure.log" 2>&1 || {
  cat "$build.configure.log"; exit 1; }
cmake --build "$build" -j 2
exec "$here/run.sh" "$build" 5
