#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Joins the grader's side of a lesson program into one object whose own symbols are local.

usage: seal_objects.py OUTPUT.o ARCHIVE.a...

The grader's code is compiled with hidden visibility (meson.build). `ld -r` joins every
object of the archives given into one relocatable object, and `objcopy` then makes each
strong hidden symbol it defines local to it (weak ones stay: they are the copies of inline
functions and templates, and of the toolchain's own helpers such as
DW.ref.__gxx_personality_v0, that every object may carry and the linker keeps one of). A student's file linked beside it can still call
CUDA and what its contract header declares, but a grader function or kernel it declares
itself (`namespace grader { const Ceilings& ceilings(); }`) is an undefined reference at link
time: the trust boundary is kept by the linker, not by the include path alone
(docs/trust_model.md). Symbols the grader provides to students on purpose are declared with
default visibility in their contract header (lesson 07's launch_work).
"""
import os
import subprocess
import sys


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__.strip().splitlines()[2])
    out, archives = argv[1], argv[2:]
    joined = out + ".joined.o"
    # ld and objcopy come with the host compiler's binutils, which nvcc needs anyway.
    subprocess.run([os.environ.get("LD", "ld"), "-r", "-o", joined, "--whole-archive", *archives,
                    "--no-whole-archive"], check=True)
    symbols = subprocess.run([os.environ.get("READELF", "readelf"), "-sW", joined], check=True,
                             capture_output=True, text=True).stdout
    listing = out + ".local"
    with open(listing, "w") as f:
        for line in symbols.splitlines():
            # Num: Value Size Type Bind Vis Ndx Name
            cols = line.split()
            if len(cols) >= 8 and cols[4] == "GLOBAL" and cols[5] == "HIDDEN" and cols[6] != "UND":
                f.write(cols[7] + "\n")
    subprocess.run([os.environ.get("OBJCOPY", "objcopy"), "--localize-symbols=" + listing, joined, out], check=True)
    os.remove(joined)
    os.remove(listing)


if __name__ == "__main__":
    main(sys.argv)
