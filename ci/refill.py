#!/usr/bin/env python3
"""Refill text to 72 columns, as a cover letter's body wants it.

Each paragraph (lines between blank lines) and each list item (a line that
starts with "- ", after its indentation) is refilled on its own; an item's
continuation lines are indented under its text. Paths and words are never
broken. Reads standard input, writes standard output.
"""
import re
import sys
import textwrap


def refill(text, width=72):
    out, cur = [], None

    def flush():
        if cur:
            out.append(textwrap.fill(cur[1], width, initial_indent=cur[0],
                                     subsequent_indent=" " * len(cur[0]),
                                     break_long_words=False,
                                     break_on_hyphens=False))

    for line in text.split("\n")[:-1]:
        item = re.match(r"\s*- ", line)
        if not line.strip():
            flush()
            cur = None
            out.append("")
        elif item:
            flush()
            cur = [item.group(0), line[item.end():].strip()]
        elif cur is None:
            cur = ["", line.strip()]
        else:
            cur[1] += " " + line.strip()
    flush()
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.stdout.write(refill(sys.stdin.read()))
