"""What scaling to zero asks of the engine (issue 33): a start fast enough to answer the request
that woke it, and an idle engine that costs nothing."""

import os
import socket
import statistics
import time

from .engine import write_sensors_n
from .procs import StepError, free_port


def ready_now(port):
    """True when GET /ready on 127.0.0.1:port answers 200 (one raw request, no retry)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5) as s:
            s.sendall(b"GET /ready HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return s.recv(64).startswith(b"HTTP/1.1 200")
    except OSError:
        return False


def exec_until(ctx, cmd, done, log_path, timeout=10.0):
    """Starts cmd and polls done() every millisecond; the seconds until it held."""
    begin = time.monotonic()
    proc = ctx.procs.start(cmd, log_path=log_path)
    try:
        while time.monotonic() - begin < timeout:
            if done(proc):
                return time.monotonic() - begin
            if proc.poll() is not None and not done(proc):
                raise StepError(f"{cmd[0]} exited with {proc.returncode}; log: {log_path}")
            time.sleep(0.001)
        raise StepError(f"not done after {timeout:.0f} s; log: {log_path}")
    finally:
        ctx.procs.stop(proc)


def exec_to_ready(ctx):
    """exec_to_ready_ms: `ganglion run` on the quick start in memory with --listen (the Knative
    way) until /ready answers 200, the median of several starts; next to exec_version_ms, the
    same binary's `ganglion version` from exec to exit (loading the binary and its libraries)."""
    runs = 5 if ctx.quick else 21
    manifests = os.path.join(ctx.repo, "examples", "quickstart")
    log = ctx.path("exec-to-ready.log")
    version = [exec_until(ctx, [ctx.ganglion(), "version"], lambda p: p.poll() == 0, log)
               for _ in range(runs)]
    ready = []
    for _ in range(runs):
        port = free_port()
        cmd = [ctx.ganglion(), "run", "-f", manifests, "--in-memory", "--no-watch",
               "--listen", f"127.0.0.1:{port}"]
        ready.append(exec_until(ctx, cmd, lambda p, port=port: ready_now(port), log))
    ctx.figures.add("exec_version_ms", statistics.median(version) * 1000, "ms")
    ctx.figures.add("exec_to_ready_ms", statistics.median(ready) * 1000, "ms",
                    baseline="exec_version_ms", command=" ".join(cmd),
                    p90_ms=sorted(ready)[int(0.9 * (runs - 1))] * 1000)
    # The target is on the time itself, not on the ratio.
    ctx.figures.items["exec_to_ready_ms"]["target"] = "< 100 ms"
    ctx.figures.items["exec_to_ready_ms"]["met"] = statistics.median(ready) * 1000 < 100


def thread_switches(pid):
    """{thread id: (name, context switches so far)} of process pid."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/comm", encoding="utf-8") as f:
                name = f.read().strip()
            switches = 0
            with open(f"/proc/{pid}/task/{tid}/status", encoding="utf-8") as f:
                for line in f:
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        switches += int(line.split()[1])
            out[tid] = (name, switches)
        except OSError:
            continue  # the thread ended
    return out


def cpu_seconds(pid):
    """User + system CPU seconds of process pid so far."""
    with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def idle_cost(ctx):
    """idle_cpu_pct and idle_wakeups_per_s: 100 sensors on the in-memory bus, ready, no traffic,
    for 60 s (quick: 10 s): the CPU the process used, in % of one core, and the most often any
    of its threads woke (context switches per second)."""
    seconds = 10 if ctx.quick else 60
    port = free_port()
    manifests = write_sensors_n(100, port, ctx.path("idle-100"))
    from .scenarios import start_engine  # one way to start and wait for /ready
    engine = start_engine(ctx, "idle-100", manifests, extra_args=["--in-memory", "--no-watch"])
    try:
        time.sleep(2)  # the start's own work (compiling, routes) is not idle
        pid = engine.proc.pid
        cpu_before, switches_before = cpu_seconds(pid), thread_switches(pid)
        time.sleep(seconds)
        cpu_after, switches_after = cpu_seconds(pid), thread_switches(pid)
    finally:
        engine.stop()
    rates = {}
    for tid, (name, count) in switches_after.items():
        before = switches_before.get(tid, (name, count))[1]
        rates[f"{name}/{tid}"] = (count - before) / seconds
    busiest = max(rates, key=rates.get)
    cpu_pct = (cpu_after - cpu_before) / seconds * 100
    print(f"  CPU {cpu_pct:.2f} % of a core over {seconds} s; wake-ups per s by thread: "
          + ", ".join(f"{k} {v:.1f}" for k, v in sorted(rates.items())))
    ctx.figures.add("idle_cpu_pct", cpu_pct, "% core", target=("<", 1),
                    command=engine.command_text())
    ctx.figures.add("idle_wakeups_per_s", rates[busiest], "/s", target=("≤", 1.1),
                    thread=busiest)
