"""A signal service: a gRPC server implementing `generic.Eventing`
(transports/grpc/proto/generic.proto). Every StartEventSource call gets its own stream of
numbered JSON events. Copy it and replace `next_payload` with your own source of events.

Run it with ./run.sh signal_service.py [flags] (run.sh generates the gRPC stubs); --help lists
the flags, the same as cpp/signal_service.cpp's.
"""

import argparse
import hmac
import json
import signal
import sys
import threading
from concurrent import futures

import grpc

import generic_pb2
import generic_pb2_grpc

# The engine pings every 10 s to notice a dead connection; allow it on idle streams.
SERVER_OPTIONS = [
    ("grpc.http2.min_ping_interval_without_data_ms", 5000),
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.http2.max_ping_strikes", 0),
    # A port in use is an error, not shared with the server already there.
    ("grpc.so_reuseport", 0),
]


def log(*parts):
    """Writes one line to stderr."""
    print(*parts, file=sys.stderr, flush=True)


class Eventing(generic_pb2_grpc.EventingServicer):
    """The service: numbered events for every stream, until the client cancels or we stop."""

    def __init__(self, args, stopping):
        self.args = args
        self.stopping = stopping
        self.replica = args.replica_name

    def next_payload(self, seq, source):
        """Your event source goes here: the payload of event number `seq`."""
        return json.dumps(
            {
                "seq": seq,
                "source": source.name,
                "config": source.config.decode("utf-8", errors="replace"),
                "replica": self.replica,
            },
            separators=(",", ":"),
            ensure_ascii=False,
        ).encode("utf-8")

    def authorized(self, context):
        """True when the call carries `authorization: Bearer <--token>`."""
        expected = ("Bearer " + self.args.token).encode("utf-8")
        for key, value in context.invocation_metadata():
            if key == "authorization":
                return hmac.compare_digest(value.encode("utf-8"), expected)
        return False

    def StartEventSource(self, request, context):
        """One stream: events every --interval-ms, --count of them (0: no end)."""
        if self.args.token and not self.authorized(context):
            log(f"stream refused: {request.name}: invalid bearer token")
            context.abort(grpc.StatusCode.UNAUTHENTICATED, "invalid bearer token")
        ended = threading.Event()  # set when the call ends: cancelled, or the server stops
        context.add_callback(ended.set)
        log(f"stream started: {request.name} ({context.peer()})")
        seq = 0
        try:
            while context.is_active() and not self.stopping.is_set():
                if self.args.count and seq >= self.args.count:
                    ended.wait(0.1)  # after the last event the stream stays open, idle
                    continue
                seq += 1
                yield generic_pb2.Event(name=request.name, payload=self.next_payload(seq, request))
                ended.wait(self.args.interval_ms / 1000)
        finally:  # also when gRPC closes the generator at a `yield` of a cancelled call
            why = "shutting down" if self.stopping.is_set() else "cancelled by the client"
            log(f"stream ended: {request.name} after {seq} events ({why})")


def parse_args():
    """The command line; exits 2 with a message when it is wrong."""
    p = argparse.ArgumentParser(
        prog="signal_service.py",
        description="a generic.Eventing service for ganglion's generic event source")
    p.add_argument("--listen", default="127.0.0.1:9000", metavar="HOST:PORT",
                   help="address to serve on; port 0 picks a free one (default %(default)s)")
    p.add_argument("--token", default="", help="require `authorization: Bearer TOKEN`")
    p.add_argument("--tls-cert", metavar="FILE", help="serve TLS with this certificate (PEM)")
    p.add_argument("--tls-key", metavar="FILE", help="the certificate's private key (PEM)")
    p.add_argument("--interval-ms", type=int, default=1000, metavar="N",
                   help="pause between events; 0: as fast as possible (default %(default)s)")
    p.add_argument("--count", type=int, default=0, metavar="N",
                   help="events per stream, then idle until cancelled; 0: no end (default 0)")
    p.add_argument("--replica-name", metavar="NAME", help="`replica` of the payload "
                   "(default: HOST:PORT)")
    args = p.parse_args()
    if args.interval_ms < 0 or args.count < 0:
        p.error("--interval-ms and --count must not be negative")
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

    service = Eventing(args, stopping)
    # One thread per open stream: at most 64 at a time.
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=64), options=SERVER_OPTIONS,
                         maximum_concurrent_rpcs=64)
    generic_pb2_grpc.add_EventingServicer_to_server(service, server)
    try:
        if args.tls_cert:
            with open(args.tls_key, "rb") as key, open(args.tls_cert, "rb") as cert:
                credentials = grpc.ssl_server_credentials([(key.read(), cert.read())])
            port = server.add_secure_port(args.listen, credentials)
        else:
            port = server.add_insecure_port(args.listen)
    except (OSError, RuntimeError) as e:
        sys.exit(f"signal_service.py: cannot listen on {args.listen}: {e}")
    if port == 0:
        sys.exit(f"signal_service.py: cannot listen on {args.listen}")
    host = args.listen.rsplit(":", 1)[0]
    service.replica = args.replica_name or f"{host}:{port}"
    server.start()
    print(f"listening on {host}:{port}", flush=True)
    while not stopping.wait(3600):
        pass
    server.stop(grace=2).wait()


if __name__ == "__main__":
    main()
