"""Tables, CSV, JSON and plots of a suite run (see suite.py).

A row is one csv line of a benchmark program: the median, min and max
over its repetitions of one phase of one (bench, library, case, method,
ranks). Bandwidths in the tables are of the whole side: "write" is
open_w + write + close_w (total_w), "read" is total_r, as seed 001 counts
a checkpoint's time. Ratios compare the best method of each library in
the same case and rank count, measured in the same run.
"""
import csv
import datetime
import json
import os
import platform
import sys

# The fields of a result line after its leading "csv" (see bio.h).
FIELDS = ["bench", "lib", "case", "method", "nprocs", "phase", "bytes",
          "median_s", "min_s", "max_s", "mibs"]

SIDES = (("write", "total_w"), ("read", "total_r"))
BREAKDOWN = ("open_w", "write", "close_w")
# suite.py's label of a Fortran program's rows: "<library> (Fortran)".
FORTRAN_SUFFIX = " (Fortran)"


def index(rows):
    """{(bench, case, method, label, nprocs, phase): row}."""
    return {(r["bench"], r["case"], r["method"], r["label"], r["nprocs"],
             r["phase"]): r for r in rows}


def ordered(values):
    seen = []
    for v in values:
        if v not in seen:
            seen.append(v)
    return seen


def best(ix, bench, case, label, np_, phase, methods):
    """Highest median bandwidth of label over its methods, or None."""
    vals = [ix[k]["mibs"] for m in methods
            for k in [(bench, case, m, label, np_, phase)] if k in ix]
    return max(vals) if vals else None


def fmt(v):
    return "%9.1f" % v if v is not None else "%9s" % "-"


def bench_table(rows, bench, side, phase, out):
    brow = [r for r in rows if r["bench"] == bench and r["label"] != "machine"]
    if not brow:
        return
    ix = index(brow)
    ranks = sorted(ordered(r["nprocs"] for r in brow))
    out.append("")
    out.append("== %s, %s (%s; MiB/s, median over repetitions) =="
               % (bench, side, phase))
    out.append("%-18s %-9s %-22s" % ("case", "method", "library") +
               "".join("%9s" % ("np=%d" % n) for n in ranks))
    for case in ordered(r["case"] for r in brow):
        for method in ordered(r["method"] for r in brow):
            for label in ordered(r["label"] for r in brow):
                cells = [ix.get((bench, case, method, label, n, phase))
                         for n in ranks]
                if any(cells):
                    out.append("%-18s %-9s %-22s" % (case, method, label) +
                               "".join(fmt(c["mibs"] if c else None)
                                       for c in cells))
    machine_rows(rows, bench, side, out)
    ratio_table(brow, bench, phase, ranks, out)


def machine_rows(rows, bench, side, out):
    want = ("memcpy", "seqw") if side == "write" else ("memcpy", "seqr")
    for r in rows:
        if r["bench"] == bench and r["label"] == "machine" and \
                r["phase"] in want:
            out.append("%-18s %-9s %-22s %9.1f  (one process, %d bytes)"
                       % ("machine", r["phase"], "limits", r["mibs"],
                          r["bytes"]))


def ratio_table(brow, bench, phase, ranks, out):
    labels = ordered(r["label"] for r in brow)
    ours = [l for l in labels if l.split(":")[0] == "ncpario"]
    others = [l for l in labels if l not in ours and
              not l.endswith(FORTRAN_SUFFIX)]
    fortran_ratios(brow, bench, phase, ranks, out)
    if not ours or not others:
        return
    ix = index(brow)
    methods = ordered(r["method"] for r in brow)
    out.append("  ratios, best method of each (above 1: ncpario faster):")
    for case in ordered(r["case"] for r in brow):
        for mine in ours:
            for other in others:
                cells = []
                for n in ranks:
                    a = best(ix, bench, case, mine, n, phase, methods)
                    b = best(ix, bench, case, other, n, phase, methods)
                    cells.append("%9.2f" % (a / b) if a and b else
                                 "%9s" % "-")
                out.append("  %-16s %-9s %-22s" % (case, "", "%s/%s" % (
                    mine, other)) + "".join(cells))


def fortran_ratios(brow, bench, phase, ranks, out):
    """The C program of a library over its Fortran twin (suite.py's
    btio_f, flash_io_f), best method of each, where both ran a case."""
    labels = ordered(r["label"] for r in brow)
    pairs = [(l[:-len(FORTRAN_SUFFIX)], l) for l in labels
             if l.endswith(FORTRAN_SUFFIX) and
             l[:-len(FORTRAN_SUFFIX)] in labels]
    if not pairs:
        return
    ix = index(brow)
    methods = ordered(r["method"] for r in brow)
    lines = []
    for case in ordered(r["case"] for r in brow):
        for c_label, f_label in pairs:
            cells = []
            for n in ranks:
                a = best(ix, bench, case, c_label, n, phase, methods)
                b = best(ix, bench, case, f_label, n, phase, methods)
                cells.append("%9.2f" % (a / b) if a and b else None)
            if any(cells):
                lines.append("  %-16s %-9s %-22s" % (
                    case, "", "%s C/Fortran" % c_label) + "".join(
                        c or "%9s" % "-" for c in cells))
    if lines:
        out.append("  C over Fortran, best method of each (above 1: C "
                   "faster):")
        out.extend(lines)


def text_tables(rows, meta):
    out = ["ncpario-bench: preset %s, ranks %s, %d reps (+%d warm-up), "
           "dir %s, %s" % (meta["preset"], meta["ranks"], meta["reps"],
                           meta["warmup"], meta["dir"], meta["date"])]
    for bench in ordered(r["bench"] for r in rows):
        for side, phase in SIDES:
            bench_table(rows, bench, side, phase, out)
    return "\n".join(out) + "\n"


def write_csv(rows, path):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["label"] + FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow({k: r[k] for k in ["label"] + FIELDS})


def plot_bandwidth(plt, rows, bench, outdir):
    brow = [r for r in rows if r["bench"] == bench and r["label"] != "machine"]
    ix = index(brow)
    methods = ordered(r["method"] for r in brow)
    files = []
    for case in ordered(r["case"] for r in brow):
        fig, axes = plt.subplots(1, 2, figsize=(10, 4))
        for ax, (side, phase) in zip(axes, SIDES):
            for label in ordered(r["label"] for r in brow):
                ranks = sorted(ordered(r["nprocs"] for r in brow
                                       if r["label"] == label))
                ys = [best(ix, bench, case, label, n, phase, methods)
                      for n in ranks]
                pts = [(n, y) for n, y in zip(ranks, ys) if y]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts],
                            marker="o", label=label)
            ax.set_title("%s %s: %s" % (bench, case, side))
            ax.set_xlabel("MPI ranks")
            ax.set_ylabel("MiB/s (best method)")
            ax.set_xscale("log", base=2)
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=7)
        fig.tight_layout()
        name = os.path.join(outdir, "%s_%s_bandwidth.png" % (bench, case))
        fig.savefig(name, dpi=90)
        plt.close(fig)
        files.append(name)
    return files


def plot_breakdown(plt, rows, bench, outdir):
    """Seed 003's view: open, write and close time per library, at the
    largest rank count, the best method (by total_w) of each."""
    brow = [r for r in rows if r["bench"] == bench and r["label"] != "machine"]
    if not brow:
        return []
    ix = index(brow)
    np_ = max(r["nprocs"] for r in brow)
    methods = ordered(r["method"] for r in brow)
    bars = []
    for case in ordered(r["case"] for r in brow):
        for label in ordered(r["label"] for r in brow):
            cand = [m for m in methods
                    if (bench, case, m, label, np_, "total_w") in ix]
            if not cand:
                continue
            m = min(cand, key=lambda m: ix[(bench, case, m, label, np_,
                                            "total_w")]["median_s"])
            bars.append(("%s\n%s" % (case, label),
                         [ix[(bench, case, m, label, np_, p)]["median_s"]
                          for p in BREAKDOWN]))
    fig, ax = plt.subplots(figsize=(max(6, 0.7 * len(bars)), 4))
    bottom = [0.0] * len(bars)
    for i, phase in enumerate(BREAKDOWN):
        vals = [b[1][i] for b in bars]
        ax.bar(range(len(bars)), vals, bottom=bottom, label=phase)
        bottom = [x + y for x, y in zip(bottom, vals)]
    ax.set_xticks(range(len(bars)))
    ax.set_xticklabels([b[0] for b in bars], fontsize=6, rotation=90)
    ax.set_ylabel("seconds (median)")
    ax.set_title("%s at %d ranks: open / write / close" % (bench, np_))
    ax.legend(fontsize=7)
    fig.tight_layout()
    name = os.path.join(outdir, "%s_breakdown.png" % bench)
    fig.savefig(name, dpi=90)
    plt.close(fig)
    return [name]


def plots(rows, outdir):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.stderr.write("ncpario-bench: matplotlib missing, no plots "
                         "(apt-get install python3-matplotlib)\n")
        return []
    files = []
    for bench in ordered(r["bench"] for r in rows):
        files += plot_bandwidth(plt, rows, bench, outdir)
        files += plot_breakdown(plt, rows, bench, outdir)
    return files


def write_all(rows, a, runner):
    meta = {"preset": a.preset, "ranks": runner.ranks, "reps": runner.reps,
            "warmup": runner.warmup, "dir": a.dir, "hints": a.hints,
            "mca_io": a.mca_io, "libs": a.libs,
            "date": datetime.datetime.now().isoformat(timespec="seconds"),
            "host": platform.node()}
    os.makedirs(a.out, exist_ok=True)
    table = text_tables(rows, meta)
    sys.stdout.write(table)
    with open(os.path.join(a.out, "table.txt"), "w") as f:
        f.write(table)
    write_csv(rows, os.path.join(a.out, "results.csv"))
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump({"meta": meta, "rows": rows}, f, indent=1)
    files = [] if a.no_plots else plots(rows, a.out)
    sys.stderr.write("ncpario-bench: wrote %s/table.txt, results.csv, "
                     "results.json%s\n" % (a.out, "".join(
                         ", " + os.path.basename(f) for f in files)))
    return 0
