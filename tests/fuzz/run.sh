#!/bin/sh
# Runs every fuzz target in a build directory for a number of seconds each, starting from the
# seed corpus in corpus/<target>/; exits non-zero on the first crash, leak or timeout.
# Usage: run.sh <fuzz build dir> <seconds per target>
set -eu
build=$1
seconds=$2
here=$(cd "$(dirname "$0")" && pwd)
status=0
for target in "$build"/*_fuzz; do
  [ -x "$target" ] || continue
  name=$(basename "$target")
  work="$build/corpus/$name"
  artifacts="$build/artifacts/$name/"
  mkdir -p "$work" "$artifacts" "$here/corpus/$name"
  echo "fuzz: $name for ${seconds}s"
  if ! "$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
      -print_final_stats=1 -artifact_prefix="$artifacts" "$work" "$here/corpus/$name" \
      > "$build/$name.log" 2>&1; then
    tail -n 60 "$build/$name.log"
    echo "fuzz: $name FAILED (reproducer in $artifacts)"
    status=1
  else
    grep -E '^stat::number_of_executed_units' "$build/$name.log" || true
  fi
done
exit $status
