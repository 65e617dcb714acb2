#!/bin/sh
# Runs a Python example of the signal kit: ./run.sh signal_service.py [flags]
#                                          ./run.sh trigger_server.py [flags]
# The gRPC stubs of transports/grpc/proto are generated, not committed: once per version of the
# .proto files (and of protoc), into $GANGLION_SIGNALS_STUBS when set, else into
# ${XDG_CACHE_HOME:-$HOME/.cache}/ganglion-signals/<hash>. The script then runs with
# /usr/bin/python3 (Debian's python3-grpcio and python3-protobuf; override: GANGLION_PYTHON).
set -eu

here=$(cd "$(dirname "$0")" && pwd)
proto_dir=$(cd "$here/../../../transports/grpc/proto" && pwd)
python=${GANGLION_PYTHON:-/usr/bin/python3}
plugin=${GRPC_PYTHON_PLUGIN:-/usr/bin/grpc_python_plugin}

fail() {
  echo "run.sh: $*" >&2
  exit 2
}

[ $# -ge 1 ] || fail "usage: run.sh SCRIPT.py [flags]  (signal_service.py, trigger_server.py)"
name=$1
shift
script=$name
[ -f "$script" ] || script=$here/$name
[ -f "$script" ] || fail "no script $name here or in $here"
command -v protoc >/dev/null || fail "protoc not found (Debian: apt-get install protobuf-compiler)"
[ -x "$plugin" ] || fail "$plugin not found (Debian: apt-get install protobuf-compiler-grpc)"

hash=$( (protoc --version; cat "$proto_dir/generic.proto" "$proto_dir/trigger.proto") \
  | sha256sum | cut -c1-16)
stubs=${GANGLION_SIGNALS_STUBS:-${XDG_CACHE_HOME:-$HOME/.cache}/ganglion-signals/$hash}

if [ "$(cat "$stubs/.stamp" 2>/dev/null)" != "$hash" ]; then
  "$python" -c 'import grpc, google.protobuf' 2>/dev/null \
    || fail "$python cannot import grpc (Debian: apt-get install python3-grpcio python3-protobuf)"
  mkdir -p "$stubs"
  # Generated aside and renamed in, so that two runs at once never see half a file.
  tmp=$(mktemp -d "$stubs/.tmp.XXXXXX")
  trap 'rm -rf "$tmp"' EXIT
  protoc -I "$proto_dir" --python_out="$tmp" --grpc_out="$tmp" \
    --plugin=protoc-gen-grpc="$plugin" "$proto_dir/generic.proto" "$proto_dir/trigger.proto"
  mv -f "$tmp"/*.py "$stubs"/
  echo "$hash" >"$tmp/stamp" && mv -f "$tmp/stamp" "$stubs/.stamp"
  rm -rf "$tmp"
  trap - EXIT
fi

PYTHONPATH=$stubs${PYTHONPATH:+:$PYTHONPATH} exec "$python" "$script" "$@"
