"""What a run leaves behind: results.json, and in full mode the figures block of
docs/benchmarks.md; plus the machine and commit they were measured on."""

import datetime
import json
import os
import platform
import subprocess

from .figures import markdown_table

BEGIN = "<!-- figures:begin -->"
END = "<!-- figures:end -->"


def machine():
    """CPU model, cores, RAM, kernel and OS of this machine."""
    cpu = "unknown"
    with open("/proc/cpuinfo", encoding="utf-8") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    with open("/proc/meminfo", encoding="utf-8") as f:
        mem_kib = int(next(l for l in f if l.startswith("MemTotal:")).split()[1])
    os_name = platform.system()
    if os.path.exists("/etc/os-release"):
        with open("/etc/os-release", encoding="utf-8") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    os_name = line.split("=", 1)[1].strip().strip('"')
    return {"cpu": cpu, "cores": os.cpu_count(), "ram_gib": round(mem_kib / 1048576, 1),
            "kernel": platform.release(), "os": os_name}


def commit(repo):
    """`git rev-parse --short HEAD`, with "+dirty" when the work tree has changes."""
    def git(*args):
        return subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True,
                              check=False).stdout.strip()
    head = git("rev-parse", "--short", "HEAD") or "unknown"
    return head + ("+dirty" if git("status", "--porcelain", "--untracked-files=no") else "")


def now():
    """The current time, UTC, ISO 8601 to the second."""
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat()


def write_results(path, mode, date, revision, host, figures, micro, failures):
    """Writes results.json."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    doc = {"mode": mode, "date": date, "commit": revision, "machine": host,
           "figures": figures.items, "failures": failures, "micro": micro}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2, ensure_ascii=False)
        f.write("\n")


def update_docs(path, date, revision, host, figures):
    """Replaces the block between the figures markers of docs/benchmarks.md."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        raise ValueError(f"{path}: no {BEGIN} … {END} block")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    block = (f"{BEGIN}\nMeasured {date} on commit `{revision}` — {host['cpu']}, "
             f"{host['cores']} cores, {host['ram_gib']} GiB RAM, {host['os']}, "
             f"Linux {host['kernel']}.\n\n{markdown_table(figures)}\n{END}")
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + block + tail)
