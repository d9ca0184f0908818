#!/usr/bin/env bash
# pnetcdf-suite.sh -- PnetCDF's own test suite, built unchanged against
# ncpario's PnetCDF drop-in and against a reference PnetCDF, run with both,
# compared program by program.
#
# The PnetCDF source is the caller's (an extracted release tree); it is
# copied, never modified, and nothing of it enters this repository. The
# script configures a copy once (autoreconf/configure only generate the test
# Makefiles; PnetCDF's library is not built), makes one copy per library with
# that library's pnetcdf.h, pnetcdf.inc, pnetcdf.mod and a libtool
# libpnetcdf.la pointing at it, builds the test directories with
# `make -k tests`, runs every program at each rank count with each library,
# and compares: exit status, the files both wrote (cmp, and ncmpidiff where
# bytes differ), ncvalidator on ncpario's files.
#
# Programs link libpnetcdf by rpath, so after ncpario is rebuilt and
# reinstalled into the same prefix a second invocation with the same OUTDIR
# reuses the configured and built trees (make only rebuilds what a changed
# header touches); --only and --ncpario-only narrow the rerun.
#
# `scripts/pnetcdf-suite.sh --help` prints the manual.

set -u -o pipefail

DEFAULT_DIRS=common,testcases,nonblocking,cdf_format,header,largefile,nc_test,C,nf_test,nf90_test,F90,fandc,subfile

usage() {
  cat <<'EOF'
NAME
    pnetcdf-suite.sh - run a PnetCDF release's test suite against ncpario
    and a reference PnetCDF, and compare

SYNOPSIS
    scripts/pnetcdf-suite.sh [OPTION]... PNETCDF_SRC NCPARIO_PREFIX OUTDIR [REF_PREFIX]

DESCRIPTION
    PNETCDF_SRC
        An extracted PnetCDF release source tree, e.g. from the git mirror:
          git --git-dir=MIRROR archive checkpoint.1.12.3 -- . \
              ':(exclude)test/Legacy/data' | tar -x -C PNETCDF_SRC
        It is copied to OUTDIR/tree/pristine and configured there once.
    NCPARIO_PREFIX
        ncpario installed with its PnetCDF drop-in (and the Fortran binding):
          cmake -S NCPARIO -B BUILD -DNCPARIO_PNETCDF_COMPAT=ON
          cmake --build BUILD -j2 && cmake --install BUILD --prefix NCPARIO_PREFIX
    OUTDIR
        Work and result directory, created if missing. A later invocation
        with the same OUTDIR reuses its configured and built trees.
    REF_PREFIX
        Where the reference PnetCDF is installed; default /usr (Debian's
        libpnetcdf-dev). In each prefix the shallowest pnetcdf.h,
        pnetcdf.inc, pnetcdf.mod under include/ and lib*/, and
        libpnetcdf.so under lib*/, are used.

    Every program of every test directory runs at each rank count with each
    library, in a fresh directory, as
      timeout T mpirun -np N --oversubscribe --mca io romio321 PROG ARGS
    with PNETCDF_SAFE_MODE=0, usually with ARGS = RUNDIR/PROG.nc. The
    exceptions follow the directories' *_runs.sh: nc_test, nf_test and
    nf90_test run as three variants PROG, PROG-2, PROG-5 with "[-2|-5] -d
    RUNDIR" (nf_test and nf90_test in their test directory, as they open
    their own sources); pres_temp_4D_rd reads what pres_temp_4D_wr, run
    first in its directory, wrote. A run passes when it exits 0 and prints
    no "fail with N mismatches". A line per program and rank count is
    printed: reference and ncpario status (pass, fail(RC), timeout,
    build-fail), the comparison of the files both wrote where both passed
    (same, differ:N, with "(ncmpidiff-equal:M)" when ncmpidiff finds M of
    them equal in header and variables, missing:N, none), and ncvalidator
    on ncpario's files (ok, invalid:N, "(ref-too:M)" where the reference's
    file is invalid as well, none).

OPTIONS
    --only LIST      Run only these programs: comma-separated PROG,
                     DIR/PROG or variant (nc_test-2) names, shell globs
                     allowed (F90/*, nf_test*). The summary still covers
                     every earlier result in OUTDIR.
    --ncpario-only   Do not rerun the reference where OUTDIR already has its
                     result for a run; compare with its earlier files.
    --no-build       Do not run make; use the programs already built.
    --report-only    Run nothing; rewrite summary.md from the results in
                     OUTDIR.
    --keep-large     Keep output files over 1 GiB; by default they are
                     removed once compared (listed in removed.log), and a
                     later --ncpario-only run reruns their reference.
    --ncpario-env VAR=VALUE
                     Set VAR in the environment of ncpario's runs only
                     (repeatable), e.g. LD_LIBRARY_PATH=NCPARIO_PREFIX/lib
                     to get past a loader problem, or NCPARIO_PROFILE=1.
    --dirs LIST      Test directories (default: all of
                     common,testcases,nonblocking,cdf_format,header,
                     largefile,nc_test,C,nf_test,nf90_test,F90,fandc,subfile).
    --ranks LIST     Rank counts, default 1,4.
    --timeout SEC    Limit of one run, default 300.
    --jobs N         make -j N, default 2.
    -h, --help       This text.

    Run it under nice on a shared machine.

FILES
    OUTDIR/tree/{pristine,ncpario,ref}/     configured copies of PNETCDF_SRC
    OUTDIR/logs/{configure,build-LIB-DIR}.log
    OUTDIR/runs/npN/DIR/PROG/LIB/           cwd of a run, the files it wrote
    OUTDIR/runs/npN/DIR/PROG/LIB.{log,status}
    OUTDIR/runs/npN/DIR/PROG/{cmp,validate,removed}.log, result
    OUTDIR/results.tsv, OUTDIR/summary.md   every result in OUTDIR
    OUTDIR/results-categorized.tsv          the same, with a category:
        ok, bytes (only padding or never-written bytes differ), invalid,
        differs (file contents differ), fails (ncpario fails, ref passes)

EXIT STATUS
    0 when no run is in category fails, differs or invalid (see FILES);
    1 otherwise; 2 on a usage or setup error.

EXAMPLES
    nice scripts/pnetcdf-suite.sh /work/pnetcdf-1.12.3 /opt/ncpario /tmp/suite
    # after rebuilding and reinstalling ncpario into /opt/ncpario:
    nice scripts/pnetcdf-suite.sh --ncpario-only --only nc_test,tst_io \
        /work/pnetcdf-1.12.3 /opt/ncpario /tmp/suite
EOF
}

die() {
  echo "pnetcdf-suite: $*" >&2
  exit 2
}

log() { echo "== $*" >&2; }

# ------------------------------------------------------------ arguments

parse_args() {
  ONLY="" NCPARIO_ONLY=0 NO_BUILD=0 DIRS=$DEFAULT_DIRS RANKS=1,4
  TIMEOUT=300 JOBS=2 NCP_ENV=() KEEP_LARGE=0 REPORT_ONLY=0
  local pos=()
  while (($#)); do
    case $1 in
      --only) ONLY=${2:?--only needs a list}; shift ;;
      --ncpario-only) NCPARIO_ONLY=1 ;;
      --no-build) NO_BUILD=1 ;;
      --report-only) REPORT_ONLY=1 ;;
      --keep-large) KEEP_LARGE=1 ;;
      --ncpario-env)
        [[ ${2:-} == *=* ]] || die "--ncpario-env needs VAR=VALUE"
        NCP_ENV+=("$2"); shift ;;
      --dirs) DIRS=${2:?--dirs needs a list}; shift ;;
      --ranks) RANKS=${2:?--ranks needs a list}; shift ;;
      --timeout) TIMEOUT=${2:?--timeout needs seconds}; shift ;;
      --jobs) JOBS=${2:?--jobs needs a number}; shift ;;
      -h | --help) usage; exit 0 ;;
      -*) die "unknown option $1 (see --help)" ;;
      *) pos+=("$1") ;;
    esac
    shift
  done
  ((${#pos[@]} == 3 || ${#pos[@]} == 4)) || { usage >&2; exit 2; }
  SRC=$(realpath -e "${pos[0]}") || die "no source tree ${pos[0]}"
  NCP_PREFIX=$(realpath -e "${pos[1]}") || die "no prefix ${pos[1]}"
  mkdir -p "${pos[2]}" || die "cannot create ${pos[2]}"
  OUT=$(realpath -e "${pos[2]}")
  REF_PREFIX=$(realpath -e "${pos[3]:-/usr}") || die "no prefix ${pos[3]}"
}

need_tools() {
  local t
  for t in mpicc mpif77 mpif90 mpirun autoreconf libtoolize make m4 \
           timeout cmp ncvalidator ncmpidiff; do
    command -v "$t" >/dev/null || die "$t not found (apt-get install autoconf automake libtool m4 pnetcdf-bin)"
  done
}

# ------------------------------------------------------- library layout

# shallowest NAME under the given directories
find_shallowest() {
  local name=$1
  shift
  find "$@" -maxdepth 4 -name "$name" \( -type f -o -type l \) \
       -printf '%d %p\n' 2>/dev/null | sort -n | head -n 1 | cut -d' ' -f2-
}

# sets <PFX>_H, _INC, _MOD, _LIBDIR for the PnetCDF installed in PREFIX
locate_library() {
  local pfx=$1 prefix=$2 f what
  local -a inc=("$prefix"/include "$prefix"/lib*)
  for what in H:pnetcdf.h INC:pnetcdf.inc MOD:pnetcdf.mod; do
    f=$(find_shallowest "${what#*:}" "${inc[@]}")
    [[ -n $f ]] || die "no ${what#*:} in $prefix"
    printf -v "${pfx}_${what%%:*}" %s "$f"
  done
  f=$(find_shallowest libpnetcdf.so "$prefix"/lib*)
  [[ -n $f ]] || die "no libpnetcdf.so in $prefix"
  printf -v "${pfx}_LIBDIR" %s "$(dirname "$f")"
}

# ------------------------------------------------------------ the trees

configure_pristine() {
  local t=$OUT/tree/pristine
  [[ -f $t/.configured ]] && return
  log "configuring a copy of $SRC (log: $OUT/logs/configure.log)"
  if ! { rm -rf "$t" && mkdir -p "$OUT/tree" "$OUT/logs" && cp -a "$SRC" "$t"; }; then
    die "cannot copy $SRC"
  fi
  (
    cd "$t" || exit 1
    [[ -x configure ]] || autoreconf -i || exit 1
    ./configure --disable-cxx --enable-fortran MPICC=mpicc MPIF77=mpif77 \
      MPIF90=mpif90 MPICXX=mpicxx || exit 1
    # fortlib.c of nf_test includes this build-generated header
    make -C src/binding/f77 mpifnetcdf.h
  ) >"$OUT/logs/configure.log" 2>&1 || die "configure failed, see $OUT/logs/configure.log"
  touch "$t/.configured"
}

# copy FILE to DEST unless identical, so that make rebuilds only on a
# change; true when it copied
install_if_changed() {
  cmp -s "$1" "$2" && return 1
  cp -f "$1" "$2" || die "cannot copy $1 to $2"
}

write_la() {
  cat >"$1.new" <<EOF
# libpnetcdf.la - a libtool library file
# Generated by pnetcdf-suite.sh, to be read by libtool (its check wants this line)
dlname='libpnetcdf.so'
library_names='libpnetcdf.so'
old_library=''
inherited_linker_flags=''
dependency_libs=''
weak_library_names=''
current=0
age=0
revision=0
installed=yes
shouldnotlink=no
dlopen=''
dlpreopen=''
libdir='$2'
EOF
  install_if_changed "$1.new" "$1"
  rm -f "$1.new"
}

# the tree of library LIB (ncpario or ref), its files those of prefix PFX
prepare_tree() {
  local t=$OUT/tree/$1 pfx=$2 u fortran=0
  local h=${pfx}_H finc=${pfx}_INC mod=${pfx}_MOD libdir=${pfx}_LIBDIR
  [[ -d $t ]] || cp -a "$OUT/tree/pristine" "$t" || die "cannot copy tree"
  install_if_changed "${!h}" "$t/src/include/pnetcdf.h"
  install_if_changed "${!finc}" "$t/src/binding/f77/pnetcdf.inc" && fortran=1
  install_if_changed "${!mod}" "$t/src/binding/f90/pnetcdf.mod" && fortran=1
  # pnetcdf.inc and pnetcdf.mod are no make dependency of the Fortran tests
  if ((fortran)); then
    find "$t/test" \( -name '*.[fF]' -o -name '*.[fF]90' \) -exec touch {} +
  fi
  write_la "$t/src/libs/libpnetcdf.la" "${!libdir}"
  for u in ncvalidator ncmpidiff ncmpidump ncmpigen; do
    ln -sf "$(command -v "$u")" "$t/src/utils/$u/$u"
  done
}

build_tree() {
  local lib=$1 libdir=$2 d
  for d in "${DIR_LIST[@]}"; do
    log "building $lib $d"
    make -C "$OUT/tree/$lib/test/$d" -k -j"$JOBS" tests \
      LDFLAGS="-Wl,-rpath,$libdir" >"$OUT/logs/build-$lib-$d.log" 2>&1 ||
      log "  some of $lib $d failed to build (see $OUT/logs/build-$lib-$d.log)"
  done
}

# ------------------------------------------------------------- programs

programs_of() {
  # shellcheck disable=SC2016 # $(check_PROGRAMS) is make's
  printf 'print-progs:\n\t@echo $(check_PROGRAMS)\n' >"$OUT/tree/print-progs.mk"
  make -s --no-print-directory -C "$OUT/tree/pristine/test/$1" \
    -f Makefile -f "$OUT/tree/print-progs.mk" print-progs
}

variants_of() {
  case $1 in
    nc_test | nf_test | nf90_test) echo "$1 $1-2 $1-5" ;;
    *) echo "$1" ;;
  esac
}

# whether --only selects variant V of program P of directory D
selected() {
  local d=$1 p=$2 v=$3 pat pats
  [[ -z $ONLY ]] && return 0
  IFS=, read -r -a pats <<<"$ONLY"
  for pat in "${pats[@]}"; do
    # shellcheck disable=SC2053 # the patterns are globs
    [[ $p == $pat || $v == $pat || $d/$p == $pat || $d/$v == $pat ]] &&
      return 0
  done
  return 1
}

# arguments of variant V of program P of directory D; RUN: its output
# directory (usually its cwd), TDIR:
# the test directory (input files)
args_of() {
  local d=$1 p=$2 v=$3 run=$4 tdir=$5
  case $d/$p in
    */nc_test | */nf_test | */nf90_test)
      [[ $v == *-? ]] && printf '%s\n' "-${v##*-}"
      printf '%s\n' -d "$run" ;;
    */tst_version) ;;
    */mcoll_perf) echo "$run/testfile" ;;
    */test_inq_format | */tst_corrupt) echo "$tdir" ;;
    */tst_open_cdf5) echo "$tdir/bad_begin.nc5" ;;
    F90/tst_io) echo "$run" ;;
    subfile/test_subfile) printf '%s\n' -f "$run/$p.nc" -s 2 ;;
    C/pres_temp_4D_rd) echo "$run/pres_temp_4D.nc" ;;
    *) echo "$run/$p.nc" ;;
  esac
}

# the working directory of a run: nf_test and nf90_test open some of their
# own source files by relative name to check the error for a non-netCDF
# file, so they run in their test directory (their output goes to -d RUN)
cwd_of() {
  case $1 in
    nf_test | nf90_test) echo "$2" ;;
    *) echo "$3" ;;
  esac
}

# a program that reads what another wrote: the writer, run first
setup_of() {
  case $1/$2 in
    C/pres_temp_4D_rd) echo pres_temp_4D_wr ;;
  esac
}

# ----------------------------------------------------------------- runs

# mpi_run LIB NP PROG ARGS...
mpi_run() {
  local np=$2 envs=()
  [[ $1 == ncpario ]] && envs=("${NCP_ENV[@]}")
  shift 2
  env "${envs[@]}" timeout -k 15 "$TIMEOUT" mpirun -np "$np" --oversubscribe \
    --mca io romio321 "$@" </dev/null
}

# run variant V with library LIB at NP ranks in D/P's run directory RDIR;
# writes LIB.log and LIB.status there
run_one() {
  local lib=$1 np=$2 d=$3 p=$4 v=$5 rdir=$6
  local tdir=$OUT/tree/$lib/test/$d run=$rdir/$lib rc t0 s pre cwd
  local -a args
  rm -rf "$run" && mkdir -p "$run"
  if [[ ! -x $tdir/$p ]]; then
    echo "$tdir/$p was not built" >"$rdir/$lib.log"
    echo build-fail >"$rdir/$lib.status"
    return
  fi
  mapfile -t args < <(args_of "$d" "$p" "$v" "$run" "$tdir")
  cwd=$(cwd_of "$p" "$tdir" "$run")
  t0=$SECONDS
  {
    pre=$(setup_of "$d" "$p")
    if [[ -n $pre ]]; then
      echo "## setup: $pre"
      (cd "$cwd" && mpi_run "$lib" "$np" "$tdir/$pre" "${args[@]}")
      echo "## setup done: $?"
    fi
    [[ $lib == ncpario && ${#NCP_ENV[@]} -gt 0 ]] && echo "## env: ${NCP_ENV[*]}"
    echo "## $lib np=$np: $p ${args[*]} (in $cwd)"
    (cd "$cwd" && mpi_run "$lib" "$np" "$tdir/$p" "${args[@]}")
  } >"$rdir/$lib.log" 2>&1
  rc=$?
  s=$(classify "$rc" "$rdir/$lib.log")
  echo "## exit $rc, $((SECONDS - t0)) s: $s" >>"$rdir/$lib.log"
  echo "$s" >"$rdir/$lib.status"
}

classify() {
  case $1 in
    124 | 137) echo timeout ;;
    0) if grep -qE 'fail(ed)? with [0-9]+ mismatch' "$2"; then
         echo 'fail(0)'
       else
         echo pass
       fi ;;
    *) echo "fail($1)" ;;
  esac
}

is_netcdf() { [[ $(head -c 3 "$1" 2>/dev/null) == CDF ]]; }

# compare the files both libraries wrote; prints the cmp column
compare_files() {
  local rdir=$1 f n=0 diff=0 missing=0 equal=0
  : >"$rdir/cmp.log"
  while IFS= read -r f; do
    n=$((n + 1))
    if [[ ! -f $rdir/ncpario/$f ]]; then
      missing=$((missing + 1))
      echo "MISSING $f: written by ref, not by ncpario" >>"$rdir/cmp.log"
    elif ! bytes_diff "$rdir/ref/$f" "$rdir/ncpario/$f" >"$rdir/cmp.tmp"; then
      diff=$((diff + 1))
      describe_diff "$rdir" "$f" >>"$rdir/cmp.log" && equal=$((equal + 1))
    fi
  done < <(cd "$rdir/ref" && find . -type f -printf '%P\n' | sort)
  rm -f "$rdir/cmp.tmp"
  if ((n == 0)); then echo none
  elif ((diff + missing == 0)); then echo same
  else
    local s="differ:$diff"
    ((equal)) && s+="(ncmpidiff-equal:$equal)"
    ((missing)) && s+=",missing:$missing"
    echo "$s"
  fi
}

# bytes_diff A B: true when the files hold the same bytes; otherwise prints
# the first differing offsets (from 0) and their count. Only the extents
# holding data in either file are read (SEEK_DATA): largefile/ writes sparse
# files of hundreds of GB, which cmp would read whole.
bytes_diff() {
  python3 - "$1" "$2" <<'EOF'
import os, sys

def extents(f, size):
    if not hasattr(os, "SEEK_DATA"):
        return [(0, size)]
    out, off = [], 0
    while off < size:
        try:
            start = os.lseek(f.fileno(), off, os.SEEK_DATA)
        except OSError:
            break
        off = os.lseek(f.fileno(), start, os.SEEK_HOLE)
        out.append((start, min(off, size)))
    return out

def merged(a, b):
    out = []
    for s, e in sorted(a + b):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out

def differences(fa, fb, n):
    for s, e in merged(extents(fa, n), extents(fb, n)):
        for off in range(s, e, 1 << 22):
            fa.seek(off)
            fb.seek(off)
            x, y = fa.read(min(1 << 22, e - off)), fb.read(min(1 << 22, e - off))
            if x == y:
                continue
            for i in range(0, len(x), 4096):
                if x[i:i + 4096] != y[i:i + 4096]:
                    for j in range(i, min(i + 4096, len(x))):
                        if x[j] != y[j]:
                            yield off + j, x[j], y[j]

sa, sb = (os.path.getsize(p) for p in sys.argv[1:3])
count = 0
with open(sys.argv[1], "rb") as fa, open(sys.argv[2], "rb") as fb:
    for off, p, q in differences(fa, fb, min(sa, sb)):
        if count < 8:
            print(f"  byte {off}: ref 0x{p:02x} ncpario 0x{q:02x}")
        count += 1
if sa != sb:
    print(f"  sizes differ: ref {sa} ncpario {sb}")
if count:
    print(f"  {count} bytes differ in the first {min(sa, sb)}")
sys.exit(1 if count or sa != sb else 0)
EOF
}

# what differs in file F of run RDIR (bytes_diff's lines in cmp.tmp); true
# when ncmpidiff finds the headers and variables equal
describe_diff() {
  local ref=$1/ref/$2 ncp=$1/ncpario/$2
  echo "DIFFER $2: sizes $(stat -c %s "$ref") (ref) $(stat -c %s "$ncp") (ncpario)"
  cat "$1/cmp.tmp"
  is_netcdf "$ref" && is_netcdf "$ncp" || return 1
  if (($(stat -c %s "$ref") > 1 << 30)); then
    echo "  (no ncmpidiff: over 1 GiB)"
    return 1
  fi
  if timeout 300 ncmpidiff -q "$ref" "$ncp" >/dev/null 2>&1; then
    echo "  ncmpidiff: header and variables equal"
  else
    echo "  ncmpidiff:"
    timeout 300 ncmpidiff "$ref" "$ncp" 2>&1 | head -n 6 | cut -c 1-300 | sed 's/^/    /'
    return 1
  fi
}

# ncvalidator on ncpario's files; prints the validate column
validate_files() {
  local rdir=$1 f n=0 bad=0 refbad=0
  : >"$rdir/validate.log"
  while IFS= read -r f; do
    is_netcdf "$rdir/ncpario/$f" || continue
    n=$((n + 1))
    if ! ncvalidator "$rdir/ncpario/$f" >"$rdir/validate.tmp" 2>&1; then
      bad=$((bad + 1))
      { echo "INVALID ncpario/$f"; sed 's/^/  /' "$rdir/validate.tmp"; } >>"$rdir/validate.log"
      [[ -f $rdir/ref/$f ]] && ! ncvalidator -q "$rdir/ref/$f" >/dev/null 2>&1 &&
        refbad=$((refbad + 1))
    fi
  done < <(cd "$rdir/ncpario" && find . -type f -printf '%P\n' | sort)
  rm -f "$rdir/validate.tmp"
  if ((n == 0)); then echo none
  elif ((bad == 0)); then echo ok
  elif ((refbad)); then echo "invalid:$bad(ref-too:$refbad)"
  else echo "invalid:$bad"
  fi
}

# one program variant at NP ranks with both libraries: prints and stores
# its result line
run_pair() {
  local np=$1 d=$2 p=$3 v=$4 rdir=$OUT/runs/np$1/$2/$4 ref ncp c="-" val
  mkdir -p "$rdir"
  if ((NCPARIO_ONLY == 0)) || [[ ! -f $rdir/ref.status ]] ||
     grep -qs '^ref/' "$rdir/removed.log"; then
    rm -f "$rdir/removed.log"
    run_one ref "$np" "$d" "$p" "$v" "$rdir"
  fi
  [[ -f $rdir/removed.log ]] && sed -i '/^ncpario\//d' "$rdir/removed.log"
  run_one ncpario "$np" "$d" "$p" "$v" "$rdir"
  ref=$(<"$rdir/ref.status") ncp=$(<"$rdir/ncpario.status")
  [[ $ref == pass && $ncp == pass ]] && c=$(compare_files "$rdir")
  val=$(validate_files "$rdir")
  local used=${NCP_ENV[*]:--}
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$np" "$d/$v" "$ref" "$ncp" "$c" "$val" \
    "${used// /,}" >"$rdir/result"
  ((KEEP_LARGE)) || remove_large "$rdir"
  printf 'np%-2s %-32s ref=%-10s ncpario=%-10s cmp=%-14s validate=%s\n' \
    "$np" "$d/$v" "$ref" "$ncp" "$c" "$val"
}

# output files over 1 GiB of a compared run (largefile/ writes several)
remove_large() {
  local rdir=$1 f
  while IFS= read -r f; do
    echo "$f $(stat -c %s "$rdir/$f") bytes, removed after comparison" >>"$rdir/removed.log"
    rm -f "$rdir/$f"
  done < <(cd "$rdir" && find ref ncpario -type f -size +1G 2>/dev/null)
}

run_all() {
  local d p v np
  for d in "${DIR_LIST[@]}"; do
    for p in $(programs_of "$d"); do
      for v in $(variants_of "$p"); do
        selected "$d" "$p" "$v" || continue
        for np in "${RANK_LIST[@]}"; do
          run_pair "$np" "$d" "$p" "$v"
        done
      done
    done
  done
}

# --------------------------------------------------------------- report

# first line of a log that looks like the error
first_error() {
  local body
  body=$(grep -v '^##' "$1")
  { grep -m 1 -iE 'error|expect|abort|signal|assert|not built|NetCDF:|NC_E' <<<"$body" ||
      grep -m 1 -i 'fail' <<<"$body" || head -n 1 <<<"$body"; } |
    sed 's/^\*\*\* TESTING.*------ *//'
}

# results.tsv (an env column added where a row lacks it: results of an
# older version of this script) with a category appended, in increasing order of
# severity: ok; bytes (only bytes that ncmpidiff does not compare differ:
# padding, never-written bytes); invalid (ncvalidator rejects a file of
# ncpario's, not the reference's); differs (the files' contents differ or
# ncpario did not write one); fails (the reference passes, ncpario does not)
categorize() {
  awk -F'\t' -v OFS='\t' '
    function bytes_only(c, a) {
      return c ~ /^differ:[0-9]+\(ncmpidiff-equal:[0-9]+\)$/ &&
             split(c, a, /[:()]/) >= 4 && a[2] == a[4]
    }
    { cat = "ok"; if (NF < 7) $7 = "-" }
    $5 ~ /^differ/ && bytes_only($5) { cat = "bytes" }
    $6 ~ /^invalid/ && $6 !~ /ref-too/ { cat = "invalid" }
    $5 ~ /^differ/ && !bytes_only($5) { cat = "differs" }
    $3 == "pass" && $4 != "pass" { cat = "fails" }
    { print $0, cat }' "$1"
}

# what to show of a run of category CAT in run directory RDIR
detail_of() {
  local rdir=$1 cat=$2
  case $cat in
    fails) first_error "$rdir/ncpario.log" ;;
    differs | bytes)
      grep -m 1 -E '^(DIFFER|MISSING)' "$rdir/cmp.log" | sed 's|^DIFFER [^:]*: ||'
      grep -m 1 'DIFF:' "$rdir/cmp.log" ;;
    invalid) grep -m 1 -A 2 '^INVALID' "$rdir/validate.log" ;;
  esac | tr '\n\t' '  '
}

md_cell() { printf '%s' "${1:0:200}" | tr '|`' '/'"'"; }

# the table of the rows of category CAT in the categorized results CTSV
category_table() {
  local ctsv=$1 cat=$2 title=$3 np dv ref ncp c val
  echo "## $title"
  echo
  echo "| ranks | program | ref | ncpario | cmp | validate | ncpario env | detail |"
  echo "|---|---|---|---|---|---|---|---|"
  awk -F'\t' -v c="$cat" '$8 == c' "$ctsv" |
    while IFS=$'\t' read -r np dv ref ncp c val env _; do
      echo "| $np | $dv | $ref | $ncp | $c | $val | $env | $(md_cell "$(detail_of "$OUT/runs/np$np/$dv" "$cat")") |"
    done
  echo
}

summary_counts() {
  awk -F'\t' '
    { n++; cat[$8]++ }
    $3 == "pass" && $4 == "pass" { both++ }
    $3 != "pass" && $4 == "pass" { better++ }
    $3 != "pass" && $4 != "pass" { neither++ }
    END {
      print "| runs | both pass | only ref passes | only ncpario passes | neither | contents differ | only bytes differ | ncpario file invalid |"
      print "|---|---|---|---|---|---|---|---|"
      printf "| %d | %d | %d | %d | %d | %d | %d | %d |\n", n, both, cat["fails"],
             better, neither, cat["differs"], cat["bytes"], cat["invalid"]
    }' "$1"
}

write_summary() {
  local tsv=$OUT/results.tsv ctsv=$OUT/results-categorized.tsv
  find "$OUT/runs" -name result -exec cat {} + 2>/dev/null |
    sort -t$'\t' -k2,2 -k1,1n >"$tsv"
  categorize "$tsv" >"$ctsv"
  {
    echo "# PnetCDF test suite: ncpario vs reference"
    echo
    echo "- source: $SRC"
    echo "- ncpario: $NCP_PREFIX ($NCP_LIBDIR)"
    echo "- reference: $REF_LIBDIR/libpnetcdf.so"
    echo "- written: $(date -u '+%Y-%m-%d %H:%M UTC'); $(wc -l <"$tsv") runs"
    echo
    summary_counts "$ctsv"
    echo
    category_table "$ctsv" fails "The reference passes, ncpario does not"
    category_table "$ctsv" differs "Both pass, the files' contents differ"
    category_table "$ctsv" invalid "ncvalidator rejects a file of ncpario's"
    category_table "$ctsv" bytes "Both pass, bytes differ that ncmpidiff does not compare (padding, never-written bytes)"
    echo "## Every run"
    echo
    echo "| ranks | program | ref | ncpario | cmp | validate | ncpario env | category |"
    echo "|---|---|---|---|---|---|---|---|"
    sed 's/\t/ | /g; s/^/| /; s/$/ |/' "$ctsv"
  } >"$OUT/summary.md"
}

# ----------------------------------------------------------------- main

main() {
  parse_args "$@"
  need_tools
  IFS=, read -r -a DIR_LIST <<<"$DIRS"
  IFS=, read -r -a RANK_LIST <<<"$RANKS"
  locate_library NCP "$NCP_PREFIX"
  locate_library REF "$REF_PREFIX"
  log "ncpario: $NCP_H $NCP_LIBDIR; reference: $REF_H $REF_LIBDIR"
  export PNETCDF_SAFE_MODE=0 OMPI_ALLOW_RUN_AS_ROOT=1 \
    OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1
  if ((REPORT_ONLY == 0)); then
    configure_pristine
    prepare_tree ref REF
    prepare_tree ncpario NCP
    if ((NO_BUILD == 0)); then
      build_tree ref "$REF_LIBDIR"
      build_tree ncpario "$NCP_LIBDIR"
    fi
    run_all
  fi
  write_summary
  log "summary: $OUT/summary.md"
  ! awk -F'\t' '$8 == "fails" || $8 == "differs" || $8 == "invalid" { bad = 1 }
                END { exit !bad }' "$OUT/results-categorized.tsv"
}

main "$@"
