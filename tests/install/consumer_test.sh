#!/usr/bin/env bash
# Builds examples/embedding against an installed ganglion (find_package with
# CMAKE_PREFIX_PATH=<prefix>, g++, Ninja, ccache when present), runs it and checks the firings
# it prints. The example asks for `COMPONENTS core` only: the configure fails if the package
# looks for a transport's library (gRPC, protobuf, Boost and curl are disabled; librdkafka,
# libnats, libgit2, hiredis, libmosquitto and librabbitmq must not be in the cache), and the
# compile commands must not carry simdjson's definition. Usage: consumer_test.sh <prefix> <source dir>
set -euo pipefail
prefix=$1
source=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/ganglion-consumer.XXXXXX")
trap 'rm -rf "$work"' EXIT

launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$source/examples/embedding" -B "$work/example" -G Ninja -DCMAKE_CXX_COMPILER=g++ \
  -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_gRPC=ON -DCMAKE_DISABLE_FIND_PACKAGE_Protobuf=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON -DCMAKE_DISABLE_FIND_PACKAGE_CURL=ON \
  "${launcher[@]}" >"$work/configure.log" || { cat "$work/configure.log"; exit 1; }
for module in RDKAFKA NATS LIBGIT2 HIREDIS MOSQUITTO RABBITMQ; do
  if grep -q "^${module}_FOUND" "$work/example/CMakeCache.txt"; then
    echo "find_package(ganglion COMPONENTS core) looked for ${module}"; exit 1
  fi
done
if grep -q SIMDJSON_THREADS_ENABLED "$work/example/compile_commands.json"; then
  echo "the package pushes SIMDJSON_THREADS_ENABLED onto its consumer"; exit 1
fi
cmake --build "$work/example" -j 2 >"$work/build.log" || { cat "$work/build.log"; exit 1; }

if ! output=$(timeout 30 "$work/example/embedding"); then
  echo "$output"; echo "the example failed"; exit 1
fi
echo "$output"
grep -qx 'firing orders/audit: order={"amount":250}' <<<"$output"
grep -qx 'firing orders/ship: order={"amount":250} payment={"card":"visa"}' <<<"$output"
test "$(grep -c '^firing ' <<<"$output")" -eq 2

if ! output=$(timeout 30 "$work/example/engine_mode"); then
  echo "$output"; echo "the engine-mode example failed"; exit 1
fi
echo "$output"
grep -qx 'firing orders/audit: order={"amount":250}' <<<"$output"
grep -qx 'firing orders/ship: order={"amount":250} payment={"card":"visa"}' <<<"$output"
grep -qx '2 firings, engine stopped: ok' <<<"$output"
