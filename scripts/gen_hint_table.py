#!/usr/bin/env python3
"""Print README's hint table from src/util/hint_table.def.

    gen_hint_table.py            print the markdown table
    gen_hint_table.py --check F  exit 1 (with a diff) unless F holds it
                                 between the marker comments
    gen_hint_table.py --update F rewrite that part of F

The table file is C (an X-macro list); this reads its rows the way the
preprocessor would, for the simple expressions the rows use.
"""
import argparse
import difflib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "src", "util", "hint_table.def")
HEADER = os.path.join(ROOT, "src", "util", "ncp_hints.h")
BEGIN = "<!-- hint-table:begin (scripts/gen_hint_table.py) -->"
END = "<!-- hint-table:end -->"

OWNERS = {
    "NCP_HO_DATASET": "dataset",
    "NCP_HO_IO": "I/O layer",
    "NCP_HO_GROUP": "I/O groups",
    "NCP_HO_POSIX": "posix driver",
    "NCP_HO_NONE": "reported only",
}
AUDIENCE = {"NCP_HA_USER": "user", "NCP_HA_TUNING": "tuning"}
BAD = {
    "NCP_HB_IGNORE": "ignored",
    "NCP_HB_EINVAL": "`NC_EINVAL`",
    "NCP_HB_FALLBACK": "default, with a warning",
}
INT_MAX = 2**31 - 1
INT64_MAX = 2**63 - 1


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", " ", text, flags=re.S)


def split_args(text, start):
    """The arguments of the call whose '(' is at text[start], and the
    index after its ')'."""
    args, cur, depth, i, quote = [], [], 0, start + 1, False
    while i < len(text):
        c = text[i]
        if quote:
            cur.append(c)
            if c == "\\":
                cur.append(text[i + 1])
                i += 1
            elif c == '"':
                quote = False
        elif c == '"':
            quote = True
            cur.append(c)
        elif c == "(":
            depth += 1
            cur.append(c)
        elif c == ")" and depth == 0:
            args.append("".join(cur).strip())
            return args, i + 1
        elif c == ")":
            depth -= 1
            cur.append(c)
        elif c == "," and depth == 0:
            args.append("".join(cur).strip())
            cur = []
        else:
            cur.append(c)
        i += 1
    raise SystemExit("hint_table.def: unterminated row")


def header_constants():
    consts = {"INT_MAX": INT_MAX, "INT64_MAX": INT64_MAX}
    with open(HEADER) as f:
        for m in re.finditer(r"#define\s+(NCP_\w+)\s+(\([^\n]*\))", f.read()):
            try:
                consts[m.group(1)] = evaluate(m.group(2), consts)
            except (SyntaxError, NameError, TypeError):
                pass
    return consts


def evaluate(expr, consts):
    expr = expr.replace("(int64_t)", "")
    return int(eval(expr, {"__builtins__": {}}, consts))  # noqa: S307


def literal(arg):
    """A C argument: concatenated string literals, NULL, or the text."""
    if arg == "NULL":
        return None
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', arg)
    if parts and re.fullmatch(r'(\s*"(?:[^"\\]|\\.)*"\s*)+', arg):
        return "".join(p.replace('\\"', '"') for p in parts)
    return arg


def read_rows():
    with open(TABLE) as f:
        text = strip_comments(f.read())
    consts = header_constants()
    rows = []
    for m in re.finditer(r"\bNCP_HINT(_STR)?\s*\(", text):
        args, _ = split_args(text, m.end() - 1)
        if m.group(1):
            field, key, owner, aud, dflt, doc = args
            rows.append(dict(key=literal(key), type="NCP_HT_STRING",
                             owner=owner, aud=aud, bad="NCP_HB_FALLBACK",
                             dflt_text=literal(dflt), doc=literal(doc)))
            continue
        field, key, typ, lo, hi, dflt, words, owner, aud, bad, doc = args
        rows.append(dict(key=literal(key), type=typ,
                         lo=evaluate(lo, consts), hi=evaluate(hi, consts),
                         dflt=evaluate(dflt, consts), words=literal(words),
                         owner=owner, aud=aud, bad=bad, doc=literal(doc)))
    return rows


def human(n, size):
    if n == INT_MAX:
        return "2^31-1"
    if size:
        for shift, unit in ((30, "GiB"), (20, "MiB"), (10, "KiB")):
            if n >= 1 << shift and n % (1 << shift) == 0:
                return "%d %s" % (n >> shift, unit)
    return str(n)


# What a string row takes, and what a value its owner cannot use does.
STRING_VALUES = {"nc_driver": "a driver's name",
                 "nc_burst_buf_dirname": "a folder"}
STRING_BAD = {"nc_burst_buf_dirname": "the open fails"}


def values(r):
    if r["type"] == "NCP_HT_STRING":
        return STRING_VALUES.get(r["key"], "a string")
    words = r["words"].split("|") if r["words"] else []
    if r["type"] == "NCP_HT_ENUM":
        return " \\| ".join("`%s`" % w for w in words)
    size = r["type"] == "NCP_HT_SIZE"
    if r["hi"] == INT64_MAX:
        span = "%s or more" % human(r["lo"], size)
    else:
        span = "%s..%s" % (human(r["lo"], size), human(r["hi"], size))
    return " \\| ".join([span] + ["`%s`" % w for w in words])


def default(r):
    if r["type"] == "NCP_HT_STRING":
        return r["dflt_text"]
    words = r["words"].split("|") if r["words"] else []
    d = r["dflt"]
    if r["type"] == "NCP_HT_ENUM":
        return "`%s`" % words[d]
    if d <= 0 and -d < len(words):
        return "`%s`" % words[-d]
    if d < r["lo"]:
        return "unset"
    return human(d, r["type"] == "NCP_HT_SIZE")


def table():
    out = [
        "| hint | values | default | read by | kind | bad value | meaning |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in read_rows():
        out.append("| `%s` | %s | %s | %s | %s | %s | %s |" % (
            r["key"], values(r), default(r), OWNERS[r["owner"]],
            AUDIENCE[r["aud"]], STRING_BAD.get(r["key"], BAD[r["bad"]]),
            r["doc"]))
    return "\n".join(out) + "\n"


def section(text, path):
    try:
        b = text.index(BEGIN) + len(BEGIN)
        e = text.index(END, b)
    except ValueError:
        raise SystemExit("%s: no %s ... %s markers" % (path, BEGIN, END))
    return b, e


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = ap.add_mutually_exclusive_group()
    g.add_argument("--check", metavar="FILE")
    g.add_argument("--update", metavar="FILE")
    a = ap.parse_args()
    want = table()
    path = a.check or a.update
    if not path:
        sys.stdout.write(want)
        return 0
    with open(path) as f:
        text = f.read()
    b, e = section(text, path)
    have = text[b:e].strip("\n") + "\n"
    if a.update:
        with open(path, "w") as f:
            f.write(text[:b] + "\n" + want + text[e:])
        return 0
    if have == want:
        return 0
    sys.stdout.writelines(difflib.unified_diff(
        have.splitlines(True), want.splitlines(True),
        path + " (hint table)", "generated from hint_table.def"))
    print("\nREADME's hint table is stale: run "
          "scripts/gen_hint_table.py --update README.md")
    return 1


if __name__ == "__main__":
    sys.exit(main())
