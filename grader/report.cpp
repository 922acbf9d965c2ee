// SPDX-License-Identifier: MIT
// Stands in for a test that cannot run as built: prints why and exits with the code
// given (1: FAIL, e.g. a submission lacks a file; 77: SKIP, e.g. a tool is missing), so
// the reason shows in the test log and the other tests still build and run.
#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: report EXIT_CODE MESSAGE\n");
        return 2;
    }
    int code = std::atoi(argv[1]);
    std::printf("%s  %s\n", code == 77 ? "SKIP" : "FAIL", argv[2]);
    return code;
}
