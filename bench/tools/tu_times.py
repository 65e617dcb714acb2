#!/usr/bin/env python3
"""CPU seconds (user + system) that g++ takes for each named source file, compiled alone with
the command its build tree's compile_commands.json gives (ccache left out), in one or more
checkouts: the build's per-file figures of docs/benchmarks.md ("Build").

    bench/tools/tu_times.py FILES TREE [TREE ...]

FILES holds one path per line, relative to a checkout (e.g. transports/http/src/server/session.cpp);
each TREE is a checkout whose build/ is configured. Prints a Markdown table, one row a file,
one column a tree ("-" where the tree has no such file). CPU time rather than wall time: it
moves much less with the machine's other load."""
import json
import os
import shlex
import subprocess
import sys
import tempfile


def commands(tree):
    """Source path relative to the checkout -> (directory, argument list)."""
    with open(os.path.join(tree, "build", "compile_commands.json")) as f:
        entries = json.load(f)
    table = {}
    for entry in entries:
        args = [a for a in shlex.split(entry["command"]) if not a.endswith("ccache")]
        table[os.path.relpath(entry["file"], tree)] = (entry["directory"], args)
    return table


def cpu_seconds(directory, args, output):
    args = list(args)
    args[args.index("-o") + 1] = output
    run = subprocess.run(["/usr/bin/time", "-f", "%U %S"] + args, cwd=directory,
                         capture_output=True, text=True)
    if run.returncode != 0:
        return "failed"
    user, system = run.stderr.strip().splitlines()[-1].split()
    return f"{float(user) + float(system):.1f}"


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        files = [line.strip() for line in f if line.strip()]
    trees = sys.argv[2:]
    tables = [commands(tree) for tree in trees]
    print("| file | " + " | ".join(trees) + " |")
    print("|---" * (len(trees) + 1) + "|")
    with tempfile.TemporaryDirectory() as scratch:
        output = os.path.join(scratch, "file.o")
        for path in files:
            cells = [cpu_seconds(*table[path], output) if path in table else "-"
                     for table in tables]
            print(f"| `{path}` | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
