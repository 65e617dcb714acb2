"""What event sources cost when they only wait: calendar sources ticking on their one clock."""

import os
import time

from .serverless import cpu_seconds


def write_calendars(n, directory):
    """One EventSource with n calendar events ticking every second; returns the directory."""
    os.makedirs(directory, exist_ok=True)
    lines = ["apiVersion: argoproj.io/v1alpha1", "kind: EventSource",
             "metadata:", "  name: clock", "spec:", "  calendar:"]
    for i in range(n):
        lines += [f"    t{i}:", "      interval: 1s"]
    with open(os.path.join(directory, "calendars.yaml"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return directory


def calendar_cost(ctx):
    """calendar_1000_cpu_pct: 1,000 calendar sources of `interval: 1s` on the in-memory bus
    (1,000 ticks a second into the bus), the process's CPU over 30 s (quick: 10 s) in % of one
    core, next to idle_cpu_pct (100 sensors, no traffic) when that step ran."""
    seconds = 10 if ctx.quick else 30
    manifests = write_calendars(1000, ctx.path("calendar-1000"))
    from .scenarios import start_engine
    engine = start_engine(ctx, "calendar-1000", manifests,
                          extra_args=["--in-memory", "--no-watch"])
    try:
        time.sleep(2)  # the start's own work is not the steady cost
        pid = engine.proc.pid
        before = cpu_seconds(pid)
        time.sleep(seconds)
        used = cpu_seconds(pid) - before
    finally:
        engine.stop()
    cpu_pct = used / seconds * 100
    print(f"  CPU {cpu_pct:.2f} % of a core over {seconds} s for 1,000 ticks a second")
    ctx.figures.add("calendar_1000_cpu_pct", cpu_pct, "% core", target=("<", 2),
                    command=engine.command_text())
