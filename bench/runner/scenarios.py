"""Steps 5–9: ganglion itself — webhook → log, webhook → HTTP trigger end to end, idle RSS,
10k sensors, and the soak."""

import os
import shutil
import time

from .engine import Engine, write_scenario, write_sensors_n
from .procs import StepError, free_port


# The soak's dedup window in seconds.
DEDUP_S = 60


def start_engine(ctx, name, manifest_dir, timeout=120.0, extra_args=()):
    """Starts ganglion on manifest_dir with the default durable bus in a fresh <tmp>/<name>.data
    (unless extra_args has --in-memory, which refuses a --data-dir); its log goes to
    <tmp>/<name>.log."""
    if "--in-memory" not in extra_args:
        data_dir = ctx.path(f"{name}.data")
        shutil.rmtree(data_dir, ignore_errors=True)
        extra_args = ["--data-dir", data_dir, *extra_args]
    engine = Engine(ctx.procs, ctx.ganglion(), manifest_dir, ctx.path(f"{name}.log"), extra_args)
    return engine.start(timeout)


def run_webhook_log(ctx, name, extra_args=()):
    """The webhook-log scenario in a closed loop: (report, loadgen command, rounds, engine)."""
    loadgen = ctx.require_loadgen()
    port = free_port()
    manifests = write_scenario(os.path.join(ctx.scenarios, "webhook-log.yaml"),
                               {"WEBHOOK_PORT": port}, ctx.path(name))
    engine = start_engine(ctx, name, manifests, extra_args=extra_args)
    try:
        report, command, rounds = loadgen.run_median(f"http://127.0.0.1:{port}/ingest")
        engine.verify_filters_pass("bench", "ingest", report["requests"]["ok"])
    finally:
        engine.stop()
    return report, command, rounds, engine


def webhook_log(ctx):
    """webhook_log_rps: closed loop through the log-trigger scenario, vs http_raw_rps."""
    report, command, rounds, engine = run_webhook_log(ctx, "webhook-log")
    ctx.figures.add("webhook_log_rps", report["throughput_rps"], "req/s",
                    baseline="http_raw_rps", target=("≥", 0.6), command=command,
                    engine=engine.command_text(), rounds_rps=rounds)


def webhook_log_in_memory(ctx):
    """webhook_log_in_memory_rps: the webhook_log scenario without the durable log, to show
    what durability costs (webhook_log_rps / this)."""
    report, command, rounds, engine = run_webhook_log(ctx, "webhook-log-memory", ["--in-memory"])
    ctx.figures.add("webhook_log_in_memory_rps", report["throughput_rps"], "req/s",
                    baseline="http_raw_rps", command=command, engine=engine.command_text(),
                    rounds_rps=rounds)


def webhook_http(ctx):
    """webhook_http_max_rps (closed loop), then the end-to-end percentiles in an open loop at
    half that rate through the HTTP-trigger scenario."""
    loadgen = ctx.require_loadgen()
    port, sink = free_port(), free_port()
    manifests = write_scenario(os.path.join(ctx.scenarios, "webhook-http.yaml"),
                               {"WEBHOOK_PORT": port, "SINK_PORT": sink}, ctx.path("webhook-http"))
    engine = start_engine(ctx, "webhook-http", manifests)
    url = f"http://127.0.0.1:{port}/ingest"
    try:
        closed, closed_cmd = loadgen.run(url, sink_port=sink)
        engine.verify_filters_pass("bench", "ingest", closed["requests"]["ok"])
        # The webhook accepts faster than the trigger delivers (the bus buffers the rest), so
        # the sustained rate is what reached the sink: arrivals over the run and its drain.
        e2e = closed.get("e2e") or {}
        window = closed["duration_s"] + (e2e.get("drain_s") or 0)
        delivered = e2e.get("arrived", 0) / window if window > 0 else 0
        sustained = min(closed["throughput_rps"], delivered)
        ctx.figures.add("webhook_http_accept_rps", closed["throughput_rps"], "req/s",
                        baseline="http_raw_rps", command=closed_cmd,
                        engine=engine.command_text())
        ctx.figures.add("webhook_http_max_rps", sustained, "req/s", baseline="http_raw_rps",
                        command=closed_cmd, engine=engine.command_text())
        rate = max(1, int(sustained / 2))
        print(f"  delivered {delivered:.0f} req/s to the sink; open loop at {rate} req/s (half)")
        opened, open_cmd = loadgen.run(url, sink_port=sink, rate=rate)
        engine.verify_filters_pass("bench", "ingest", opened["requests"]["ok"])
    finally:
        engine.stop()
    add_e2e_figures(ctx, opened, open_cmd, engine.command_text())


def add_e2e_figures(ctx, report, command, engine_command):
    """webhook_http_p50/p90/p99/p999_ms, _missing and _open_rps from an open-loop report."""
    e2e = report.get("e2e")
    if not e2e:
        raise StepError(f"the loadgen reported no end-to-end figures: {command}")
    latency = e2e["latency_ms"]
    f = ctx.figures
    run = {"command": command, "engine": engine_command}
    f.add("webhook_http_p99_ms", latency.get("p99"), "ms", target=("<", 2), **run)
    for key in ("p50", "p90", "p999"):
        f.add(f"webhook_http_{key}_ms", latency.get(key), "ms", **run)
    f.add("webhook_http_missing", e2e["missing"], "events", target=("=", 0), **run)
    f.add("webhook_http_open_rps", report["throughput_rps"], "req/s",
          target_rate=report.get("target_rate"), unsent=report.get("unsent"), **run)
    if report["throughput_rps"] < 0.95 * (report.get("target_rate") or 0):
        print(f"  !! the engine answered {report['throughput_rps']:.0f} of "
              f"{report['target_rate']:.0f} req/s: it did not sustain half the closed-loop rate, "
              f"so these percentiles are queueing time")
    if e2e["missing"]:
        print(f"  !! {e2e['missing']} EVENTS ANSWERED 2xx NEVER REACHED THE SINK "
              f"(arrived {e2e['arrived']}, duplicate {e2e['duplicate']}, unmatched "
              f"{e2e['unmatched']}): events were lost")


def idle_rss(ctx):
    """idle_rss_mb: the quick start, ready and idle for 2 s."""
    port = free_port()
    manifests = ctx.path("quickstart")
    shutil.copytree(os.path.join(ctx.repo, "examples", "quickstart"), manifests)
    source = os.path.join(manifests, "event-source.yaml")
    with open(source, encoding="utf-8") as f:
        text = f.read()
    if '"12000"' not in text:
        raise StepError(f"{source}: no port \"12000\" to substitute")
    with open(source, "w", encoding="utf-8") as f:
        f.write(text.replace('"12000"', f'"{port}"'))
    engine = start_engine(ctx, "quickstart", manifests)
    try:
        time.sleep(2)
        rss = engine.rss_mib()
    finally:
        engine.stop()
    ctx.figures.add("idle_rss_mb", rss, "MiB", target=("<", 30), command=engine.command_text())


def sensors_run(ctx, n):
    """Starts ganglion with the sensors-N scenario, measures ready time and RSS, then the closed
    loop against /event-7; returns (ready s, RSS MiB, loadgen report, command)."""
    loadgen = ctx.require_loadgen()
    port = free_port()
    manifests = write_sensors_n(n, port, ctx.path(f"sensors-{n}"))
    engine = start_engine(ctx, f"sensors-{n}", manifests, timeout=120.0)
    try:
        print(f"  {n} sensors ready in {engine.ready_s:.1f} s")
        time.sleep(1)
        rss = engine.rss_mib()
        report, command = loadgen.run(f"http://127.0.0.1:{port}/event-7")
        engine.verify_filters_pass("sensor-7", "event-7", report["requests"]["ok"])
    finally:
        engine.stop()
    return engine.ready_s, rss, report, {"command": command, "engine": engine.command_text()}


def many_sensors(ctx):
    """rss/ready with 10k sensors (quick: 1k) and webhook req/s with 10k vs 10 loaded."""
    n = ctx.big_sensors
    label = f"{n // 1000}k"
    _, _, small, small_run = sensors_run(ctx, 10)
    ctx.figures.add("webhook_10_sensors_rps", small["throughput_rps"], "req/s", **small_run)
    ready, rss, big, big_run = sensors_run(ctx, n)
    rss_target = ("<", 500) if n >= 10000 else None
    ctx.figures.add(f"rss_{label}_sensors_mb", rss, "MiB", target=rss_target,
                    command=big_run["engine"])
    ctx.figures.add(f"ready_{label}_sensors_s", ready, "s", command=big_run["engine"])
    ctx.figures.add(f"webhook_{label}_vs_10", big["throughput_rps"], "req/s",
                    baseline="webhook_10_sensors_rps", **big_run)


def soak(ctx):
    """soak_rss_*: open loop at a steady rate through webhook-log, VmRSS every 5 s."""
    loadgen = ctx.require_loadgen()
    rate = ctx.soak_rate or max(1000, int(0.2 * (ctx.figures.value("webhook_log_rps") or 0)))
    seconds = ctx.soak_seconds
    port = free_port()
    manifests = write_scenario(os.path.join(ctx.scenarios, "webhook-log.yaml"),
                               {"WEBHOOK_PORT": port}, ctx.path("soak"))
    # The dedup tables are bounded but fill for up to two windows; a 60 s window lets the soak
    # see the plateau (the measured part starts after SOAK_SETTLED_S).
    engine = start_engine(ctx, "soak", manifests, extra_args=["--dedup-window", str(DEDUP_S)])
    run = None
    try:
        print(f"  {rate} req/s for {seconds} s, VmRSS every 5 s")
        run = loadgen.start(f"http://127.0.0.1:{port}/ingest", rate=rate, duration_s=seconds,
                            quiet=True)
        samples = sample_rss(engine, run[0], seconds)
        report = loadgen.finish(*run)
        engine.verify_filters_pass("bench", "ingest", report["requests"]["ok"])
    finally:
        if run:
            ctx.procs.stop(run[0])
        engine.stop()
    add_soak_figures(ctx, samples, seconds, {"command": run[2], "engine": engine.command_text()})


def sample_rss(engine, loadgen_proc, seconds):
    """[(seconds since start, VmRSS MiB)] every 5 s while the loadgen runs."""
    samples, begin = [], time.monotonic()
    while loadgen_proc.poll() is None:
        time.sleep(5 - (time.monotonic() - begin) % 5)
        if loadgen_proc.poll() is not None:
            break
        t = round(time.monotonic() - begin, 1)
        samples.append((t, round(engine.rss_mib(), 2)))
        print(f"  [{t:6.0f}/{seconds} s] VmRSS {samples[-1][1]:.1f} MiB", flush=True)
    return samples


def add_soak_figures(ctx, samples, seconds, run):
    """Start (first sample once the dedup tables are full, or after a quarter of a short run),
    end, growth and the samples."""
    settled = min(2 * DEDUP_S + 10, seconds / 4)
    later = [s for s in samples if s[0] >= settled]
    if len(later) < 2:
        raise StepError(f"too few RSS samples in the soak ({len(samples)})")
    start, end = later[0][1], later[-1][1]
    f = ctx.figures
    f.add("soak_rss_start_mb", start, "MiB", **run)
    f.add("soak_rss_end_mb", end, "MiB", **run)
    f.add("soak_rss_growth_mb", round(end - start, 2), "MiB", target=("≤", 2), **run)
    f.items["soak_rss_growth_mb"]["samples"] = samples
