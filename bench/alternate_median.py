#!/usr/bin/env python3
"""Medians of bench/alternate.sh's output: for each (program, case,
method, ranks), the median over rounds of each build's median write time
(prev, now, pnc = PnetCDF) and the ratios now/prev, now/pnc and prev/pnc
as speeds (above 1: the first faster).

usage: bench/alternate_median.py FILE.csv...
"""
import collections
import statistics as st
import sys

d = collections.defaultdict(list)
for f in sys.argv[1:]:
    for line in open(f):
        p = line.strip().split(',')
        b, rest = p[0], p[2:]
        # csv,prog,lib,case,method,np,phase,bytes,median_s,...
        key = (rest[1], rest[3], rest[4], rest[5])
        d[(key, b)].append(float(rest[8]))
for k in sorted({k for k, _ in d}):
    m = {b: st.median(d[(k, b)]) for b in ('prev', 'now', 'pnc')
         if (k, b) in d}
    ratios = ""
    if len(m) == 3:
        ratios = (f" now/prev={m['prev'] / m['now']:.2f}"
                  f" now/pnc={m['pnc'] / m['now']:.2f}"
                  f" prev/pnc={m['pnc'] / m['prev']:.2f}")
    print(k, ' '.join(f"{b}={m[b] * 1e3:.2f}ms" for b in m) + ratios)
