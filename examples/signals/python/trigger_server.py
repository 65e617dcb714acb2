"""A custom trigger server: a gRPC server implementing `triggers.Trigger`
(transports/grpc/proto/trigger.proto), which ganglion calls for a `custom` trigger.

Per firing the engine calls, in order:
  FetchResource(YAML of template.custom.spec) -> here: the spec as a JSON object
  (the engine applies custom.parameters to that JSON)
  Execute(resource, payload of custom.payload) -> here: one JSON line, printed or appended
  to --output; the response is that line
  ApplyPolicy(Execute's response) -> here: success, always

Run it with ./run.sh trigger_server.py [flags] (run.sh generates the gRPC stubs).
"""

import argparse
import json
import signal
import sys
import threading
from concurrent import futures

import grpc

try:
    import yaml
except ImportError:
    sys.exit("trigger_server.py: needs PyYAML (Debian: apt-get install python3-yaml)")

import trigger_pb2
import trigger_pb2_grpc


def log(*parts):
    """Writes one line to stderr."""
    print(*parts, file=sys.stderr, flush=True)


def as_text(data):
    """`data` (bytes) as JSON when it is JSON, else as text."""
    try:
        return json.loads(data) if data else None
    except ValueError:
        return data.decode("utf-8", errors="replace")


class Trigger(trigger_pb2_grpc.TriggerServicer):
    """Turns the spec into a JSON resource and records every execution."""

    def __init__(self, output):
        self.output = output
        self.lock = threading.Lock()

    def FetchResource(self, request, context):
        """The YAML spec (a map of strings) as a JSON object."""
        try:
            spec = yaml.safe_load(request.resource) or {}
        except yaml.YAMLError as e:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"the spec is not YAML: {e}")
        resource = json.dumps(spec, separators=(",", ":"), default=str)
        log(f"FetchResource: {resource}")
        return trigger_pb2.FetchResourceResponse(resource=resource.encode("utf-8"))

    def Execute(self, request, context):
        """Appends one line {"resource":…,"payload":…} to --output (stdout without it)."""
        line = json.dumps({"resource": as_text(request.resource),
                           "payload": as_text(request.payload)}, separators=(",", ":"))
        with self.lock:
            if self.output:
                with open(self.output, "a", encoding="utf-8") as out:
                    out.write(line + "\n")
                log(f"Execute: appended to {self.output}")
            else:
                print(line, flush=True)
        return trigger_pb2.ExecuteResponse(response=line.encode("utf-8"))

    def ApplyPolicy(self, request, context):
        """Judges Execute's response: always a success here."""
        log("ApplyPolicy: success")
        return trigger_pb2.ApplyPolicyResponse(success=True, message="recorded")


def parse_args():
    """The command line; exits 2 with a message when it is wrong."""
    p = argparse.ArgumentParser(prog="trigger_server.py",
                                description="a triggers.Trigger server for ganglion's custom trigger")
    p.add_argument("--listen", default="127.0.0.1:9001", metavar="HOST:PORT",
                   help="address to serve on; port 0 picks a free one (default %(default)s)")
    p.add_argument("--tls-cert", metavar="FILE", help="serve TLS with this certificate (PEM)")
    p.add_argument("--tls-key", metavar="FILE", help="the certificate's private key (PEM)")
    p.add_argument("--output", metavar="FILE",
                   help="append each execution as a JSON line to FILE (default: stdout)")
    args = p.parse_args()
    if bool(args.tls_cert) != bool(args.tls_key):
        p.error("--tls-cert and --tls-key go together")
    if ":" not in args.listen:
        p.error(f"--listen wants HOST:PORT, got {args.listen}")
    return args


def main():
    """Serves until SIGTERM or SIGINT; prints `listening on HOST:PORT` once it accepts calls."""
    args = parse_args()
    stopping = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stopping.set())
    signal.signal(signal.SIGINT, lambda *_: stopping.set())

    # so_reuseport 0: a port in use is an error, not shared with the server already there.
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=8),
                         options=[("grpc.so_reuseport", 0)])
    trigger_pb2_grpc.add_TriggerServicer_to_server(Trigger(args.output), server)
    try:
        if args.tls_cert:
            with open(args.tls_key, "rb") as key, open(args.tls_cert, "rb") as cert:
                credentials = grpc.ssl_server_credentials([(key.read(), cert.read())])
            port = server.add_secure_port(args.listen, credentials)
        else:
            port = server.add_insecure_port(args.listen)
    except (OSError, RuntimeError) as e:
        sys.exit(f"trigger_server.py: cannot listen on {args.listen}: {e}")
    if port == 0:
        sys.exit(f"trigger_server.py: cannot listen on {args.listen}")
    server.start()
    print(f"listening on {args.listen.rsplit(':', 1)[0]}:{port}", flush=True)
    while not stopping.wait(3600):
        pass
    server.stop(grace=2).wait()


if __name__ == "__main__":
    main()
