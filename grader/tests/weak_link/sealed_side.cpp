// SPDX-License-Identifier: MIT
// The grader's side of the weak-link test (meson.build beside it): like a lesson's sealed
// object, it refers to the contract's function, and calls it only when the student's side is on.
// Linked without any student object, after weaken_student_refs.py, the program must start,
// find the function's address to be 0 (an undefined weak reference, resolved to nothing) and
// run its no-op: what the yardstick programs (build/lessonNN-yardsticks) rely on.
#include <cstdio>
#include <string>

#include "contract.hpp"

int main(int argc, char**) {
    // The address as the program holds it at run time: the compiler, which knows nothing of the
    // weakening after it, would otherwise fold the comparison (a declared function's address is
    // never null to it).
    void (*launcher)(float*, int) = &student_launcher;
    asm volatile("" : "+r"(launcher));
    if (launcher != nullptr) {
        std::printf("FAIL: the contract's function resolved to %p, not 0: its reference was not made weak\n",
                    reinterpret_cast<void*>(launcher));
        return 1;
    }
    // The student's side, switched off: the call is never made (it would jump to address 0).
    // argc > 99 stands for a switch the compiler cannot fold away.
    if (argc > 99) student_launcher(nullptr, 0);
    // Calls into the C++ library, whose references stay strong (weaken_student_refs.py): with
    // them weak, the library was dropped from the program (--as-needed) and this jumped to 0.
    const std::string said = std::string("the program linked without the student's object started and ran its no-op; ") +
                             "the contract's function is at address 0";
    std::printf("%s\n", said.c_str());
    return 0;
}
