#!/usr/bin/env python3
"""Tests of the ncpario command, one subcommand per run:

    test_tools.py {dump|validate|offsets|diff|hints} --ncpario EXE
        --writer EXE --fixtures DIR --work DIR

Good files are the ncgen fixtures and files write_sample writes through
the library; hostile ones come from hostile.py.  Output is held against
netCDF's ncdump and PnetCDF's ncvalidator, ncoffsets and ncmpidiff where
they are installed, and checked for content and exit status.  dump and diff
also run under mpirun at 2 ranks.  Exits 1 on any failure.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hostile  # noqa: E402

FAILS = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILS.append(what)


def run(cmd, env=None):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run(cmd, capture_output=True, text=True, env=e,
                       timeout=240, errors="replace")
    return p.returncode, p.stdout, p.stderr


def mpirun(np, cmd, env=None):
    return run(["mpirun", "--oversubscribe", "-np", str(np)] + cmd, env)


class Ctx:
    def __init__(self, a):
        self.tool, self.writer = a.ncpario, a.writer
        self.fix = sorted(glob.glob(os.path.join(a.fixtures, "*.nc")))
        self.work = a.work
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work)
        self.hostile = os.path.join(self.work, "hostile")
        os.makedirs(self.hostile)
        for name, data in hostile.corpus().items():
            with open(os.path.join(self.hostile, name), "wb") as f:
                f.write(data)
        if not self.fix:
            sys.exit("no fixtures in " + a.fixtures)

    def nc(self, *args, np=1, env=None):
        if np == 1:
            return run([self.tool] + list(args), env)
        return mpirun(np, [self.tool] + list(args), env)

    def sample(self, name, delta=None, np=2, rec=1):
        path = os.path.join(self.work, name)
        cmd = [self.writer, path] + ([repr(delta), str(rec)]
                                     if delta is not None else [])
        rc, out, err = mpirun(np, cmd)
        if rc != 0:
            sys.exit("write_sample failed: " + out + err)
        return path

    def fixture(self, stem):
        return [f for f in self.fix if os.path.basename(f).startswith(stem)][0]

    def bad(self, name):
        return os.path.join(self.hostile, name)


def common_usage(c, cmd):
    rc, out, _ = c.nc(cmd, "--help")
    check(rc == 0 and out.startswith("usage: ncpario " + cmd),
          cmd + " --help: usage on stdout, exit 0")
    rc, _, err = c.nc(cmd, "--no-such-option", c.fix[0])
    check(rc == 2 and "ncpario " + cmd in err, cmd + ": bad option exits 2")


def test_dump(c):
    common_usage(c, "dump")
    have = shutil.which("ncdump")
    sample = c.sample("sample.nc")
    for f in c.fix + [sample]:
        rc, out, _ = c.nc("dump", "-h", f)
        check(rc == 0, "dump -h %s exits 0" % f)
        if have:
            _, ref, _ = run(["ncdump", "-h", f])
            check(out == ref, "dump -h %s is byte-identical to ncdump -h" % f)
    for np in (1, 2):
        for f in [c.fixture("data_classic.cdf1"), c.fixture("data_cdf5"),
                  sample]:
            rc, out, _ = c.nc("dump", f, np=np)
            if have:
                _, ref, _ = run(["ncdump", f])
                check(rc == 0 and out == ref,
                      "dump %s at %d ranks equals ncdump" % (f, np))
    # ncdump's corners: an empty attribute of a numeric type prints as "",
    # and the last value of a line may end on column 77
    w = hostile.Writer(1, 0)
    w.gatts = [("empty", 4, b"", 0)]
    corner = os.path.join(c.work, "corner.nc")
    with open(corner, "wb") as fh:
        fh.write(w.build())
    rc, out, _ = c.nc("dump", "-h", corner)
    check(rc == 0 and '\t\t:empty = "" ;\n' in out,
          "dump: an empty int attribute prints as \"\"")
    if shutil.which("ncgen") and have:
        cdl = os.path.join(c.work, "wrap.cdl")
        with open(cdl, "w") as fh:
            fh.write("netcdf wrap {\ndimensions:\n n = 7 ;\n m = 8 ;\n"
                     "variables:\n int w(n) ;\n int x(m) ;\ndata:\n"
                     " w = 1000000000, 1000000000, 1000000000, 1000000000,"
                     " 1000000000, 12345678, -1 ;\n"
                     " x = 1000000000, 1000000000, 1000000000, 1000000000,"
                     " 1000000000, 12345678, -1, 2 ;\n}\n")
        wrap = os.path.join(c.work, "wrap.nc")
        run(["ncgen", "-b", "-o", wrap, cdl])
        rc, out, _ = c.nc("dump", wrap)
        _, ref, _ = run(["ncdump", wrap])
        check(rc == 0 and out == ref and " 12345678, -1 ;\n" in out,
              "dump: lines wrap where ncdump wraps them")
    f = c.fixture("data_classic.cdf1")
    want = (" rf[1:2,0:2,1:3] =\n  16, 17, 18,\n  21, 22, 23,\n"
            "  0.5, NaNf, _,\n  3, 4, 5 ;\n")
    for np in (1, 2):
        rc, out, _ = c.nc("dump", "-v", "rf[1:2,0:2,1:3],ri", f, np=np)
        check(rc == 0 and want in out and " ri = 10, -20, 2147483647, _ ;"
              in out and " rd =" not in out,
              "dump -v with a subarray at %d ranks" % np)
    rc, out2, _ = c.nc("dump", "-v", "rf", "--start", "1,0,1", "--count",
                       "2,2,3", f)
    check(rc == 0 and want.replace("rf[1:2,0:2,1:3]", "rf[1:2,0:2,1:3]")
          in out2, "dump --start/--count selects the same subarray")
    for args, code, what in [
            (["-v", "nope", f], 2, "unknown variable"),
            (["-v", "rf[9:1,0:1,0:1]", f], 2, "subarray outside the shape"),
            (["-v", "rf[0:1]", f], 2, "subarray of the wrong rank"),
            ([], 2, "no file"),
            ([os.path.join(c.work, "missing.nc")], 3, "missing file"),
            ([c.bad("bad_magic.nc")], 3, "not netCDF")]:
        rc, _, _ = c.nc("dump", *args)
        check(rc == code, "dump, %s: exit %d (got %d)" % (what, code, rc))
    # a header claiming 2^31 - 1 records of a file holding 2: the records
    # there are printed, then dump says so and exits 1, at once
    claims = c.bad("bad_numrecs_claims.nc")
    for np in (1, 2):
        rc, out, err = c.nc("dump", claims, np=np)
        rows = [l for l in out.splitlines() if l.startswith(" r =")]
        check(rc == 1 and out.endswith("}\n") and len(out) < 4096 and
              "the file holds 2 whole" in err,
              "dump of a file claiming more records than it holds, at %d "
              "ranks: exit 1 (got %d), %d bytes, %r" % (np, rc, len(out),
                                                        err.strip()))
        check(len(rows) == 1, "dump prints the record variable once")


# Where validate must blame each hostile file: (exit, text in its line).
EXPECT = {
    "bad_magic.nc": "magic at byte 0 ",
    "bad_version.nc": "format version at byte 3 ",
    "bad_empty_file.nc": "magic at byte 0 ",
    "bad_short_magic.nc": "magic at byte 0 ",
    "bad_truncated_header.nc": "NC_ENOTNC",
    "bad_short_data.nc": "file is 308 bytes, the header promises 348",
    "warn_short_record.nc": "warning: the last record is 5 bytes short",
    "warn_past_records.nc": "warning: 24 bytes past the last record",
    "bad_numrecs_claims.nc": "(2147483647 records)",
    "bad_name_control.nc": "dimension name (dimension 1) at byte 28 ",
    "bad_name_duplicate.nc": "dimension name (dimension 2) at byte 40 ",
    "bad_dimid.nc": "variable dimension id (variable 1) at byte 172 ",
    "bad_type.nc": "variable type (variable 0) at byte 124 ",
    "bad_huge_dim_count.nc": "dimension list at byte 8 ",
    "bad_huge_att_len.nc": "attribute length (global attribute 0) at byte 76",
    "bad_overlap.nc": "variable begin: overlaps the header or the variable "
                      "before it (variable 1) at byte 192 ",
    "bad_inside_header.nc": "overlaps the header or the variable before it "
                            "(variable 0) at byte 156 ",
    "bad_streaming_numrecs.nc": "numrecs at byte 4 ",
    "bad_padding.nc": "NC_ENULLPAD",
    "bad_two_unlimited.nc": "NC_EUNLIMIT",
    "bad_unlimited_not_first.nc": "NC_EUNLIMPOS",
}
# ncvalidator 1.12.3 accepts these; ncpario refuses them on purpose, as
# its library does at open: a control character in a name, and two
# dimensions of one name.  It refuses the warn_* files, which ncpario,
# PnetCDF and netCDF all open and read: a writer stopped midway leaves
# them (ncpario warns, and `ncpario recover` tidies them).
NCVALIDATOR_ACCEPTS = {"bad_name_control.nc", "bad_name_duplicate.nc"}


def test_validate(c):
    common_usage(c, "validate")
    have = shutil.which("ncvalidator")
    sample = c.sample("sample.nc")
    rc, out, _ = c.nc("validate", *c.fix, sample)
    check(rc == 0 and out.count(": valid CDF-") == len(c.fix) + 1,
          "validate: every fixture and written file is valid")
    names = sorted(os.listdir(c.hostile))
    check(set(EXPECT) <= set(names), "the corpus has every expected file")
    for name in names:
        f = c.bad(name)
        rc, out, _ = c.nc("validate", f)
        good = name.startswith(("good_", "warn_"))
        check(("warning:" in out) == name.startswith("warn_"),
              "validate %s warns iff it is a warn_ file" % name)
        check(rc == (0 if good else 1),
              "validate %s exits %d (got %d: %s)" % (name, 0 if good else 1,
                                                    rc, out.strip()))
        if name in EXPECT:
            check(EXPECT[name] in out, "validate %s names '%s'" %
                  (name, EXPECT[name]))
        if have:
            vrc, vout, verr = run(["ncvalidator", f])
            vgood = vrc == 0 and "Warning" not in vout + verr
            if name in NCVALIDATOR_ACCEPTS:
                check(vgood and not good, "%s: ncvalidator accepts, we refuse"
                      % name)
            elif name.startswith("warn_"):
                check(not vgood, "%s: ncvalidator refuses, we warn" % name)
            else:
                check(vgood == good, "%s: same verdict as ncvalidator" % name)
    rc, out, _ = c.nc("validate", "-q", c.bad("bad_magic.nc"))
    check(rc == 1 and out == "", "validate -q: silent, exit 1")
    rc, _, _ = c.nc("validate", os.path.join(c.work, "missing.nc"))
    check(rc == 3, "validate: missing file exits 3")
    rc, _, _ = c.nc("validate")
    check(rc == 2, "validate: no file exits 2")
    rc, out, _ = c.nc("validate", c.fix[0], c.bad("bad_magic.nc"), np=2)
    check(rc == 1 and out.count("\n") == 2, "validate at 2 ranks: rank 0 "
          "prints each file once, all exit 1")


def ncoffsets_begins(path):
    """{var: (begin, end of record 0)} from PnetCDF's ncoffsets."""
    rc, out, _ = run(["ncoffsets", path])
    got, var = {}, None
    for line in out.splitlines():
        m = re.match(r"\s+\w+\s+([^(:\s]+)[(:]", line)
        if m and "offset" not in line:
            var = m.group(1)
        m = re.search(r"(start|end)\s+file offset =\s+(\d+)", line)
        if m and var:
            b, e = got.get(var, (None, None))
            got[var] = (int(m.group(2)), e) if m.group(1) == "start" \
                else (b, int(m.group(2)))
    return got


def test_offsets(c):
    common_usage(c, "offsets")
    sample = c.sample("sample.nc")
    for f in [c.fixture("data_classic.cdf1"), c.fixture("data_cdf5"), sample]:
        rc, out, _ = c.nc("offsets", f)
        check(rc == 0, "offsets %s exits 0" % f)
        mine = {}
        for m in re.finditer(r"^\w+ (\S+?)(?:\(.*\))?: \w+, begin (\d+), "
                             r"size \d+(?: per record)?(?:, stride \d+)?, "
                             r"end (\d+)", out, re.M):
            mine[m.group(1)] = (int(m.group(2)), int(m.group(3)))
        if shutil.which("ncoffsets"):
            ref = ncoffsets_begins(f)
            check(ref and mine == ref,
                  "offsets %s: begins and ends as ncoffsets" % f)
            if f == sample:
                _, ro, _ = run(["ncoffsets", f])
                size = int(re.search(r"size\s+=\s+(\d+)", ro).group(1))
                ext = int(re.search(r"extent\s+=\s+(\d+)", ro).group(1))
                check("header: size %d, extent %d, free %d" %
                      (size, ext, ext - size) in out and ext - size >= 200,
                      "offsets: the header's free room as ncoffsets has it")
    f = c.fixture("data_classic.cdf1")
    rc, out, _ = c.nc("offsets", "-v", "rf[1:2,0:2,1:3]", f)
    check(rc == 0 and out.endswith("  1808 12\n  1828 12\n  1916 12\n"
                                   "  1936 12\n4 extents, 48 bytes\n"),
          "offsets: the extents of a record subarray")
    rc, out2, _ = c.nc("offsets", "-v", "rf", "--start", "1,0,1",
                       "--count", "2,2,3", f)
    check(out2 == out, "offsets: --start/--count as VAR[s:c]")
    rc, out, _ = c.nc("offsets", "-v", "ri[1:3]", f)
    check(out.endswith("  1800 4\n  1908 4\n  2016 4\n3 extents, 12 bytes\n"),
          "offsets: a 1-D record variable's elements are a record apart")
    rc, out, _ = c.nc("offsets", "-v", "d[0:3,0:5]", f)
    check(out.endswith("  1524 120\n1 extents, 120 bytes\n"),
          "offsets: a whole fixed variable is one extent")
    for args, code, what in [
            (["-v", "nope", f], 2, "unknown variable"),
            (["-v", "d[0:4,0:5]", f], 2, "subarray outside the shape"),
            (["--start", "1", f], 2, "--start without -v"),
            ([c.bad("bad_overlap.nc")], 3, "hostile file"),
            ([os.path.join(c.work, "missing.nc")], 3, "missing file")]:
        rc, _, _ = c.nc("offsets", *args)
        check(rc == code, "offsets, %s: exit %d (got %d)" % (what, code, rc))


def test_diff(c):
    common_usage(c, "diff")
    a = c.sample("a.nc")
    same = c.sample("same.nc", np=1)
    b = c.sample("b.nc", 0.25)
    tiny = c.sample("tiny.nc", 1e-9)
    late = c.sample("late.nc", -1.0, rec=2)
    have = shutil.which("ncmpidiff")
    for np in (1, 2):
        rc, out, _ = c.nc("diff", a, same, np=np)
        check(rc == 0 and out == "files are identical\n",
              "diff identical files at %d ranks: exit 0" % np)
        rc, out, _ = c.nc("diff", a, b, np=np)
        check(rc == 1 and out == "DIFFER: variable 'temp': 1 of 72 elements "
              "differ, first at [1, 2, 3]: 123.5 vs 123.75\n",
              "diff at %d ranks: the first differing element (%s)" %
              (np, out.strip()))
        # at 2 ranks rank 1 reads the last record: its find goes to rank 0
        rc, out, _ = c.nc("diff", a, late, np=np)
        check(rc == 1 and "first at [2, 2, 3]: 223.5 vs 222.5\n" in out,
              "diff at %d ranks: a difference in the last record (%s)" %
              (np, out.strip()))
        rc, out, _ = c.nc("diff", "--atol", "0.3", a, b, np=np)
        check(rc == 0, "diff --atol within the tolerance at %d ranks" % np)
        rc, _, _ = c.nc("diff", "--rtol", "1e-6", a, tiny, np=np)
        check(rc == 0, "diff --rtol within the tolerance at %d ranks" % np)
        rc, _, _ = c.nc("diff", "--rtol", "1e-14", a, tiny, np=np)
        check(rc == 1, "diff --rtol beyond the tolerance at %d ranks" % np)
    rc, out, _ = c.nc("diff", "-v", "count", a, b)
    check(rc == 0, "diff -v: only the named variable's data")
    rc, out, _ = c.nc("diff", "-q", a, b)
    check(rc == 1 and out == "", "diff -q: silent, exit 1")
    f1, f2 = c.fixture("data_classic.cdf1"), c.fixture("hdr_classic.cdf1")
    rc, out, _ = c.nc("diff", "-h", f1, f2)
    check(rc == 1 and "DIFFER: dimension 'time': length 4 vs 2" in out and
          "variable 'sc_b' only in the first file" in out,
          "diff -h: header differences")
    rc, out, _ = c.nc("diff", f1, c.fixture("data_classic.cdf2"))
    check(rc == 1 and out == "DIFFER: format: CDF-1 vs CDF-2\n",
          "diff: CDF-1 and CDF-2 copies differ in format alone (NaN "
          "equals NaN)")
    if have:
        for x, y in [(a, same), (a, b), (f1, f2)]:
            rrc, _, _ = run(["ncmpidiff", x, y])
            rc, _, _ = c.nc("diff", x, y)
            check(rc == rrc, "diff %s %s: ncmpidiff's verdict" %
                  (os.path.basename(x), os.path.basename(y)))
    for args, code, what in [
            ([a], 2, "one file"),
            (["--atol", "x", a, b], 2, "bad tolerance"),
            ([a, os.path.join(c.work, "missing.nc")], 3, "missing file")]:
        rc, _, _ = c.nc("diff", *args)
        check(rc == code, "diff, %s: exit %d (got %d)" % (what, code, rc))


def keys_of(out):
    return [line.split(" = ", 1)[0] for line in out.splitlines()]


def test_hints(c):
    common_usage(c, "hints")
    rc, out, _ = c.nc("hints")
    keys = keys_of(out)
    check(rc == 0 and keys == sorted(keys), "hints: keys printed sorted")
    for k in ("nc_header_align_size", "nc_var_align_size",
              "nc_record_align_size", "nc_header_read_chunk_size"):
        check(k in keys, "hints reports " + k)
    rc, out, _ = c.nc("hints", "--hint", "nc_header_align_size=1024",
                      "--hint", "nc_in_place_swap=disable")
    check(rc == 0 and "nc_header_align_size = 1024\n" in out and
          "nc_in_place_swap = disable\n" in out, "hints: --hint is in effect")
    rc, out, _ = c.nc("hints", env={"PNETCDF_HINTS": "nc_var_align_size=512"})
    check(rc == 0 and "nc_var_align_size = 512\n" in out,
          "hints: PNETCDF_HINTS is in effect")
    rc, out, _ = c.nc("hints", c.fix[0], np=2)
    check(rc == 0 and "nc_header_align_size = " in out and
          out.count("nc_var_align_size") == 1,
          "hints on an existing file at 2 ranks: printed once")
    for args, code, what in [
            (["--hint", "novalue"], 2, "a hint without '='"),
            ([os.path.join(c.work, "missing.nc")], 3, "missing file")]:
        rc, _, _ = c.nc("hints", *args)
        check(rc == code, "hints, %s: exit %d (got %d)" % (what, code, rc))


def test_recover(c):
    common_usage(c, "recover")
    # bytes past the last record are cut, and validate then has no warning
    f = os.path.join(c.work, "past.nc")
    shutil.copyfile(c.bad("warn_past_records.nc"), f)
    rc, out, _ = c.nc("recover", f)
    check(rc == 0 and "cut 24 bytes past the last of its 2 records" in out,
          "recover cuts what lies past the records (%d: %s)" % (rc, out))
    rc, out, _ = c.nc("validate", f)
    check(rc == 0 and "warning" not in out, "recovered file: no warning")
    check(os.path.getsize(f) == os.path.getsize(c.bad("good_sample_cdf1.nc")),
          "recovered file has the good sample's size")
    rc, out, _ = c.nc("recover", f, np=2)
    check(rc == 0 and "whole: nothing past its records" in out,
          "recover of a whole file changes nothing, at 2 ranks")
    # a short last record is not guessed at; an invalid file is left alone
    f = os.path.join(c.work, "short.nc")
    shutil.copyfile(c.bad("warn_short_record.nc"), f)
    size = os.path.getsize(f)
    rc, out, _ = c.nc("recover", f)
    check(rc == 0 and os.path.getsize(f) == size,
          "recover leaves a short last record as it is")
    rc, out, _ = c.nc("recover", c.bad("bad_magic.nc"))
    check(rc == 1 and "invalid" in out, "recover of an invalid file: exit 1")
    # an unsealed journal (made before a file was touched) goes
    f = os.path.join(c.work, "journal.nc")
    shutil.copyfile(c.bad("good_sample_cdf1.nc"), f)
    with open(f + "-ncjournal", "wb") as j:
        j.write(b"\0" * 100)
    rc, out, _ = c.nc("validate", f)
    check(rc == 0 and "unsealed journal" in out, "validate names the journal")
    rc, out, _ = c.nc("recover", f)
    check(rc == 0 and not os.path.exists(f + "-ncjournal"),
          "recover removes an unsealed journal")
    rc, _, _ = c.nc("recover", os.path.join(c.work, "missing.nc"))
    check(rc == 3, "recover: missing file exits 3")


def test_run(c):
    rc, out, _ = c.nc("run", "--help")
    check(rc == 0 and out.startswith("usage: ncpario run"),
          "run --help: usage on stdout, exit 0")
    rc, out, _ = c.nc("run", "--print-dir")
    d = out.strip()
    lib = os.path.join(d, "libpnetcdf.so.0d")
    check(rc == 0 and os.path.isfile(lib) and
          os.readlink(os.path.join(d, "libpnetcdf.so.4")) ==
          "libpnetcdf.so.0d", "run --print-dir: the drop-in directory")
    rc, out, _ = run(["readelf", "-d", lib])
    check("[libpnetcdf.so.0d]" in out and "[libncpario.so.0]" in out,
          "libpnetcdf.so.0d: its SONAME, and libncpario a dependency")
    show = ["sh", "-c", 'echo "$LD_LIBRARY_PATH"']
    rc, out, _ = c.nc("run", "--", *show, env={"LD_LIBRARY_PATH": "/x:/y"})
    check(rc == 0 and out.strip() == d + ":/x:/y",
          "run puts the directory first, keeping the rest (%r)" % out)
    rc, out, _ = run(["mpirun", "--oversubscribe", "-np", "2", c.tool,
                      "run"] + show)
    check(rc == 0 and out.split() == [d, d], "run under mpirun, 2 ranks")
    rc, _, _ = c.nc("run", "sh", "-c", "exit 5")
    check(rc == 5, "run exits with the command's status")
    rc, _, err = c.nc("run")
    check(rc == 2 and "usage" in err, "run without a command exits 2")
    rc, _, err = c.nc("run", "--", os.path.join(c.work, "no-such-program"))
    check(rc == 127 and "no-such-program" in err,
          "run of a missing program exits 127")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("case", choices=["dump", "validate", "offsets", "diff",
                                     "hints", "recover", "run"])
    ap.add_argument("--ncpario", required=True)
    ap.add_argument("--writer", required=True)
    ap.add_argument("--fixtures", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    globals()["test_" + a.case](Ctx(a))
    print("%d failures" % len(FAILS))
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())
