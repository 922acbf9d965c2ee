# SPDX-License-Identifier: MIT
# Tests of the course's Python tools (stdlib unittest); run by `meson test -C build tools`.
