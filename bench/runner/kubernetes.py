"""Step 13: webhook → k8s trigger → object created in the test API server (kube-api-server),
next to a raw libcurl POST loop against the same server in the same run
(ganglion-k8s-baseline)."""

import json
import os
import shlex
import subprocess
import time

from .engine import write_scenario
from .procs import StepError, free_port, http_get, wait_log_line
from .scenarios import start_engine

NAMESPACE = "bench"


def start_api_server(ctx):
    """kube-api-server stamping created ConfigMaps; returns (process, url, kubeconfig path)."""
    kubeconfig = ctx.path("k8s.kubeconfig")
    log = ctx.path("kube-api-server.log")
    cmd = [ctx.binary("kube-api-server"), "--kubeconfig-out", kubeconfig, "--namespace",
           NAMESPACE, "--stamp-created"]
    proc = ctx.procs.start(cmd, log_path=log)
    url = wait_log_line(ctx.procs, proc, log, "kube-api-server",
                        lambda l: l.split()[1] if l.startswith("ready ") else None,
                        "did not print its URL")
    return proc, url, kubeconfig


def list_configmaps(url, run, limit=None):
    """The list of ConfigMaps labelled run=<run> (one page of `limit` when given)."""
    query = f"labelSelector=run%3D{run}" + (f"&limit={limit}" if limit else "")
    status, body = http_get(f"{url}/api/v1/namespaces/{NAMESPACE}/configmaps?{query}",
                            timeout=60.0)
    if status != 200:
        raise StepError(f"listing ConfigMaps answered {status}: {body[:200]}")
    return json.loads(body)


def count_configmaps(url, run):
    """How many ConfigMaps of `run` exist (a one-item page and its remainingItemCount)."""
    page = list_configmaps(url, run, limit=1)
    return len(page["items"]) + int(page["metadata"].get("remainingItemCount") or 0)


def wait_created(url, run, expected, timeout):
    """The ConfigMaps of `run` once at least `expected` exist and none came for 3 s (the
    warmup's objects come on top), or no new one for 10 s, or `timeout`."""
    deadline = time.monotonic() + timeout
    last_count, last_change = -1, time.monotonic()
    while time.monotonic() < deadline:
        count = count_configmaps(url, run)
        if count != last_count:
            last_count, last_change = count, time.monotonic()
        idle = time.monotonic() - last_change
        if (count >= expected and idle > 3) or idle > 10:
            break
        time.sleep(0.5)
    return list_configmaps(url, run)["items"]


def created_times(items):
    """[(send ns, created ns)] of objects that carry both annotations."""
    out = []
    for item in items:
        notes = item["metadata"].get("annotations") or {}
        try:
            out.append((int(notes["send-ns"]), int(notes["created-ns"])))
        except (KeyError, ValueError):
            continue
    return out


def percentile(values, p):
    """The p-quantile (0..1) of values, nearest rank."""
    ordered = sorted(values)
    return ordered[int(p * (len(ordered) - 1))] if ordered else None


def raw_baseline(ctx, url):
    """ganglion-k8s-baseline for the run's duration: (its JSON report, command text)."""
    cmd = [ctx.binary("ganglion-k8s-baseline"), "--server", url, "--namespace", NAMESPACE,
           "--duration", str(ctx.duration_s), "--threads", "4"]
    text = shlex.join(cmd)
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=ctx.duration_s + 120,
                          check=False)
    lines = [l for l in done.stdout.splitlines() if l.startswith("{")]
    if done.returncode != 0 or not lines:
        raise StepError(f"exit {done.returncode}: {done.stderr.strip()[-300:]}: {text}")
    report = json.loads(lines[-1])
    print(f"  raw POST loop: {report['objects_per_s']:,.0f} objects/s, p99 "
          f"{report['p99_ms']:.2f} ms", flush=True)
    return report, text


def ganglion_run(ctx, url, kubeconfig, run, rate):
    """The k8s-trigger scenario under an open loop at `rate` req/s: (objects/s from the first to
    the last creation, p99 ms send → created, created, answered 2xx, commands)."""
    loadgen = ctx.require_loadgen()
    port = free_port()
    manifests = write_scenario(os.path.join(ctx.scenarios, "k8s-trigger.yaml"),
                               {"WEBHOOK_PORT": port, "RUN": run}, ctx.path(f"k8s-{run}"))
    engine = start_engine(ctx, f"k8s-{run}", manifests, extra_args=["--kubeconfig", kubeconfig])
    try:
        report, command = loadgen.run(f"http://127.0.0.1:{port}/ingest", rate=rate,
                                      body=os.path.join(ctx.scenarios, "event-k8s.json"))
        sent = report["requests"]["ok"]
        items = wait_created(url, run, sent, timeout=max(60, 10 * ctx.duration_s))
    finally:
        engine.stop()
    times = created_times(items)
    if not times:
        raise StepError(f"no ConfigMap of run {run} was created (log: {engine.log_path})")
    if len(items) < sent:  # the warmup's objects come on top of `sent`
        print(f"  !! {sent - len(items)} of {sent} events answered 2xx created no object "
              f"(log: {engine.log_path})")
    first = min(t[0] for t in times)
    last = max(t[1] for t in times)
    objects_s = len(times) / ((last - first) / 1e9) if last > first else None
    p99 = percentile([(c - s) / 1e6 for s, c in times], 0.99)
    return objects_s, p99, len(items), sent, {"command": command,
                                              "engine": engine.command_text()}


def k8s_trigger(ctx):
    """k8s_raw_post_s, then k8s_trigger_objects_s (open loop at the raw rate: what the trigger
    sustains) and k8s_trigger_p99_ms (open loop at half of that: send → object created)."""
    server, url, kubeconfig = start_api_server(ctx)
    try:
        raw, raw_command = raw_baseline(ctx, url)
        f = ctx.figures
        f.add("k8s_raw_post_s", raw["objects_per_s"], "objects/s", command=raw_command,
              p50_ms=raw["p50_ms"], p99_ms=raw["p99_ms"])
        objects_s, _, created, sent, run = ganglion_run(ctx, url, kubeconfig, "max",
                                                         raw["objects_per_s"])
        print(f"  at {raw['objects_per_s']:,.0f} req/s: {created} objects for {sent} events "
              f"(and the warmup's), {objects_s or 0:,.0f} objects/s", flush=True)
        f.add("k8s_trigger_objects_s", objects_s, "objects/s", baseline="k8s_raw_post_s",
              created=created, sent=sent, **run)
        rate = max(1, int((objects_s or 2) / 2))
        _, p99, created, sent, run = ganglion_run(ctx, url, kubeconfig, "half", rate)
        print(f"  at {rate} req/s (half): {created} objects for {sent} events (and the warmup's), "
              f"p99 {p99:.1f} ms", flush=True)
        f.add("k8s_trigger_p99_ms", p99, "ms", rate=rate, created=created, sent=sent, **run)
    finally:
        ctx.procs.stop(server)
