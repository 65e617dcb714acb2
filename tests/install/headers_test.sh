#!/usr/bin/env bash
# Every installed header compiles on its own, with the prefix's include directory and CAF's only,
# and includes no third-party header other than CAF's: its include chain may reach the prefix,
# /usr/include/caf, and the C and C++ standard libraries (the files of libc6-dev and
# linux-libc-dev, libstdc++ and GCC's own). A header that pulls in simdjson fails here.
# Usage: headers_test.sh <prefix>
set -euo pipefail
prefix=$(realpath "$1")
work=$(mktemp -d "${TMPDIR:-/tmp}/ganglion-headers.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The standard C library's headers live in /usr/include beside every other package's.
dpkg -L libc6-dev linux-libc-dev 2>/dev/null | grep '^/usr/include/' | sort -u >"$work/libc"

check() { # <header relative to include/>
  local header=$1 tu=$work/${1//\//_}.cpp
  printf '#include <%s>\n' "$header" >"$tu"
  if ! g++ -std=c++20 -fsyntax-only -MD -MF "$tu.d" -I"$prefix/include" "$tu" 2>"$tu.err"; then
    echo "FAIL $header does not compile on its own:"; head -20 "$tu.err"; return 1
  fi
  tr ' \\' '\n\n' <"$tu.d" | grep '^/' | grep -v "^$work/" | sort -u >"$tu.deps"
  local leaks
  leaks=$(grep -v -e "^$prefix/include/" -e '^/usr/include/caf/' -e '^/usr/include/c++/' \
            -e '^/usr/include/x86_64-linux-gnu/' -e '^/usr/lib/gcc/' "$tu.deps" \
          | comm -23 - "$work/libc" || true)
  if [[ -n $leaks ]]; then
    echo "FAIL $header includes third-party headers:"; echo "$leaks" | sed 's/^/  /'; return 1
  fi
}
export -f check
export prefix work

cd "$prefix/include"
headers=$(find ganglion -name '*.hpp' | sort)
count=$(wc -l <<<"$headers")
if grep -q '/internal/' <<<"$headers"; then
  echo "FAIL internal/ headers are installed:"; grep '/internal/' <<<"$headers"; exit 1
fi
if xargs -P 2 -I{} bash -c 'check {}' <<<"$headers"; then
  echo "$count installed headers compile alone and include no third-party header but CAF's"
else
  exit 1
fi
