#!/usr/bin/env python3
"""Check a revision's media bus code descriptors against subdev-formats.rst.

The bits per pixel that a descriptor gives for a code must be what the
code's rows in Documentation/userspace-api/media/v4l/subdev-formats.rst
show: the bits of one bus sample (the cells of the code's first row that
hold a component bit, such as "r\\ :sub:`4`", or a padding 0), times the samples per
pixel that the code's name gives (1X16: one, 2X8: two, 3X8: three). The
sample width in the name must be the row's width. The expectation is read
from the document, never from the table under test.

The table is read from the revision's drivers/media/v4l2-core/v4l2-common.c
in either form the series has had: v3's { MEDIA_BUS_FMT_X, BPP, DT } and
v1/v2's MBUS_INFO(X, FOURCC, BITS_PER_SAMPLE, ...), whose bits_per_sample
was meant as the bits of a pixel for some codes and of a bus sample for
others (review of v2, point 5).

usage: doc-bits.py TREE COMMIT
Prints one line per entry; exits 1 if any entry disagrees with the
document, 2 if the table or the document cannot be read. A code whose name
gives no samples per pixel (the LVDS 1X7X4 serialisations) is "not read",
said, and not judged.
"""
import re
import subprocess
import sys


def show(tree, commit, path):
    return subprocess.run(["git", "-C", tree, "show", f"{commit}:{path}"],
                          check=True, capture_output=True, text=True).stdout


def doc_rows(rst):
    """{code value: [bits of row 1, bits of row 2, ...]} from the document.

    Keyed by the value cell (0x....) of the code's row, not by its name: a
    name in the document may be misspelt (ARGB888_1X32 for 0x100d).
    """
    rows, cur, key, pending = {}, None, None, False
    for line in rst.splitlines():
        if re.match(r"\s*\* \.\. _MEDIA-BUS-FMT-", line):
            cur, key, pending = [0], None, True
            continue
        if re.match(r"\s*\* ", line):
            # A row of another kind (a header) ends the code; a row with an
            # empty first cell ("* -") continues it.
            if key is not None and re.match(r"\s*\* -\s*$", line):
                cur.append(0)
            else:
                cur, key, pending = None, None, False
            continue
        if cur is None:
            continue
        m = re.match(r"\s*- (0x[0-9a-fA-F]+)\s*$", line)
        if pending and m:
            key, pending = int(m.group(1), 16), False
            rows[key] = cur
            continue
        # A bit of the sample: a component's bit, or a padding bit (0).
        if key is not None and re.match(r"\s*- (.*:sub:|0\s*$)", line):
            cur[-1] += 1
    return rows


def values(header):
    """{name: value} of include/uapi/linux/media-bus-format.h."""
    return {n: int(v, 16) for n, v in
            re.findall(r"#define MEDIA_BUS_FMT_(\w+)\s+(0x[0-9a-fA-F]+)", header)}


def table(src):
    """[(code, bits)] of the descriptor table in v4l2-common.c."""
    v3 = re.findall(r"\{\s*MEDIA_BUS_FMT_([A-Z0-9_]+),\s*(\d+),\s*MIPI_CSI2_DT_\w+\s*\}", src)
    v2 = re.findall(r"MBUS_INFO\(([A-Z0-9_]+),\s*\w+,\s*(\d+),", src)
    return [(c, int(b)) for c, b in v3 + v2]


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-3], file=sys.stderr)
        return 2
    tree, commit = sys.argv[1:]
    try:
        rst = show(tree, commit, "Documentation/userspace-api/media/v4l/subdev-formats.rst")
        src = show(tree, commit, "drivers/media/v4l2-core/v4l2-common.c")
        hdr = show(tree, commit, "include/uapi/linux/media-bus-format.h")
    except subprocess.CalledProcessError as e:
        print(f"doc-bits: cannot read {commit}: {e.stderr.strip()}", file=sys.stderr)
        return 2
    rows = doc_rows(rst)
    value = values(hdr)
    entries = table(src)
    if not entries:
        print(f"doc-bits: no descriptor table in {commit}'s v4l2-common.c", file=sys.stderr)
        return 2
    bad = unread = 0
    for code, bits in entries:
        # NXM: N samples of M bits a pixel. Other names (the LVDS 1X7X4
        # serialisations, 1_5X8) say no such thing: not read, not judged.
        m = re.fullmatch(r"[A-Z0-9]+(?:_[A-Z0-9]+)*?_(\d+)X(\d+)(?:_[A-Z]+)*", code)
        if m is None or re.search(r"_\d+X\d+X\d+|_\d+_\d+X", code):
            print(f"not read: {code}: its name gives no samples per pixel")
            unread += 1
            continue
        if value.get(code) not in rows:
            print(f"not in subdev-formats.rst: {code}")
            bad += 1
            continue
        samples, width = int(m.group(1)), int(m.group(2))
        first = rows[value[code]][0]
        want = first * samples
        if first != width:
            print(f"differs: {code}: its first row has {first} bits, its name says {width}")
            bad += 1
        elif bits != want:
            print(f"differs: {code}: the table says {bits}, subdev-formats.rst {first} x {samples} = {want} bits per pixel")
            bad += 1
        else:
            print(f"same: {code}: {bits} bits per pixel")
    print(f"{len(entries)} entries, {bad} differ from subdev-formats.rst, {unread} not read")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
