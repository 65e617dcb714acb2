#!/usr/bin/env bash
# deploy.runtime_packages: the container image can run the binary this tree builds.
#
#   image_packages_test.sh BINARY DOCKERFILE    check (ctest runs this; exit 1 on a problem)
#   image_packages_test.sh --list BINARY        print the packages BINARY links, one per line
#
# Docker is not needed: the check reads the Dockerfile's runtime stage (everything after its last
# FROM) and compares it with what this Debian 12 machine resolves for the binary.
#  - Every library `ldd BINARY` resolves maps (dpkg -S) to a Debian package. A package of a
#    library the binary links directly (DT_NEEDED) must be named in the runtime stage's
#    `apt-get install`; a package of a library only linked through another library may also come
#    in as a Depends/Pre-Depends of a named package (apt installs those, recommends excepted).
#  - libc6, libgcc-s1 and libstdc++6 need not be named: they are in debian:12-slim (libc6 is
#    Essential; apt, which the slim image keeps, depends on libgcc-s1 and libstdc++6).
#  - Data the binary reads at run time must be named too: tzdata, ca-certificates.
#  - The default command passes --data-dir with a directory that is a VOLUME owned by the USER,
#    and does not bind the admin server on 9090 (Prometheus; Knative's queue-proxy metrics) or
#    another queue-proxy port.
set -uo pipefail

# Packages of debian:12-slim that the binary's libraries may come from without being named.
BASE_PACKAGES="libc6 libgcc-s1 libstdc++6"
# The sanitizers' runtimes, which a `make test` build links (cmake/sanitizers.cmake); the image
# is built from a build without sanitizers.
BASE_PACKAGES+=" libasan8 libubsan1 libtsan2"
# Packages the binary needs for files it reads, not for libraries it links: "package:why".
DATA_PACKAGES=(
  "tzdata:IANA time zones of time filters, read from /usr/share/zoneinfo"
  "ca-certificates:CA certificates for TLS to HTTP triggers and to Kafka/NATS buses"
)
# Ports the admin server must not take by default: Prometheus, and Knative's queue-proxy
# (8012 HTTP, 8013 HTTP/2, 8022 admin, 9090 autoscaler metrics, 9091 Prometheus metrics).
RESERVED_PORTS="9090 8012 8013 8022 9091"

die() { echo "image_packages_test: $*" >&2; exit 2; }

# The paths to try for a library, as ldd prints it, then its merged-/usr twin and its real
# path (Debian 12 merges /lib into /usr/lib; packages ship either form).
candidates_of() {
  local path=$1 real
  echo "$path"
  case $path in /usr/*) echo "${path#/usr}" ;; *) echo "/usr$path" ;; esac
  real=$(realpath -e -- "$path" 2>/dev/null) || return 0
  echo "$real"
  case $real in /usr/*) echo "${real#/usr}" ;; *) echo "/usr$real" ;; esac
}

# Fills OWNER[path] for every candidate path of the given libraries, with one dpkg -S call
# (each call reads the whole file database). dpkg prints "pkg:arch: path" or "pkg1, pkg2: path";
# the first owner is kept, without its architecture.
declare -A OWNER=()
find_owners() {
  local -a paths=()
  local path line pkg
  mapfile -t paths < <(for path in "$@"; do candidates_of "$path"; done | sort -u)
  [ ${#paths[@]} -gt 0 ] || return 0
  while IFS= read -r line; do
    case $line in "diversion by"*) continue ;; esac
    path=${line#*: /}
    path=/$path
    pkg=${line%%: /*}
    pkg=${pkg%%,*}
    OWNER[$path]=${pkg%%:*}
  done < <(dpkg -S "${paths[@]}" 2>/dev/null)
}

# The package owning a library path (after find_owners), or failure.
owner_of() {
  local c
  while read -r c; do
    [ -n "${OWNER[$c]:-}" ] && { echo "${OWNER[$c]}"; return 0; }
  done < <(candidates_of "$1")
  return 1
}

# "soname path" for every library ldd resolves; exits on a library that does not resolve.
resolved_libraries() {
  local binary=$1 out
  out=$(ldd "$binary" 2>&1) || die "ldd $binary failed: $out"
  if grep -q 'not found' <<<"$out"; then
    die "ldd cannot resolve libraries of $binary: $(grep 'not found' <<<"$out" | tr -s ' \t' ' ')"
  fi
  awk '
    $2 == "=>" && $3 ~ /^\// { print $1, $3; next }   # libfoo.so.1 => /path (0x...)
    $1 ~ /^\// { n = split($1, p, "/"); print p[n], $1 }  # /lib64/ld-linux-x86-64.so.2 (0x...)
  ' <<<"$out"                                           # linux-vdso.so.1 has no file: skipped
}

direct_sonames() {
  readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\].*/\1/p'
}

if [ "${1:-}" = "--list" ]; then
  [ $# -eq 2 ] || die "usage: $0 --list BINARY"
  needed=$(direct_sonames "$2")
  libs=$(resolved_libraries "$2") || exit 2
  # shellcheck disable=SC2046 # library paths have no spaces
  find_owners $(awk '{ print $2 }' <<<"$libs")
  while read -r soname path; do
    grep -qxF "$soname" <<<"$needed" || continue
    pkg=$(owner_of "$path") || die "no Debian package owns $path"
    echo "$pkg"
  done <<<"$libs" | sort -u | grep -vxF -f <(tr ' ' '\n' <<<"$BASE_PACKAGES")
  exit 0
fi

[ $# -eq 2 ] || die "usage: $0 BINARY DOCKERFILE | --list BINARY"
binary=$1
dockerfile=$2
[ -x "$binary" ] || die "no binary at $binary"
[ -r "$dockerfile" ] || die "cannot read $dockerfile"
command -v dpkg >/dev/null || die "dpkg is needed (Debian)"
name=$(basename "$(dirname "$dockerfile")")/$(basename "$dockerfile")

# The runtime stage's instructions, one per line: continuations joined, comments dropped.
stage=$(awk '
  /^[ \t]*#/ { next }
  { line = line $0 }
  /\\[ \t]*$/ { sub(/\\[ \t]*$/, " ", line); next }
  { if (line ~ /[^ \t]/) print line; line = "" }
  END { if (line ~ /[^ \t]/) print line }
' "$dockerfile" | awk 'toupper($1) == "FROM" { n = 0; next } { s[++n] = $0 }
  END { for (i = 1; i <= n; i++) print s[i] }')
[ -n "$stage" ] || die "$dockerfile has no runtime stage"

# Every package named by an apt-get/apt install in the runtime stage (version pins dropped).
installed=$(grep -iE '^[[:space:]]*RUN[[:space:]]' <<<"$stage" | sed -E 's/(&&|\|\||;)/\n/g' |
  awk '{
    for (i = 1; i <= NF; i++) if ($i == "apt-get" || $i == "apt") break
    for (i++; i <= NF; i++) if ($i == "install") break
    for (i++; i <= NF; i++) if ($i !~ /^-/) { sub(/[=:].*/, "", $i); print $i }
  }' | sort -u)

problems=()
declare -A named=() base=() brought=() direct=() missing=() indirect=()
for pkg in $installed; do named[$pkg]=1; done
for pkg in $BASE_PACKAGES; do base[$pkg]=1; done

# What apt brings with the named packages: Depends and Pre-Depends (first alternative), closed
# over what is installed on this machine.
queue="${!named[*]} ${!base[*]}"
for pkg in $queue; do brought[$pkg]=1; done
while [ -n "$queue" ]; do
  # shellcheck disable=SC2086 # one word per package
  deps=$(dpkg-query -W -f='${Depends}, ${Pre-Depends},\n' $queue 2>/dev/null)
  queue=""
  for pkg in $(tr ',' '\n' <<<"$deps" | sed -E 's/\|.*//; s/\(.*\)//; s/:[a-z0-9]+//; s/[[:space:]]//g'); do
    [ -n "${brought[$pkg]:-}" ] && continue
    brought[$pkg]=1
    queue="$queue $pkg"
  done
done

for soname in $(direct_sonames "$binary"); do direct[$soname]=1; done
[ ${#direct[@]} -gt 0 ] ||
  echo "image_packages_test: readelf found no NEEDED entries; every library is checked as indirect"

libs=$(resolved_libraries "$binary") || exit 2
# shellcheck disable=SC2046 # library paths have no spaces
find_owners $(awk '{ print $2 }' <<<"$libs")
libraries=0
while read -r soname path; do
  [ -n "$soname" ] || continue
  libraries=$((libraries + 1))
  pkg=$(owner_of "$path") || { problems+=("no Debian package owns $path ($soname)"); continue; }
  [ -n "${named[$pkg]:-}" ] || [ -n "${base[$pkg]:-}" ] && continue
  if [ -n "${direct[$soname]:-}" ]; then
    missing[$pkg]="${missing[$pkg]:+${missing[$pkg]}, }$soname"
  elif [ -z "${brought[$pkg]:-}" ]; then
    indirect[$pkg]="${indirect[$pkg]:+${indirect[$pkg]}, }$soname"
  fi
done <<<"$libs"

for pkg in $(printf '%s\n' "${!missing[@]}" | sort); do
  problems+=("$name's runtime stage lacks $pkg (for ${missing[$pkg]})")
done
for pkg in $(printf '%s\n' "${!indirect[@]}" | sort); do
  problems+=("$name's runtime stage lacks $pkg (for ${indirect[$pkg]}, which a linked library needs; no named package depends on $pkg)")
done
for entry in "${DATA_PACKAGES[@]}"; do
  pkg=${entry%%:*}
  [ -n "${named[$pkg]:-}" ] || problems+=("$name's runtime stage lacks $pkg (${entry#*:})")
done

# The default command: ENTRYPOINT + CMD, exec (JSON) or shell form.
args_of() {
  local line
  line=$(grep -iE "^[[:space:]]*$1[[:space:]]" <<<"$stage" | tail -n1 | sed -E "s/^[[:space:]]*[A-Za-z]+[[:space:]]+//")
  if [[ $line == \[* ]]; then grep -oE '"([^"\\]|\\.)*"' <<<"$line" | sed -E 's/^"//; s/"$//'
  else tr -s ' \t' '\n' <<<"$line" | sed '/^$/d'; fi
}
mapfile -t command_line < <(args_of ENTRYPOINT; args_of CMD)
data_dir="" admin=""
for ((i = 0; i < ${#command_line[@]}; i++)); do
  case ${command_line[i]} in
    --data-dir) data_dir=${command_line[i + 1]:-} ;;
    --data-dir=*) data_dir=${command_line[i]#--data-dir=} ;;
    --admin) admin=${command_line[i + 1]:-} ;;
    --admin=*) admin=${command_line[i]#--admin=} ;;
  esac
done
user=$(grep -iE '^[[:space:]]*USER[[:space:]]' <<<"$stage" | tail -n1 | awk '{ print $2 }')
if [ -z "$data_dir" ]; then
  problems+=("$name's default command passes no --data-dir (the durable bus would write ./ganglion-data)")
else
  grep -iE '^[[:space:]]*VOLUME[[:space:]]' <<<"$stage" | grep -qE "[[:space:]\"]${data_dir}/?([[:space:]\",]|\$)" ||
    problems+=("$name declares no VOLUME for the data directory $data_dir")
  if [ -n "$user" ] && [ "${user%%:*}" != root ] && [ "${user%%:*}" != 0 ]; then
    grep -iE '^[[:space:]]*RUN[[:space:]]' <<<"$stage" | grep -E "chown[^&;]*${user}[^&;]*${data_dir}" -q ||
      problems+=("$name's runtime stage does not chown $data_dir to its USER $user")
  fi
fi
if [ -n "$admin" ]; then
  port=${admin##*:}
  grep -qwF -- "$port" <<<"$RESERVED_PORTS" &&
    problems+=("$name's default command binds the admin server on $port (taken by Prometheus / Knative's queue-proxy)")
fi
if grep -iE '^[[:space:]]*EXPOSE[[:space:]]' <<<"$stage" | grep -qw 9090; then
  problems+=("$name exposes 9090 (Prometheus / Knative's queue-proxy)")
fi

if [ ${#problems[@]} -gt 0 ]; then
  printf '%s\n' "${problems[@]}" >&2
  echo "FAILED: ${#problems[@]} problem(s); the packages $binary links: $0 --list $binary" >&2
  exit 1
fi
echo "ok: $libraries libraries of $binary come from packages $name's runtime stage installs" \
     "($(wc -w <<<"$installed") named: $(paste -sd' ' <<<"$installed")); default command:" \
     "--data-dir $data_dir (VOLUME, owned by $user), admin ${admin:-off}"
