#!/usr/bin/env bash
# check_part2d.sh -- ctest's run of part2d (bench.part2d.np<N>): every
# pattern, every library built, double and float in the file, tiny sizes.
#
# usage: check_part2d.sh NPROCS PART2D_BINARY [PART2D_PNETCDF_BINARY | -]
#
# The other libraries' programs (part2d_hdf5, part2d_mpiio, part2d_fpp)
# are taken from the directory of PART2D_BINARY where they were built.
# Passing means, for every library and file type: the program exits 0
# (it read back every value as written, by every method), prints a csv
# case for each of the four patterns, and the files it kept hold the right
# values in the right places: ncvalidator accepts every .nc file, ncpario's
# files are byte-identical to PnetCDF's, and the values of the netCDF,
# raw MPI-IO and file-per-process files are checked here, independently
# of the program, against the formula it writes.
set -euo pipefail

# np, bin_a, bin_b, validator, work
source "$(dirname "${BASH_SOURCE[0]}")/check_common.sh" "$@"
export OMPI_MCA_io=${OMPI_MCA_io-romio321}

side=3 nvars=2 nrecs=2
bin_dir=$(dirname "$bin_a")
fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

# The values part2d writes, checked in a kept file of pattern PAT: a
# netCDF file's record section (at the end of the file, big-endian), a raw
# MPI-IO file (the same records in native order) or rank R's file per
# process (its own elements, record by record and variable by variable).
check_values() { # FILE KIND(nc|mpiio|fpp) PAT TYPE(d|f) [RANK]
    python3 - "$@" "$np" "$side" "$nvars" "$nrecs" <<'EOF'
import struct, sys, os
path, kind, pat, t = sys.argv[1:5]
rank = int(sys.argv[5]) if kind == "fpp" else 0
p, s, nv, nr = (int(x) for x in sys.argv[-4:])
grid = {"bb": None, "sc": (1, p), "bs": (p, 1), "sb": (1, p)}[pat]
if grid is None:  # MPI_Dims_create(p, 2): the most square, larger first
    py = min(d for d in range(1, p + 1) if p % d == 0 and d * d >= p)
    grid = (py, p // py)
Y, X = s * grid[0], s * grid[1]
def value(v, rec, y, x):
    lin = (rec * Y + y) * X + x
    return float((lin * 2654435761 + v * 7919) & 0xffffff)
def mine(r):  # rank r's global (y, x) in its row-major order
    if pat == "bb":
        y0, x0, sy, sx = (r // grid[1]) * s, (r % grid[1]) * s, 1, 1
    elif pat == "sc":
        y0, x0, sy, sx = 0, r, 1, p
    elif pat == "bs":
        y0, x0, sy, sx = r * s, 0, 1, 1
    else:
        y0, x0, sy, sx = 0, r * s, 1, 1
    return [(y0 + i * sy, x0 + j * sx) for i in range(s) for j in range(s)]
es = 8 if t == "d" else 4
fmt = ({"nc": ">", "mpiio": "<", "fpp": "<"}[kind] + ("d" if t == "d" else "f"))
data = open(path, "rb").read()
bad = 0
if kind == "fpp":
    want = [value(v, k, y, x) for k in range(nr) for v in range(nv)
            for (y, x) in mine(rank)]
    got = struct.unpack(fmt[0] + str(len(want)) + fmt[1], data)
    bad = sum(a != b for a, b in zip(got, want)) + (len(got) != len(want))
else:
    recsize = nv * Y * X * es
    base = len(data) - nr * recsize
    owned = set(xy for r in range(p) for xy in mine(r))
    for k in range(nr):
        for v in range(nv):
            off = base + k * recsize + v * Y * X * es
            vals = struct.unpack_from(fmt[0] + str(Y * X) + fmt[1], data, off)
            for y in range(Y):
                for x in range(X):
                    if (y, x) in owned and vals[y * X + x] != value(v, k, y, x):
                        bad += 1
    bad += len(owned) != Y * X  # the pattern must cover every element
if bad:
    sys.exit("%s: %d wrong values" % (path, bad))
EOF
}

libs="ncpario"
[ "$bin_b" != "-" ] && libs="$libs pnetcdf"
[ -x "$bin_dir/part2d_hdf5" ] && libs="$libs hdf5"
libs="$libs mpiio fpp"
for T in double float; do
    t=${T:0:1}
    f=f8; [ "$T" = float ] && f=f4
    for lib in $libs; do
        exe=$bin_dir/part2d_$lib
        [ "$lib" = ncpario ] && exe=$bin_a
        [ "$lib" = pnetcdf ] && exe=$bin_b
        dir=$work/$lib.$T
        mkdir -p "$dir"
        if ! mpirun --oversubscribe -np "$np" "$exe" -p all -s $side \
                -v $nvars -t $nrecs -T "$T" -r 1 -q -k -c -d "$dir" \
                >"$dir/out.txt" 2>&1; then
            cat "$dir/out.txt" >&2
            bad "$lib $T: part2d failed"
            continue
        fi
        for pat in bb sc bs sb; do
            grep -q "^csv,part2d,$lib,${pat}_s${side}_${f}_v${nvars}_t${nrecs},.*,total_r," \
                "$dir/out.txt" || bad "$lib $T: no csv line of case $pat"
            for m in pervar combined indep; do
                case $lib in
                    ncpario|pnetcdf)
                        file=$(echo "$dir"/part2d.$lib.*.$pat.$m.nc)
                        [ -n "$validator" ] &&
                            { "$validator" -q "$file" ||
                                  bad "ncvalidator: $file"; }
                        check_values "$file" nc $pat $t || bad "$file";;
                    mpiio)
                        file=$(echo "$dir"/part2d.$lib.*.$pat.$m.mpiio)
                        check_values "$file" mpiio $pat $t || bad "$file";;
                    fpp)
                        for ((r = 0; r < np; r++)); do
                            file=$(echo "$dir"/part2d.$lib.*.$pat.$m.fpp.$r)
                            check_values "$file" fpp $pat $t $r ||
                                bad "$file"
                        done;;
                esac
            done
        done
    done
    if [ "$bin_b" != "-" ]; then
        for a in "$work"/ncpario.$T/*.nc; do
            name=$(basename "$a")
            b=$(echo "$work"/pnetcdf.$T/part2d.pnetcdf.*."${name#part2d.ncpario.*.}")
            cmp -s "$a" "$b" || bad "$a differs from PnetCDF's $b"
        done
    fi
done
[ $fail = 0 ] && echo "part2d: every library, pattern and type verified at $np rank(s)"
exit $fail
