"""Figures: a value, its unit, an optional baseline measured in the same run, the ratio, a
target and whether it holds. A target applies to the ratio when there is a baseline, otherwise
to the value."""

import math

COMPARE = {"≥": lambda a, b: a >= b, "≤": lambda a, b: a <= b,
           "<": lambda a, b: a < b, ">": lambda a, b: a > b, "=": lambda a, b: a == b}


class Figures:
    """The run's figures, in the order they were measured."""

    def __init__(self):
        self.items = {}

    def add(self, name, value, unit, baseline=None, target=None, command=None, **extra):
        """Records a figure; `baseline` names an earlier figure, `target` is like ("≥", 0.6);
        `extra` fields (e.g. the engine's command line) are stored with it."""
        base_value = self.value(baseline) if baseline else None
        ratio = value / base_value if value is not None and base_value else None
        checked = ratio if baseline else value
        met = None
        if target and checked is not None:
            met = COMPARE[target[0]](checked, target[1])
        self.items[name] = {
            "value": value, "unit": unit, "baseline": baseline, "baseline_value": base_value,
            "ratio": ratio, "target": f"{target[0]} {target[1]:g}" if target else None,
            "met": met, "command": command, **extra}
        return self.items[name]

    def missing(self, name, unit, reason, target=None):
        """Records a figure that could not be measured."""
        self.add(name, None, unit, target=target)
        self.items[name]["note"] = reason

    def value(self, name):
        """The value of a figure, None when absent."""
        return self.items.get(name, {}).get("value")

    def rows(self):
        """Table rows: figure, value, unit, baseline, ratio, target, mark."""
        for name, f in self.items.items():
            mark = {True: "✓", False: "✗", None: "–"}[f["met"]]
            base = ""
            if f["baseline"]:
                base = f"{f['baseline']} ({fmt(f['baseline_value']) or 'missing'})"
            value = fmt(f["value"]) if f["value"] is not None else "missing"
            yield [name, value, f["unit"], base, fmt(f["ratio"]), f["target"] or "", mark]


HEADER = ["figure", "value", "unit", "baseline", "ratio", "target", "✓/✗/–"]


def fmt(x):
    """A number for the table: integers above 1000 grouped, others to 3 significant digits."""
    if x is None:
        return ""
    if isinstance(x, float) and math.isnan(x):
        return "nan"
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    return f"{x:.3g}"


def text_table(figures):
    """The table as aligned plain text."""
    rows = [HEADER] + list(figures.rows())
    widths = [max(len(r[i]) for r in rows) for i in range(len(HEADER))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def markdown_table(figures):
    """The table as markdown."""
    rows = list(figures.rows())
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in r) + " |" for r in rows]
    return "\n".join(lines)
