"""Step 1: the Google Benchmark micro suite, the two matching-core targets and the bus log's
append figures."""

import json
import re
import shlex
import subprocess

from .procs import StepError

# Name parts Google Benchmark appends to a benchmark's name; not part of what the suite calls it.
SUFFIX = re.compile(r"/(real_time|process_time|manual_time|min_time:[^/]*|iterations:[^/]*|"
                    r"repeats:[^/]*|threads:[^/]*)")
NS_PER_UNIT = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
# The bus log's append benchmarks, reported per fsync policy and producer count next to the
# raw write() of the same bytes: (figure, benchmark).
LOG_BASE = "event_log/raw_write"
LOG_BENCHES = [(f"log_append_{policy}_p{n}", f"event_log/append/{policy}/producers:{n}")
               for policy in ("always", "interval", "never") for n in (1, 4)]
# The benchmarks the key figures report as their value (not repeated as plain figures).
KEY_BENCHES = {"sensor_pipeline", "dependency_index/10000"} | {b for _, b in LOG_BENCHES}


def run_micro(ctx):
    """Runs the suite (console output to the terminal, JSON to a file) and records figures."""
    binary = ctx.binary("ganglion_micro_bench", "bench/ganglion_micro_bench")
    out = ctx.path("micro.json")
    # Three repetitions, interleaved at random so that a noisy moment hits every benchmark
    # alike; each figure is the median.
    cmd = [binary, "--benchmark_out_format=json", f"--benchmark_out={out}",
           "--benchmark_repetitions=3", "--benchmark_enable_random_interleaving=true",
           "--benchmark_report_aggregates_only=true"]
    if ctx.quick:
        cmd.append("--benchmark_min_time=0.05")
    command = shlex.join(cmd)
    if subprocess.run(cmd, check=False).returncode != 0:
        raise StepError(f"the micro suite failed: {command}")
    with open(out, encoding="utf-8") as f:
        ctx.micro = json.load(f)
    benches = index(ctx.micro)
    add_key_figures(ctx, benches, command)
    add_log_figures(ctx, benches, command)


def index(micro):
    """{benchmark name without Google Benchmark's suffixes: its JSON entry} — the median of
    the repetitions when the suite ran repeated, else the single run."""
    out, medians = {}, {}
    for b in micro.get("benchmarks", []):
        if b.get("error_occurred"):
            continue
        run_type = b.get("run_type", "iteration")
        if run_type == "iteration":
            out.setdefault(SUFFIX.sub("", b["name"]), b)
        elif run_type == "aggregate" and b.get("aggregate_name") == "median":
            medians[SUFFIX.sub("", b.get("run_name", b["name"]))] = b
    out.update(medians)
    return out


def ns_per_op(b):
    """CPU time of one iteration in ns."""
    return b["cpu_time"] * NS_PER_UNIT[b.get("time_unit", "ns")]


def add_key_figures(ctx, benches, command):
    """matching_core_ratio and index_10k_vs_10, each against its baseline benchmark."""
    f = ctx.figures
    pairs = [("matching_core_ratio", "sensor_pipeline", "baseline_simdjson_dom_parse",
              "events/s", ("≥", 0.5), lambda b: b.get("items_per_second")),
             ("index_10k_vs_10", "dependency_index/10000", "dependency_index/10",
              "ns/event", ("≤", 1.5), ns_per_op)]
    for name, bench, base, unit, target, measure in pairs:
        absent = [n for n in (bench, base) if n not in benches]
        if absent:
            f.missing(name, unit, f"benchmark {', '.join(absent)} missing", target)
            print(f"  !! {name}: benchmark {', '.join(absent)} missing from the micro suite")
            continue
        base_name = f"micro:{base}"
        f.add(base_name, measure(benches[base]), unit, command=command)
        f.add(name, measure(benches[bench]), unit, baseline=base_name, target=target,
              command=command)


def add_log_figures(ctx, benches, command):
    """Events/s appended to the bus's log per fsync policy and producer count, each as a ratio
    to the raw write() of the same bytes; reported, without targets."""
    f = ctx.figures
    if LOG_BASE not in benches:
        for name, _ in LOG_BENCHES:
            f.missing(name, "events/s", f"benchmark {LOG_BASE} missing")
        print(f"  !! log_append_*: benchmark {LOG_BASE} missing from the micro suite")
        return
    base_name = f"micro:{LOG_BASE}"
    f.add(base_name, benches[LOG_BASE].get("items_per_second"), "events/s", command=command)
    for name, bench in LOG_BENCHES:
        if bench not in benches:
            f.missing(name, "events/s", f"benchmark {bench} missing")
            print(f"  !! {name}: benchmark {bench} missing from the micro suite")
            continue
        f.add(name, benches[bench].get("items_per_second"), "events/s", baseline=base_name,
              command=command)


def add_plain_figures(ctx):
    """Every benchmark's items/s (or ns/op when it counts no items), without targets."""
    if not ctx.micro:
        return
    for name, b in index(ctx.micro).items():
        key = f"micro:{name}"
        if key in ctx.figures.items or name in KEY_BENCHES:
            continue
        if b.get("items_per_second"):
            ctx.figures.add(key, b["items_per_second"], "items/s")
        else:
            ctx.figures.add(key, ns_per_op(b), "ns/op")
