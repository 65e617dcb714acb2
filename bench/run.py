#!/usr/bin/env python3
"""`make bench` / `make bench-quick`: ganglion's figures next to baselines measured in the same
run, as ratios (these machines are shared and noisy). Prints a table, writes
<build>/bench/results.json and, in full mode, the figures block of docs/benchmarks.md.
Exit 0 when every step ran (missed targets are reported, not failures), 1 when one could not."""

import argparse
import os
import shutil
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from runner import (baselines, buses, consumers, kubernetes, micro, report,  # noqa: E402
                    scenarios, serverless, signals, sources)
from runner.context import Context  # noqa: E402
from runner.figures import text_table  # noqa: E402
from runner.procs import StepError, raise_on_signals  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def steps(ctx):
    """(title, function) of every step, in order."""
    d = f"{ctx.duration_s} s closed loop"
    n = ctx.big_sensors
    b = f"{buses.event_count(ctx):,} events × {buses.rounds(ctx)}"
    m = f"{consumers.message_count(ctx):,} messages × {consumers.rounds(ctx)}"
    return [
        ("micro suite (Google Benchmark)", micro.run_micro),
        (f"raw Boost.Beast HTTP baseline, {d}", baselines.http_raw),
        (f"ganglion::http::server_pool alone, {d}", baselines.http_pool),
        (f"nginx, {d}", baselines.nginx),
        (f"webhook → log trigger, {d}", scenarios.webhook_log),
        (f"webhook → HTTP trigger: {d}, then open loop at half the rate", scenarios.webhook_http),
        ("idle RSS of the quick start", scenarios.idle_rss),
        (f"10 sensors vs {n} sensors loaded, {d} each", scenarios.many_sensors),
        (f"soak: {ctx.soak_seconds} s open loop, VmRSS every 5 s", scenarios.soak),
        (f"webhook → log trigger on the in-memory bus (--in-memory), {d}",
         scenarios.webhook_log_in_memory),
        (f"JetStream bus: nats → JetStream → nats trigger vs raw cnats, {b}", buses.jetstream),
        (f"Kafka bus: kafka → Kafka bus → kafka trigger vs raw librdkafka, {b}", buses.kafka),
        (f"webhook → k8s trigger → object in the test API server vs raw libcurl POSTs, "
         f"{ctx.duration_s} s open loops", kubernetes.k8s_trigger),
        (f"signal service → generic source → log trigger (durable, then in-memory bus) vs a raw "
         f"gRPC client, {signals.event_count(ctx):,} events", signals.generic_log),
        ("exec → /ready of the quick start with --listen, vs exec → exit of `ganglion version`",
         serverless.exec_to_ready),
        ("100 sensors idle: CPU and wake-ups", serverless.idle_cost),
        ("1,000 calendar sources of interval 1s: CPU", sources.calendar_cost),
        (f"mosquitto → mqtt source → log trigger vs a raw libmosquitto subscriber, one "
         f"publisher's burst, {m}", consumers.mqtt),
        (f"RabbitMQ queue → amqp source → log trigger vs raw librabbitmq basic.consume, "
         f"preloaded, {m}", consumers.amqp),
        (f"Redis Pub/Sub → redis source → log trigger vs a raw hiredis SUBSCRIBE, one "
         f"publisher's burst, {m}", consumers.redis),
        (f"Redis stream → redisStream source → log trigger vs raw hiredis XREADGROUP + XACK, "
         f"preloaded, {m}", consumers.redis_stream),
    ]


def estimate_s(ctx):
    """A rough duration of the run in seconds."""
    if ctx.quick:
        return 200
    return 60 + 13 * (ctx.duration_s + 3) + 120 + ctx.soak_seconds + 180 + 60 + 180 + 75 + 120


def parse_args():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true",
                   help="short run (< 2 min): 3 s loads, 1k sensors, 30 s soak; docs untouched")
    p.add_argument("--build", default="build", help="the CMake build dir (default: build)")
    p.add_argument("--loadgen", help="ganglion-loadgen binary (default: BUILD/ganglion-loadgen)")
    p.add_argument("--steps", help="run only these step numbers, e.g. 2,5 (docs untouched)")
    p.add_argument("--soak-seconds", type=int, help="soak duration (default 600, quick 30)")
    p.add_argument("--soak-rate", type=int,
                   help="soak rate in req/s (default 20%% of webhook_log_rps, at least 1000)")
    return p.parse_args()


def run_steps(ctx, selected):
    """Runs the steps; returns the failures as ["[n/9] title: reason"]."""
    failures = []
    plan = steps(ctx)
    for number, (title, step) in enumerate(plan, 1):
        if selected and number not in selected:
            continue
        header = f"[{number}/{len(plan)}] {title}"
        print(f"\n{header} …", flush=True)
        began = time.monotonic()
        try:
            step(ctx)
        except StepError as e:
            failures.append(f"{header}: {e}")
            print(f"  FAILED: {e}", flush=True)
        except Exception as e:  # a bug in a step must not stop the others or leak processes
            failures.append(f"{header}: {type(e).__name__}: {e}")
            print(f"  FAILED: {type(e).__name__}: {e}", flush=True)
        print(f"  ({time.monotonic() - began:.0f} s)", flush=True)
    return failures


def main():
    args = parse_args()
    raise_on_signals()
    build = os.path.abspath(args.build)
    selected = {int(s) for s in args.steps.split(",")} if args.steps else None
    tmp = tempfile.mkdtemp(prefix="ganglion-bench-")
    ctx = Context(REPO, build, tmp, args.quick, args.loadgen and os.path.abspath(args.loadgen))
    ctx.soak_seconds = args.soak_seconds or ctx.soak_seconds
    ctx.soak_rate = args.soak_rate
    mode = "quick" if args.quick else "full"
    print(f"ganglion bench ({mode}): about {estimate_s(ctx) / 60:.0f} min; temp dir {tmp}")
    began = time.monotonic()
    try:
        failures = run_steps(ctx, selected)
    finally:
        ctx.procs.stop_all()
    micro.add_plain_figures(ctx)
    status = finish(ctx, mode, failures, selected, time.monotonic() - began)
    if status == 0:
        shutil.rmtree(tmp, ignore_errors=True)
    else:
        print(f"logs and manifests kept in {tmp}")
    return status


def finish(ctx, mode, failures, selected, elapsed):
    """Prints the table, writes results.json (and the docs in a complete full run)."""
    date, revision, host = report.now(), report.commit(REPO), report.machine()
    print(f"\nganglion bench ({mode}) {date} commit {revision}: {host['cpu']}, "
          f"{host['cores']} cores, {elapsed:.0f} s\n")
    print(text_table(ctx.figures))
    results = os.path.join(ctx.build, "bench", "results.json")
    report.write_results(results, mode, date, revision, host, ctx.figures, ctx.micro, failures)
    print(f"\nresults: {results}")
    if mode == "full" and not failures and not selected:
        docs = os.path.join(REPO, "docs", "benchmarks.md")
        report.update_docs(docs, date, revision, host, ctx.figures)
        print(f"figures written to {docs}")
    if failures:
        print("\nsteps that could not run:")
        for failure in failures:
            print(f"  {failure}")
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("\ninterrupted; every started process was stopped", file=sys.stderr)
        sys.exit(130)
