"""Steps 11–12: events through a remote bus (NATS JetStream, Kafka) end to end, next to the raw
client library measured in the same run (`ganglion-bus-baseline`, bench/baseline)."""

import json
import os
import re
import shlex
import shutil
import subprocess

from .engine import Engine, write_scenario
from .procs import StepError, free_port, wait_log_line, wait_port

# Events of this many bytes. The generator keeps at most WINDOW of them in flight through
# ganglion: core NATS has no back-pressure (an unbounded burst would be dropped by the source,
# not measured), and the Kafka mock keeps only the last 5 MiB of a partition (a consumer further
# behind loses events). The raw Kafka run keeps at most RAW_KAFKA_WINDOW in flight for the same
# reason (more would not raise its rate); the raw JetStream run has no window.
SIZE = 256
WINDOW = 4096
RAW_KAFKA_WINDOW = 8192
BOOTSTRAP = re.compile(r"^[\w.\-]+:\d+(,[\w.\-]+:\d+)*$")


def event_count(ctx):
    """Events per run: 100 000 (quick: 10 000)."""
    return 10000 if ctx.quick else 100000


def rounds(ctx):
    """Runs per measurement; the figure is the median by events/s (quick: one)."""
    return 1 if ctx.quick else 3


def run_tool(ctx, mode, args, timeout=600):
    """One ganglion-bus-baseline run: (parsed JSON report, command text). A run that lost events
    still reports (its `missing` says how many); one that could not run raises StepError."""
    cmd = [ctx.binary("ganglion-bus-baseline"), mode, *args, "--count", str(event_count(ctx)),
           "--size", str(SIZE)]
    text = shlex.join(str(c) for c in cmd)
    try:
        done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise StepError(f"no result after {timeout} s: {text}") from None
    lines = [l for l in done.stdout.splitlines() if l.startswith("{")]
    if done.returncode not in (0, 1) or not lines:
        raise StepError(f"exit {done.returncode}: {done.stderr.strip()[-500:]}: {text}")
    report = json.loads(lines[-1])
    print(f"  {mode}: {report['events_per_s']:,.0f} events/s, p50 {report['p50_ms']:.1f} ms, "
          f"p99 {report['p99_ms']:.1f} ms, missing {report['missing']}, duplicates "
          f"{report['duplicates']}", flush=True)
    return report, text


def median_of(ctx, mode, args):
    """`rounds` runs of one mode: (the median report by events/s, its command, every round's
    events/s)."""
    runs = [run_tool(ctx, mode, args) for _ in range(rounds(ctx))]
    ordered = sorted(runs, key=lambda r: r[0]["events_per_s"])
    report, command = ordered[len(ordered) // 2]
    return report, command, [round(r[0]["events_per_s"]) for r in runs]


def nats_server_binary():
    """The nats-server binary; StepError when it is not installed."""
    for path in ("/usr/sbin/nats-server", shutil.which("nats-server")):
        if path and os.access(path, os.X_OK):
            return path
    raise StepError("nats-server is not installed (Debian package nats-server)")


def start_nats(ctx, name):
    """A nats-server -js on a free port with a fresh store; returns (process, url)."""
    port = free_port()
    store = ctx.path(f"{name}.jetstream")
    shutil.rmtree(store, ignore_errors=True)
    cmd = [nats_server_binary(), "-js", "-a", "127.0.0.1", "-p", str(port), "-sd", store]
    log = ctx.path(f"{name}.log")
    proc = ctx.procs.start(cmd, log_path=log)
    if not wait_port(port, 15):
        ctx.procs.stop(proc)
        raise StepError(f"nats-server did not listen on port {port}; log: {log}")
    return proc, f"nats://127.0.0.1:{port}"


def start_kafka_mock(ctx, name, topics):
    """ganglion-kafka-mock with `topics` ({name: partitions}); returns (process, bootstrap)."""
    binary = ctx.binary("ganglion-kafka-mock", os.path.join("bench", "ganglion-kafka-mock"))
    cmd = [binary] + [a for t, p in topics.items() for a in ("--topic", f"{t}:{p}")]
    log = ctx.path(f"{name}.log")
    proc = ctx.procs.start(cmd, log_path=log)
    bootstrap = wait_log_line(ctx.procs, proc, log, "ganglion-kafka-mock",
                              lambda l: l.strip() if BOOTSTRAP.match(l.strip()) else None,
                              "printed no bootstrap list")
    return proc, bootstrap


def start_bus_engine(ctx, name, manifests):
    """ganglion on a remote bus: one replica, no data dir (the bus holds the state)."""
    args = ["--replica-id", f"bench-{name}"]
    if name == "bus-kafka":
        # The mock cluster answers a fetch on an empty partition only after the whole
        # fetch.wait.max.ms (a real broker answers when data arrives); the raw run uses 10 ms.
        args += ["--bus-property", "fetch.wait.max.ms=10"]
    engine = Engine(ctx.procs, ctx.ganglion(), manifests, ctx.path(f"{name}.log"), args)
    return engine.start(120.0)


def add_raw_figures(ctx, prefix, report, run):
    """<prefix>_raw_eps and <prefix>_raw_p99_ms: the raw client's run."""
    f = ctx.figures
    f.add(f"{prefix}_raw_eps", report["events_per_s"], "events/s", p50_ms=report["p50_ms"],
          **run)
    f.add(f"{prefix}_raw_p99_ms", report["p99_ms"], "ms", **run)


def add_e2e_figures(ctx, prefix, e2e, target):
    """<prefix>_e2e_ratio (ganglion's events/s over <prefix>_raw_eps), _e2e_p99_ms and
    _e2e_missing from (report, run); `e2e` may instead be the reason ganglion's run was
    skipped."""
    f = ctx.figures
    if isinstance(e2e, str):
        print(f"  skipped: {e2e}")
        f.missing(f"{prefix}_e2e_ratio", "events/s", f"skipped: {e2e}", ("≥", target))
        f.missing(f"{prefix}_e2e_p99_ms", "ms", f"skipped: {e2e}")
        f.missing(f"{prefix}_e2e_missing", "events", f"skipped: {e2e}", ("=", 0))
        return
    report, run = e2e
    f.add(f"{prefix}_e2e_ratio", report["events_per_s"], "events/s",
          baseline=f"{prefix}_raw_eps", target=("≥", target), p50_ms=report["p50_ms"],
          p90_ms=report["p90_ms"], **run)
    f.add(f"{prefix}_e2e_p99_ms", report["p99_ms"], "ms", **run)
    f.add(f"{prefix}_e2e_missing", report["missing"], "events", target=("=", 0),
          duplicates=report["duplicates"], **run)
    if report["missing"]:
        print(f"  !! {report['missing']} EVENTS SENT NEVER CAME OUT OF THE TRIGGER: events were "
              f"lost (log: {run.get('engine_log')})")


def jetstream(ctx):
    """jetstream_raw_eps (cnats js_PublishAsync + pull consumer) vs jetstream_e2e_ratio: core
    NATS `in` → nats source → JetStream bus → sensor → nats trigger → `out`."""
    server, url = start_nats(ctx, "bus-jetstream-raw")
    try:
        report, command, rounds_eps = median_of(ctx, "jetstream", ["--url", url])
    finally:
        ctx.procs.stop(server)
    add_raw_figures(ctx, "jetstream", report, {"command": command, "rounds_eps": rounds_eps})

    server, url = start_nats(ctx, "bus-jetstream-server")
    try:
        manifests = write_scenario(os.path.join(ctx.scenarios, "bus-jetstream.yaml"),
                                   {"NATS_URL": url}, ctx.path("bus-jetstream"))
        engine = start_bus_engine(ctx, "bus-jetstream", manifests)
        try:
            report, command, rounds_eps = median_of(
                ctx, "nats-pipeline", ["--url", url, "--window", str(WINDOW)])
        finally:
            engine.stop()
    finally:
        ctx.procs.stop(server)
    add_e2e_figures(ctx, "jetstream", (report, {
        "command": command, "engine": engine.command_text(), "engine_log": engine.log_path,
        "rounds_eps": rounds_eps}), 0.6)


def kafka_unready(ctx, manifests):
    """Why ganglion cannot run the Kafka scenario yet, or None when it may."""
    header = os.path.join(ctx.repo, "transports", "kafka", "include", "ganglion", "kafka",
                          "kafka_bus.hpp")
    if not os.path.exists(header):
        return "no Kafka bus driver (transports/kafka/include/ganglion/kafka/kafka_bus.hpp)"
    done = subprocess.run([ctx.ganglion(), "validate", "-f", manifests], capture_output=True,
                          text=True, timeout=60, check=False)
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines() or done.stdout.strip().splitlines() or [""]
        return f"`ganglion validate` refuses bus-kafka.yaml: {lines[0].strip()}"
    return None


def refusal_in_log(log_path):
    """The line of an engine log saying a part of the scenario is not supported, or None."""
    try:
        with open(log_path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if "not supported" in line:
                    return line.strip()
    except OSError:
        pass
    return None


def kafka(ctx):
    """kafka_raw_eps (librdkafka produce + consume on the mock cluster) vs kafka_e2e_ratio:
    topic `in` → kafka source → Kafka bus → sensor → kafka trigger → topic `out`."""
    mock, bootstrap = start_kafka_mock(ctx, "bus-kafka-mock", {"raw": 1, "in": 1, "out": 1})
    try:
        report, command, rounds_eps = median_of(
            ctx, "kafka", ["--bootstrap", bootstrap, "--topic", "raw",
                           "--window", str(RAW_KAFKA_WINDOW)])
        add_raw_figures(ctx, "kafka", report, {"command": command, "rounds_eps": rounds_eps})
        manifests = write_scenario(os.path.join(ctx.scenarios, "bus-kafka.yaml"),
                                   {"KAFKA_BOOTSTRAP": bootstrap}, ctx.path("bus-kafka"))
        e2e = kafka_unready(ctx, manifests)
        if e2e is None:
            e2e = kafka_pipeline(ctx, manifests, bootstrap)
    finally:
        ctx.procs.stop(mock)
    add_e2e_figures(ctx, "kafka", e2e, 0.5)


def kafka_pipeline(ctx, manifests, bootstrap):
    """ganglion's run of the Kafka scenario: (report, run), or the reason it was skipped."""
    try:
        engine = start_bus_engine(ctx, "bus-kafka", manifests)
    except StepError as e:
        refusal = refusal_in_log(ctx.path("bus-kafka.log"))
        if refusal:
            return f"ganglion refuses the scenario: {refusal}"
        raise e
    try:
        report, command, rounds_eps = median_of(
            ctx, "kafka-pipeline", ["--bootstrap", bootstrap, "--window", str(WINDOW)])
    finally:
        engine.stop()
    return report, {"command": command, "engine": engine.command_text(),
                    "engine_log": engine.log_path, "rounds_eps": rounds_eps}
