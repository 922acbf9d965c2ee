// SPDX-License-Identifier: MIT
// Unit tests of the grader's host-side logic; they need no GPU.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
