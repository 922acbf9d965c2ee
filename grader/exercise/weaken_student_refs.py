#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Makes a copy of a lesson's sealed grader object that links without the student's object.

usage: weaken_student_refs.py SEALED.o OUTPUT.o

The yardstick program (build/lessonNN-yardsticks, grader/common/yardsticks.hpp) is the sealed
grader alone: it times the baselines with no student code in the process. The sealed object
refers to the functions of the lesson's contract, which the student's object defines; in the
copy those references are made weak (objcopy --weaken-symbols), so that the final link leaves
the contract's functions at address 0 instead of failing.

Which references: the undefined ones to C++ functions of the global namespace, whose mangled
names start with _Z and a digit (the length of the name): every contract declares its
launchers there, as plain C++ functions. Nothing else is weakened. The C++ library's symbols
are in namespaces (_ZNSt…, _ZSt…) or special (_Znwm, _ZTV…); CUDA's, the C library's and
the toolchain's are C names. A weak reference does not pull a member out of a static archive
(glibc's atexit lives in libc_nonshared.a) nor make a shared library needed where the linker
drops those no strong reference needs (--as-needed): weakening every undefined reference made
such a program jump to 0 before main (tried: lesson01, atexit).
A call of a contract function in the yardstick program would jump to 0: the yardstick mode of
the exercise framework never makes one (Exercise::run, check and grade do nothing there), and
a crash there is a failed measurement, never a student's failure (supervisor.hpp).
"""
import os
import re
import subprocess
import sys


# A C++ function of the global namespace: _Z, then its name's length.
GLOBAL_FUNCTION = re.compile(r"_Z[0-9]")


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__.strip().splitlines()[2])
    sealed, out = argv[1], argv[2]
    symbols = subprocess.run([os.environ.get("READELF", "readelf"), "-sW", sealed], check=True,
                             capture_output=True, text=True).stdout
    listing = out + ".weak"
    with open(listing, "w") as f:
        for line in symbols.splitlines():
            # Num: Value Size Type Bind Vis Ndx Name
            cols = line.split()
            if len(cols) >= 8 and cols[4] == "GLOBAL" and cols[6] == "UND" and GLOBAL_FUNCTION.match(cols[7]):
                f.write(cols[7] + "\n")
    subprocess.run([os.environ.get("OBJCOPY", "objcopy"), "--weaken-symbols=" + listing, sealed, out], check=True)
    os.remove(listing)


if __name__ == "__main__":
    main(sys.argv)
