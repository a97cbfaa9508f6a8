#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turns the raw lines of capsicum_bench (one file per kernel) into
results.md, results.json and results.png under --out, marks every target
of bench/README.md met or missed, and rewrites the targets table of that
README between its markers. Prints results.md.

usage: report.py --out DIR [--readme FILE] KERNEL=RAWFILE...
"""
import argparse
import json
import os
import subprocess
import sys

CONFIGS = [
    ("a", "programs not loaded"),
    ("a'", "floor: empty program on every hook we attach"),
    ("b", "Capsicum loaded, process without Capsicum state"),
    ("b+", "as (b), while another process holds a limited descriptor "
           "in capability mode"),
    ("c", "restricted descriptors, operation allowed"),
    ("d", "capability mode"),
    ("e", "Landlock ruleset over the same files"),
    ("f", "seccomp filter, 150 comparisons + argument load"),
    ("f0", "seccomp filter that allows everything (cached, never run)"),
]
# E(x) = (x - a') / a is our own cost above the floor: ours only.
EXCESS_OF = ["b", "b+", "c", "d"]
RW = {"read", "write"}
OPEN_OPS = {"open", "openat"}

TARGETS = [
    ("b-all", "(b) E <= 0.03 on every operation"),
    ("b+-all", "(b+) the same, another process holding Capsicum state"),
    ("c-rw", "(c) E <= 0.15 on read/write"),
    ("c-rest", "(c) E <= 0.10 on the rest"),
    ("b-stat", "(b) stat of a four-component path <= 1.05 x (a)"),
    ("d-openat", "(d) openat through a dirfd 3 levels deep <= 1.30 x (a)"),
    ("d-rest", "(d) E <= 0.10 elsewhere"),
    ("vs-landlock", "(b), (b+), (c), (d) open/openat never costlier than Landlock (e)"),
]
# The patched kernel's own targets (issue 25): ratios to its own (a), the
# trampolines included, since that kernel is meant to be the exact and
# fast mode; (d) against the stock kernel of the same version.
PATCHED = "patched"
PATCHED_STOCK = "6.12"
PATCHED_TARGETS = [
    ("p-b-all", "patched: (b) <= 1.02 x (a) on every operation"),
    ("p-b+-all", "patched: (b+) <= 1.02 x (a) on every operation"),
    ("p-c-rw", "patched: (c) <= 1.10 x (a) on read/write"),
    ("p-c-rest", "patched: (c) <= 1.15 x (a) on the rest"),
    ("p-d-stock", "patched: (d) x (a) <= 6.12's (d) x (a) on every operation"),
]


def parse(path):
    run = {"release": None, "floor_hooks": None, "done": None, "ops": {}}
    with open(path, errors="replace") as f:
        for line in f:
            w = line.split()
            if len(w) < 2 or w[0] != "bench":
                continue
            if w[1] == "kernel":
                run["release"] = w[2]
            elif w[1] == "floor":
                run["floor_hooks"] = int(w[2])
            elif w[1] == "done":
                run["done"] = " ".join(w[2:])
            elif w[1] == "result":
                cfg, op = w[2], w[3]
                run["ops"].setdefault(op, {})[cfg] = {
                    "ns": float(w[4]), "min": float(w[5]), "max": float(w[6])}
            elif w[1] == "na":
                cfg, op = w[2], w[3]
                why = " ".join(w[4:]).strip("()")
                run["ops"].setdefault(op, {})[cfg] = {"na": why}
    return run


def derive(run):
    """Adds ratio to (a) and E to every measured cell."""
    for op, cells in run["ops"].items():
        a = cells.get("a", {}).get("ns")
        floor = cells.get("a'", {}).get("ns")
        for cfg, cell in cells.items():
            if "ns" not in cell or not a:
                continue
            cell["ratio"] = round(cell["ns"] / a, 3)
            if cfg in EXCESS_OF and floor is not None:
                cell["excess"] = round((cell["ns"] - floor) / a, 3)


def check(run):
    """Per target: (status, detail). status is met, missed or n/a."""
    ops = run["ops"]
    out = {}

    def excess_rule(cfg, limit, names):
        bad, na = [], []
        for op in names:
            cell = ops[op].get(cfg, {})
            if "na" in cell:
                na.append(op)
            elif cell.get("excess") is None:
                na.append(op)
            elif cell["excess"] > limit:
                bad.append("%s %+.3f" % (op, cell["excess"]))
        return bad, na

    def verdict(bad, na, measured):
        if not measured:
            return ("n/a", na_reason(na))
        if bad:
            return ("missed", ", ".join(bad))
        return ("met", "")

    def na_reason(names):
        for op in names:
            for cfg in ("d", "c", "b+", "b"):
                why = ops[op].get(cfg, {}).get("na")
                if why:
                    return why
        return "not measured"

    names = list(ops)
    bad, na = excess_rule("b", 0.03, names)
    out["b-all"] = verdict(bad, na, len(names) > len(na))
    bad, na = excess_rule("b+", 0.03, names)
    out["b+-all"] = verdict(bad, na, len(names) > len(na))
    rw = [o for o in names if o in RW]
    bad, na = excess_rule("c", 0.15, rw)
    out["c-rw"] = verdict(bad, na, len(rw) > len(na))
    rest = [o for o in names if o not in RW]
    bad, na = excess_rule("c", 0.10, rest)
    out["c-rest"] = verdict(bad, na, len(rest) > len(na))

    # A walk's cost per component, for a process without state (issue 29).
    cell = ops.get("stat", {}).get("b", {})
    if "ratio" in cell:
        out["b-stat"] = ("met" if cell["ratio"] <= 1.05 else "missed",
                         "stat %.3f x" % cell["ratio"])
    else:
        out["b-stat"] = ("n/a", cell.get("na", "not measured"))
    cell = ops.get("openat", {}).get("d", {})
    if "ratio" in cell:
        ok = cell["ratio"] <= 1.30
        out["d-openat"] = ("met" if ok else "missed",
                           "openat %.3f x" % cell["ratio"])
    else:
        out["d-openat"] = ("n/a", cell.get("na", "not measured"))
    # Operations capability mode forbids are not part of "elsewhere".
    rest = [o for o in names if o != "openat" and
            "global namespace" not in ops[o].get("d", {}).get("na", "")]
    bad, na = excess_rule("d", 0.10, rest)
    out["d-rest"] = verdict(bad, na, len(rest) > len(na))

    bad, measured = [], 0
    for op in [o for o in names if o in OPEN_OPS]:
        e = ops[op].get("e", {}).get("ns")
        for cfg in ("b", "b+", "c", "d"):
            x = ops[op].get(cfg, {}).get("ns")
            if x is None or e is None:
                continue
            measured += 1
            if x > e:
                bad.append("%s (%s) %.0f > %.0f" % (op, cfg, x, e))
    out["vs-landlock"] = verdict(bad, [], measured > 0)
    if out["vs-landlock"][0] == "met":
        dn = [op for op in OPEN_OPS if "ns" not in ops.get(op, {}).get("d", {})]
        if dn:
            out["vs-landlock"] = ("met", "(d) not measured for " +
                                  ", ".join(sorted(dn)))
    return out


def check_patched(run, stock):
    """The patched kernel's targets: (status, detail) per key."""
    ops = run["ops"]
    out = {}

    def ratio_rule(cfg, limit, names):
        bad, measured = [], 0
        for op in names:
            r = ops[op].get(cfg, {}).get("ratio")
            if r is None:
                continue
            measured += 1
            if r > limit:
                bad.append("%s %.3f x" % (op, r))
        if not measured:
            return ("n/a", "not measured")
        return ("missed", ", ".join(bad)) if bad else ("met", "")

    names = list(ops)
    out["p-b-all"] = ratio_rule("b", 1.02, names)
    out["p-b+-all"] = ratio_rule("b+", 1.02, names)
    out["p-c-rw"] = ratio_rule("c", 1.10, [o for o in names if o in RW])
    out["p-c-rest"] = ratio_rule("c", 1.15,
                                 [o for o in names if o not in RW])
    if stock is None:
        out["p-d-stock"] = ("n/a", "%s not measured" % PATCHED_STOCK)
        return out
    bad, measured = [], 0
    for op in names:
        r = ops[op].get("d", {}).get("ratio")
        rs = stock["ops"].get(op, {}).get("d", {}).get("ratio")
        if r is None or rs is None:
            continue
        measured += 1
        if r > rs:
            bad.append("%s %.3f x > %.3f x" % (op, r, rs))
    out["p-d-stock"] = (("missed", ", ".join(bad)) if bad else ("met", "")
                        ) if measured else ("n/a", "not measured")
    return out


def verdicts_of(runs):
    """Per kernel, per target key: the stock targets for a stock kernel,
    the patched kernel's own for it."""
    out = {}
    for k, run in runs.items():
        if k == PATCHED:
            out[k] = check_patched(run, runs.get(PATCHED_STOCK))
        else:
            out[k] = check(run)
    return out


def fmt_ns(x):
    return "%.0f" % x if x >= 100 else "%.1f" % x


def cell_text(cell):
    if "na" in cell:
        return "n/a (%s)" % cell["na"]
    s = fmt_ns(cell["ns"])
    if "ratio" in cell:
        s += " (%.2fx)" % cell["ratio"]
    return s


def markdown(runs, verdicts):
    lines = []
    lines.append("Guest ns per operation under `-icount shift=0` (one guest "
                 "instruction = 1 ns), median of the timed loops; in "
                 "brackets the ratio to (a).")
    lines.append("")
    for cfg, what in CONFIGS:
        lines.append("- (%s) %s" % (cfg, what))
    for k, run in runs.items():
        lines.append("")
        lines.append("### Kernel %s (`%s`), floor of %s hooks" %
                     (k, run["release"], run["floor_hooks"]))
        lines.append("")
        cfgs = [c for c, _ in CONFIGS]
        lines.append("| op | " + " | ".join("(%s)" % c for c in cfgs) +
                     " | " + " | ".join("E(%s)" % c for c in EXCESS_OF) + " |")
        lines.append("|---" * (1 + len(cfgs) + len(EXCESS_OF)) + "|")
        for op, cells in run["ops"].items():
            row = [op] + [cell_text(cells.get(c, {"na": "missing"}))
                          for c in cfgs]
            for c in EXCESS_OF:
                e = cells.get(c, {}).get("excess")
                row.append("n/a" if e is None else "%+.3f" % e)
            lines.append("| " + " | ".join(row) + " |")
    lines.append("")
    lines.append("### Targets")
    lines.append("")
    lines.extend(targets_table(runs, verdicts))
    return "\n".join(lines) + "\n"


def targets_table(runs, verdicts):
    lines = ["| target | " + " | ".join(runs) + " |",
             "|---" * (1 + len(runs)) + "|"]
    for key, what in TARGETS + PATCHED_TARGETS:
        row = [what]
        if not any(key in verdicts[k] for k in runs):
            continue
        for k in runs:
            if key not in verdicts[k]:
                row.append("(not its target)")
                continue
            status, detail = verdicts[k][key]
            row.append("**%s**" % status + (": " + detail if detail else ""))
        lines.append("| " + " | ".join(row) + " |")
    return lines


def chart(runs, out):
    """Ratio to (a) per operation and configuration, one panel a kernel."""
    cfgs = [c for c, _ in CONFIGS if c != "a"]
    dat = os.path.join(out, "results.dat")
    with open(dat, "w") as f:
        for k, run in runs.items():
            f.write("# kernel %s\n# op " % k + " ".join(cfgs) + "\n")
            for op, cells in run["ops"].items():
                vals = [str(cells.get(c, {}).get("ratio", "NaN"))
                        for c in cfgs]
                f.write(op + " " + " ".join(vals) + "\n")
            f.write("\n\n")
    gp = ["set terminal pngcairo size 1400,%d font ',10'" % (420 * len(runs)),
          "set output '%s'" % os.path.join(out, "results.png"),
          "set style data histogram",
          "set style histogram clustered gap 1",
          "set style fill solid 0.8 border -1",
          "set logscale y 2", "set yrange [0.8:*]", "set grid ytics",
          "set ylabel 'cost / cost with nothing loaded (a)'",
          "set xtics rotate by -30", "set key outside right",
          "set multiplot layout %d,1" % len(runs)]
    for i, (k, run) in enumerate(runs.items()):
        gp.append("set title 'kernel %s (log scale; missing bar = n/a)'" % k)
        # gnuplot refuses a column without a single point: leave it out.
        plots = ["'%s' index %d using %d:xtic(1) title \"(%s)\"" %
                 (dat, i, j + 2, c) for j, c in enumerate(cfgs)
                 if any("ratio" in cells.get(c, {})
                        for cells in run["ops"].values())]
        gp.append("plot " + ", ".join(plots))
    gp.append("unset multiplot")
    subprocess.run(["gnuplot"], input="\n".join(gp) + "\n", text=True,
                   check=True)


def update_readme(path, runs, verdicts):
    begin, end = "<!-- targets:begin -->", "<!-- targets:end -->"
    with open(path) as f:
        text = f.read()
    if begin not in text or end not in text:
        print("report: %s has no targets markers, left alone" % path,
              file=sys.stderr)
        return
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    body = "\n".join(targets_table(runs, verdicts))
    with open(path, "w") as f:
        f.write(head + begin + "\n" + body + "\n" + end + tail)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--readme")
    ap.add_argument("runs", nargs="+", metavar="KERNEL=RAW")
    args = ap.parse_args()

    runs = {}
    for spec in args.runs:
        k, path = spec.split("=", 1)
        runs[k] = parse(path)
        derive(runs[k])
    verdicts = verdicts_of(runs)

    os.makedirs(args.out, exist_ok=True)
    doc = {
        "unit": "guest ns (instructions) per operation, median",
        "excess": "E(x) = (x - a') / a",
        "configs": dict(CONFIGS),
        "kernels": runs,
        "targets": [
            {"kernel": k, "target": what, "status": verdicts[k][key][0],
             "detail": verdicts[k][key][1]}
            for key, what in TARGETS + PATCHED_TARGETS for k in runs
            if key in verdicts[k]],
    }
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")
    md = markdown(runs, verdicts)
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write(md)
    chart(runs, args.out)
    if args.readme:
        update_readme(args.readme, runs, verdicts)
    sys.stdout.write(md)
    print("\nwritten: %s/results.{md,json,png}" % args.out)


if __name__ == "__main__":
    main()
