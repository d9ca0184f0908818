#!/usr/bin/env python3
"""Write a corpus of hostile netCDF files (and a few good ones) for the
tests of `ncpario validate` and its fuzzer.

Every file is built from scratch by a small CDF-1/2/5 writer below, so each
defect sits at a known place.  Names: good_*.nc must be valid, bad_*.nc must
be refused.  Usage: hostile.py OUTDIR
"""
import os
import struct
import sys

NC_DIM, NC_VAR, NC_ATT = 0x0A, 0x0B, 0x0C
SIZES = {1: 1, 2: 1, 3: 2, 4: 4, 5: 4, 6: 8}


def pad4(b):
    return b + b"\0" * (-len(b) % 4)


class Writer:
    """A CDF header: dims [(name, len)], gatts [(name, type, raw bytes,
    nelems)], vars [(name, dimids, type, atts)]; begins are laid out
    contiguously after the header unless given."""

    def __init__(self, fmt=1, numrecs=0):
        self.fmt, self.numrecs = fmt, numrecs
        self.dims, self.gatts, self.vars = [], [], []

    def nn(self, v):
        return struct.pack(">Q" if self.fmt == 5 else ">I", v)

    def name(self, s):
        b = s.encode() if isinstance(s, str) else s
        return self.nn(len(b)) + pad4(b)

    def atts(self, atts):
        if not atts:
            return b"\0" * 4 + self.nn(0)
        out = struct.pack(">I", NC_ATT) + self.nn(len(atts))
        for n, t, raw, cnt in atts:
            out += self.name(n) + struct.pack(">I", t) + self.nn(cnt) + pad4(raw)
        return out

    def header(self, begins):
        out = b"CDF" + bytes([self.fmt])
        out += struct.pack(">Q" if self.fmt == 5 else ">I", self.numrecs)
        if self.dims:
            out += struct.pack(">I", NC_DIM) + self.nn(len(self.dims))
            for n, ln in self.dims:
                out += self.name(n) + self.nn(ln)
        else:
            out += b"\0" * 4 + self.nn(0)
        out += self.atts(self.gatts)
        if self.vars:
            out += struct.pack(">I", NC_VAR) + self.nn(len(self.vars))
            for (n, dimids, t, atts), b in zip(self.vars, begins):
                out += self.name(n) + self.nn(len(dimids))
                for d in dimids:
                    out += self.nn(d)
                out += self.atts(atts) + struct.pack(">I", t)
                out += self.nn(self.vsize(dimids, t))
                out += struct.pack(">I" if self.fmt == 1 else ">Q", b)
        else:
            out += b"\0" * 4 + self.nn(0)
        return out

    def dimlen(self, d):
        # a dimension id the header lacks counts as length 1
        return self.dims[d][1] if d < len(self.dims) else 1

    def is_rec(self, dimids):
        return bool(dimids) and self.dimlen(dimids[0]) == 0

    def vsize(self, dimids, t):
        n = SIZES.get(t, 4)
        for d in dimids[1:] if self.is_rec(dimids) else dimids:
            n *= self.dimlen(d)
        return n + (-n % 4)

    def build(self, begins=None):
        """The whole file: header, then every variable's data (zeros)."""
        hlen = len(self.header([0] * len(self.vars)))
        if begins is None:
            begins, off = [], hlen
            fixed = [v for v in self.vars if not self.is_rec(v[1])]
            recs = [v for v in self.vars if self.is_rec(v[1])]
            where = {}
            for v in fixed + recs:
                where[v[0]] = off
                off += self.vsize(v[1], v[2])
            begins = [where[v[0]] for v in self.vars]
        recsize = sum(self.vsize(v[1], v[2]) for v in self.vars
                      if self.is_rec(v[1]))
        end = hlen
        for v, b in zip(self.vars, begins):
            if not self.is_rec(v[1]):
                end = max(end, b + self.vsize(v[1], v[2]))
        rec0 = min([b for v, b in zip(self.vars, begins) if self.is_rec(v[1])]
                   or [end])
        end = max(end, rec0 + self.numrecs * recsize)
        head = self.header(begins)
        return head + b"\0" * (end - len(head))


def sample(fmt=1, numrecs=2):
    w = Writer(fmt, numrecs)
    w.dims = [("time", 0), ("y", 3), ("x", 4)]
    w.gatts = [("title", 2, b"hostile", 7)]
    w.vars = [("a", [1, 2], 4, [("units", 2, b"m", 1)]),
              ("b", [2], 6, []),
              ("r", [0, 2], 5, [])]
    return w


def corpus():
    files = {}
    for fmt in (1, 2, 5):
        files["good_sample_cdf%d.nc" % fmt] = sample(fmt).build()
    files["good_empty.nc"] = Writer(1, 0).build()
    good = sample().build()
    w = sample()
    head = w.header([0, 0, 0])
    hlen = len(head)
    files["bad_empty_file.nc"] = b""
    files["bad_magic.nc"] = b"XDF" + good[3:]
    files["bad_version.nc"] = b"CDF\x03" + good[4:]
    files["bad_truncated_header.nc"] = good[:hlen // 2]
    files["bad_short_magic.nc"] = b"CD"
    # states a writer stopped midway leaves: the file opens and reads
    files["warn_short_record.nc"] = good[:-5]
    files["warn_past_records.nc"] = good + b"\x01" * 24
    # short by more than a record: numrecs counts records that are not there
    files["bad_short_data.nc"] = good[:-40]
    w = sample()
    w.dims[1] = ("y\x01", 3)
    files["bad_name_control.nc"] = w.build()
    w = sample()
    w.dims[2] = ("y", 4)
    files["bad_name_duplicate.nc"] = w.build()
    w = sample()
    w.vars[1] = ("b", [7], 6, [])
    files["bad_dimid.nc"] = w.build()
    w = sample()
    w.vars[0] = ("a", [1, 2], 99, [])
    files["bad_type.nc"] = w.build()
    # a count of 2^31-1 dimensions in a file of a few hundred bytes
    files["bad_huge_dim_count.nc"] = good[:8] + struct.pack(">II", NC_DIM,
                                                            0x7FFFFFFF) + good[16:]
    # an attribute claiming 2^30 values
    w = sample()
    w.gatts = [("title", 2, b"hostile", 0x40000000)]
    files["bad_huge_att_len.nc"] = w.build()
    w = sample()
    files["bad_overlap.nc"] = w.build(begins=[hlen, hlen + 8, hlen + 60])
    w = sample()
    files["bad_inside_header.nc"] = w.build(begins=[hlen - 4, hlen + 48,
                                                    hlen + 80])
    files["bad_streaming_numrecs.nc"] = good[:4] + b"\xff\xff\xff\xff" + good[8:]
    # a header that claims 2^31 - 1 records of a file holding 2
    files["bad_numrecs_claims.nc"] = (good[:4] + struct.pack(">I", 0x7FFFFFFF)
                                      + good[8:])
    # non-zero padding after the 5-byte name "title"
    i = good.index(b"title")
    files["bad_padding.nc"] = good[:i + 5] + b"\x01" + good[i + 6:]
    w = sample()
    w.dims.append(("t2", 0))
    files["bad_two_unlimited.nc"] = w.build()
    w = sample()
    w.vars[0] = ("a", [1, 0], 4, [])
    files["bad_unlimited_not_first.nc"] = w.build()
    return files


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, data in sorted(corpus().items()):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()
