#!/usr/bin/env bash
# layout.include_direction: the folders of a source root include downwards only. The order of
# each root is in include_order.txt (lowest first; folders on one line are peers and do not
# include each other); docs/architecture.md says why each folder sits where it does.
#
#   include_direction.sh [SOURCE_DIR [ORDER_FILE]]   (ctest runs it; exit 1 on a problem)
#
# Every `#include "…"` (and `<…>`) of a root's files is resolved as the compiler resolves it:
# next to the including file first, then from the root (each component's src/ is on its include
# path); an include that resolves to neither (a public or third-party header) is not a folder's.
# A resolved include is fine when it stays in the includer's folder or names a folder on a lower
# line; otherwise it is printed as `file:line: <folder>/ includes <path> (allowed: …)`. A folder
# of a listed root that the order does not list is a problem too, so a new folder gets a place.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "${1:-$here/../..}" && pwd)
order=${2:-$here/include_order.txt}
cd "$top" || exit 2

declare -A level   # "<root>|<folder>" -> its line number within the root, from 0
declare -A allowed # "<root>|<folder>" -> the folders below it, for the message
roots=()
root=''
n=0
while IFS= read -r line || [[ -n $line ]]; do
  line=${line%%#*}
  read -r -a words <<<"$line"
  ((${#words[@]})) || continue
  if [[ ${words[0]} =~ ^\[(.+)\]$ ]]; then
    root=${BASH_REMATCH[1]}
    roots+=("$root")
    n=0
    below=''
    continue
  fi
  if [[ -z $root ]]; then
    echo "$order: folders before the first [root] line" >&2
    exit 2
  fi
  for folder in "${words[@]}"; do
    level["$root|$folder"]=$n
    allowed["$root|$folder"]=${below:-nothing}
  done
  for folder in "${words[@]}"; do below+="${below:+ }$folder/"; done
  ((n++))
done <"$order"

include_re='#[[:space:]]*include[[:space:]]*["<]([^">]+)[">]'
problems=0
checked=0
for root in "${roots[@]}"; do
  if [[ ! -d $root ]]; then
    echo "$root: listed in $(basename "$order") but missing"
    ((problems++))
    continue
  fi
  # Every folder of the root (and `.` when files sit in the root itself) has a line.
  folders=$(find "$root" -mindepth 1 -maxdepth 1 -type d -printf '%f\n')
  if find "$root" -maxdepth 1 -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \) \
       | grep -q .; then
    folders+=$'\n.'
  fi
  for folder in $folders; do
    if [[ -z ${level["$root|$folder"]+set} ]]; then
      echo "$root/$folder: a folder that $(basename "$order") does not place in [$root]"
      ((problems++))
    fi
  done

  while IFS= read -r hit; do
    file=${hit%%:*}
    rest=${hit#*:}
    lineno=${rest%%:*}
    text=${rest#*:}
    [[ $text =~ $include_re ]] || continue
    path=${BASH_REMATCH[1]}
    inner=${file#"$root"/}
    from=.
    [[ $inner == */* ]] && from=${inner%%/*}
    if [[ -f ${file%/*}/$path ]]; then
      target=${file%/*}/$path
    elif [[ -f $root/$path ]]; then
      target=$root/$path
    else
      continue
    fi
    [[ $target == *./* ]] && target=$(realpath -m --relative-to="$top" "$target")
    [[ $target == "$root"/* ]] || continue
    inner=${target#"$root"/}
    to=.
    [[ $inner == */* ]] && to=${inner%%/*}
    [[ $to == "$from" ]] && continue
    ((checked++))
    from_level=${level["$root|$from"]-}
    to_level=${level["$root|$to"]-}
    [[ -n $from_level && -n $to_level ]] || continue # unplaced: reported above
    if ((to_level >= from_level)); then
      echo "$file:$lineno: $from/ includes $inner (allowed: ${allowed["$root|$from"]})"
      ((problems++))
    fi
  done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include' --include='*.cpp' --include='*.hpp' \
             --include='*.h' "$root" | sort -t: -k1,1 -k2,2n)
done

if ((problems)); then
  echo "include direction: $problems problem(s); the order is in $order"
  exit 1
fi
echo "include direction: ok (${#roots[@]} roots, $checked includes between folders)"
