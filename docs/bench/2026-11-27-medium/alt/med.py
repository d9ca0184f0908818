import sys, statistics as st, collections
d = collections.defaultdict(list)
for f in sys.argv[1:]:
    for line in open(f):
        p = line.strip().split(',')
        b, r = p[0], p[1]; rest = p[2:]
        # csv,prog,lib,case,method,np,phase,bytes,median_s,...
        key = (rest[1], rest[3], rest[4], rest[5])
        d[(key, b)].append(float(rest[8]))
keys = sorted({k for k, _ in d})
for k in keys:
    m = {b: st.median(d[(k, b)]) for b in ('prev', 'now', 'pnc') if (k, b) in d}
    print(k, ' '.join(f"{b}={m[b]*1e3:.2f}ms" for b in m),
          f"now/prev={m['prev']/m['now']:.2f} now/pnc={m['pnc']/m['now']:.2f} prev/pnc={m['pnc']/m['prev']:.2f}")
