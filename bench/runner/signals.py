"""Step 14: a signal service's gRPC stream → generic source → bus → sensor → log trigger, next to
a raw C++ gRPC client reading the same service's stream in the same run
(ganglion-signal-baseline)."""

import json
import os
import resource
import shlex
import shutil
import subprocess
import time

from .engine import Engine, counter, write_scenario
from .procs import StepError, is_executable, wait_log_line

# How often the ganglion run reads /metrics (s): the error on the measured interval is at most
# this much, against several seconds of run.
POLL_S = 0.02
# A run that made no progress for this long (s) failed; before the first firing it may take
# the engine's start.
STALL_S = 20
START_S = 60
SENSOR, TRIGGER, DEPENDENCY = "bench", "log", "signal"
EVENT_SOURCE, EVENT = "bench", "ingest"


def event_count(ctx):
    """Events per stream: 300 000 (quick: 20 000)."""
    return 20000 if ctx.quick else 300000


def rounds(ctx):
    """Runs of each side (the raw client; ganglion on each bus); a figure is the median by
    events/s (quick: one). Both sides go at the signal service's pace, which can double or halve
    from one run to the next on a shared machine (docs/benchmarks.md)."""
    return 1 if ctx.quick else 3


def grpc_disabled(ctx):
    """True when the build was configured with GANGLION_ENABLE_GRPC=OFF (no generic source)."""
    try:
        with open(os.path.join(ctx.build, "CMakeCache.txt"), encoding="utf-8") as f:
            return any(l.strip() == "GANGLION_ENABLE_GRPC:BOOL=OFF" for l in f)
    except OSError:
        return False


def service_binary(ctx):
    """build/examples/signals/signal_service; StepError when it is not built."""
    path = os.path.join(ctx.build, "examples", "signals", "signal_service")
    if not is_executable(path):
        raise StepError(f"the example signal service is not built ({path}); build it with "
                        f"`cmake --build {ctx.build} --target ganglion_signal_example`")
    return path


def start_service(ctx, name):
    """A fresh example signal service sending event_count events per stream as fast as they are
    read, on a free port; returns (process, port, command text)."""
    cmd = [service_binary(ctx), "--listen", "127.0.0.1:0", "--interval-ms", "0", "--count",
           str(event_count(ctx))]
    log = ctx.path(f"{name}.log")
    proc = ctx.procs.start(cmd, log_path=log)
    port = wait_log_line(ctx.procs, proc, log, "signal_service",
                         lambda l: int(l.rsplit(":", 1)[1]) if l.startswith("listening on ")
                         else None, "did not print `listening on HOST:PORT`")
    return proc, port, shlex.join(str(c) for c in cmd)


def raw_run(ctx, name):
    """ganglion-signal-baseline against a fresh signal service: (events/s from the first event
    to the Nth, the figure's extra fields, with the client's and the service's CPU)."""
    service, port, service_cmd = start_service(ctx, name)
    try:
        cmd = [ctx.binary("ganglion-signal-baseline"), "--target", f"127.0.0.1:{port}",
               "--count", str(event_count(ctx)), "--name", EVENT, "--config", "bench"]
        text = shlex.join(str(c) for c in cmd)
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        service_cpu = cpu_seconds(service.pid)
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)
        except subprocess.TimeoutExpired:
            raise StepError(f"no result after 600 s: {text}") from None
        after = resource.getrusage(resource.RUSAGE_CHILDREN)  # before the service is reaped
        service_cpu = (cpu_seconds(service.pid) or 0) - (service_cpu or 0)
    finally:
        ctx.procs.stop(service)
    lines = [l for l in done.stdout.splitlines() if l.startswith("{")]
    if done.returncode != 0 or not lines:
        raise StepError(f"exit {done.returncode}: {done.stderr.strip()[-300:]}: {text}")
    report = json.loads(lines[-1])
    client_cpu = (after.ru_utime + after.ru_stime) - (children.ru_utime + children.ru_stime)
    events = report["events"]
    run = {"command": text, "service": service_cmd, "events": events,
           "seconds": report["seconds"],
           "events_per_s_from_call": report["events_per_s_from_call"],
           "client_cpu_us_per_event": round(1e6 * client_cpu / events, 1),
           "service_cpu_us_per_event": round(1e6 * service_cpu / events, 1),
           "load_average": [round(x, 2) for x in os.getloadavg()]}
    print(f"  raw gRPC client: {report['events_per_s']:,.0f} events/s ({events} events in "
          f"{report['seconds']:.2f} s); CPU per event: client {run['client_cpu_us_per_event']} "
          f"µs, service {run['service_cpu_us_per_event']} µs", flush=True)
    return report["events_per_s"], run


def cpu_seconds(pid):
    """utime + stime of a process in seconds, from /proc/PID/stat (None when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Sample:
    """One read of the engine's counters, and the CPU time of the engine and the service."""

    def __init__(self, at, fired, accepted, engine_cpu, service_cpu):
        self.at, self.fired, self.accepted = at, fired, accepted
        self.engine_cpu, self.service_cpu = engine_cpu, service_cpu


def rate(first, last, field):
    """Events/s of `field` between two samples, None when they are the same instant."""
    if first is None or last is None or last.at <= first.at:
        return None
    return (getattr(last, field) - getattr(first, field)) / (last.at - first.at)


def sample_until_done(engine, service, count):
    """Reads /metrics every POLL_S from the engine's start until the trigger fired `count`
    times: (first sample with a firing, the sample that saw the `count`th, first sample with an
    accepted event, the sample that saw the `count`th accepted, the last parsed metrics).
    StepError when the engine exits or makes no progress for STALL_S."""
    began = time.monotonic()
    first_fired = first_accepted = accepted_done = None
    last_fired, last_change = 0, began
    while True:
        now, metrics = engine.poll_metrics()
        if metrics is not None:
            s = Sample(now, counter(metrics, "ganglion_triggers_fired_total", sensor=SENSOR,
                                    trigger=TRIGGER),
                       counter(metrics, "ganglion_events_accepted_total",
                               eventsource=EVENT_SOURCE, event=EVENT),
                       cpu_seconds(engine.proc.pid), cpu_seconds(service.pid))
            if s.accepted > 0 and first_accepted is None:
                first_accepted = s
            if s.accepted >= count and accepted_done is None:
                accepted_done = s
            if s.fired > 0 and first_fired is None:
                first_fired = s
            if s.fired != last_fired:
                last_fired, last_change = s.fired, now
            if s.fired >= count:
                return first_fired, s, first_accepted, accepted_done or s, metrics
        limit = STALL_S if first_fired else START_S
        if now - last_change > limit:
            raise StepError(f"the trigger fired {last_fired:.0f} of {count} times and nothing "
                            f"moved for {limit} s; log: {engine.log_path}")
        time.sleep(POLL_S)


def start_engine_process(ctx, name, manifests, extra_args):
    """ganglion on `manifests` as start_engine runs it (a fresh <tmp>/<name>.data unless
    --in-memory), but not waiting for /ready: the stream may be flowing before that."""
    if "--in-memory" not in extra_args:
        data_dir = ctx.path(f"{name}.data")
        shutil.rmtree(data_dir, ignore_errors=True)
        extra_args = ["--data-dir", data_dir, *extra_args]
    engine = Engine(ctx.procs, ctx.ganglion(), manifests, ctx.path(f"{name}.log"), extra_args)
    engine.proc = ctx.procs.start(engine.command(), log_path=engine.log_path)
    return engine


def ganglion_run(ctx, name, extra_args=()):
    """The generic-log scenario against a fresh signal service: (firings/s from the first to the
    Nth, the figure's extra fields)."""
    count = event_count(ctx)
    service, port, service_cmd = start_service(ctx, f"{name}-service")
    try:
        manifests = write_scenario(os.path.join(ctx.scenarios, "generic-log.yaml"),
                                   {"PORT": port}, ctx.path(name))
        engine = start_engine_process(ctx, name, manifests, list(extra_args))
        try:
            first, done, first_acc, acc_done, metrics = sample_until_done(engine, service, count)
        finally:
            engine.stop()
    finally:
        ctx.procs.stop(service)
    passed = counter(metrics, "ganglion_dependency_events_total", result="pass", sensor=SENSOR,
                     dependency=DEPENDENCY)
    if passed < count:
        raise StepError(f"FILTERS DID NOT PASS THE EVENTS: {passed:.0f} of {count} passed the "
                        f"sensor's filter on body.config (jsonBody?); log: {engine.log_path}")
    fired_s = rate(first, done, "fired")
    if fired_s is None:
        raise StepError(f"all {count} firings came between two reads of /metrics: raise the "
                        f"count; log: {engine.log_path}")
    seconds = done.at - first.at
    firings = done.fired - first.fired
    cpu = {}
    if None not in (first.engine_cpu, done.engine_cpu, first.service_cpu, done.service_cpu):
        cpu = {"engine_cpu_us_per_event":
               round(1e6 * (done.engine_cpu - first.engine_cpu) / firings, 1),
               "service_cpu_us_per_event":
               round(1e6 * (done.service_cpu - first.service_cpu) / firings, 1)}
    accepted_s = rate(first_acc, acc_done, "accepted")
    label = " ".join(["ganglion", *extra_args])
    print(f"  {label}: {fired_s:,.0f} firings/s ({firings:.0f} firings in {seconds:.2f} s; "
          f"the source accepted {accepted_s or 0:,.0f} events/s); CPU per event: engine "
          f"{cpu.get('engine_cpu_us_per_event')} µs, service "
          f"{cpu.get('service_cpu_us_per_event')} µs", flush=True)
    return fired_s, {"command": service_cmd, "engine": engine.command_text(),
                     "engine_log": engine.log_path, "events": count, "seconds": round(seconds, 3),
                     "first_sample_fired": first.fired, "accepted_eps": accepted_s, **cpu,
                     "load_average": [round(x, 2) for x in os.getloadavg()]}


def median(runs):
    """The median (events/s, fields) of runs by events/s, with every run's as rounds_eps."""
    eps, run = sorted(runs, key=lambda r: r[0])[len(runs) // 2]
    return eps, {**run, "rounds_eps": [round(r[0]) for r in runs]}


def generic_log(ctx):
    """signal_raw_eps (a raw gRPC sync client reading the example service's stream), then
    generic_log_eps (ganglion, durable bus) and generic_log_in_memory_eps (--in-memory): firings
    of the log trigger per second from the first to the Nth, over signal_raw_eps. The rounds
    interleave (raw, durable, in-memory; again), each run on a fresh service, so that the three
    medians saw the same neighbours."""
    f = ctx.figures
    if grpc_disabled(ctx):
        reason = "skipped: built with GANGLION_ENABLE_GRPC=OFF (no generic source)"
        print(f"  {reason}")
        f.missing("signal_raw_eps", "events/s", reason)
        f.missing("generic_log_eps", "events/s", reason, ("≥", 0.5))
        f.missing("generic_log_in_memory_eps", "events/s", reason)
        return
    raw, durable, memory = [], [], []
    for i in range(1, rounds(ctx) + 1):
        raw.append(raw_run(ctx, f"signal-raw-{i}"))
        durable.append(ganglion_run(ctx, f"generic-log-{i}"))
        memory.append(ganglion_run(ctx, f"generic-log-memory-{i}", ["--in-memory"]))
    eps, run = median(raw)
    f.add("signal_raw_eps", eps, "events/s", **run)
    eps, run = median(durable)
    f.add("generic_log_eps", eps, "events/s", baseline="signal_raw_eps", target=("≥", 0.5), **run)
    eps, run = median(memory)
    f.add("generic_log_in_memory_eps", eps, "events/s", baseline="signal_raw_eps", **run)
