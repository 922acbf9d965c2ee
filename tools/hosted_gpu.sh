#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs lessons of the course on a borrowed GPU: a hosted notebook (Colab, Kaggle: a T4) or a
# rented machine. It checks the GPU, its driver and the CUDA toolkit against what the course
# needs, installs Meson and Ninja with pip where they are missing, configures the build and
# runs the lessons named, printing each step before it runs it. docs/no_gpu.md explains the
# route; tools/hosted_gpu.ipynb is a notebook that gets the course and runs this.
#
#   bash tools/hosted_gpu.sh [--check] [--build DIR] [LESSON...] [-- MESON_TEST_OPTIONS...]
#
#   bash tools/hosted_gpu.sh lesson01                   check, install, configure, run lesson 01
#   bash tools/hosted_gpu.sh lesson01 -- --test-args='-tc=01.1*'    one exercise of it
#   bash tools/hosted_gpu.sh --check                    the checks alone: nothing installed or built
#
# --build DIR: the build folder (default: build, in the course's folder). Without a lesson it
# stops once the build is configured. Exit status: that of the last lesson's `meson test`
# (0: it passed), 0 after --check or a configuration alone, 1 when a check fails: the lines
# before say why and what to do.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1
build=build check=0 lessons=() test_options=()
while [ $# -gt 0 ]; do
    case $1 in
        --check) check=1; shift ;;
        --build) build=${2:?--build needs a folder}; shift 2 ;;
        --build=*) build=${1#--build=}; shift ;;
        --) shift; test_options=("$@"); break ;;
        -h|--help) sed -n '3,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "hosted_gpu.sh: unknown option $1 (--help lists them)" >&2; exit 2 ;;
        *) lessons+=("$1"); shift ;;
    esac
done

steps=$(( check ? 5 : 6 + ${#lessons[@]} )) n=0
step() { n=$((n + 1)); printf '\n==> [%d/%d] %s\n' "$n" "$steps" "$*"; }
say() { printf '    %s\n' "$@"; }
run() { printf '    $ %s\n' "$*"; "$@"; }
fail() { printf '    FAILED: %s\n' "$1"; shift; say "$@"; exit 1; }
# "12.4" -> 1204, to compare versions as numbers
vnum() { local major=${1%%.*} minor=${1#*.}; minor=${minor%%.*}; echo $(( 10#$major * 100 + 10#${minor:-0} )); }

step "the course"
[ -f meson.build ] && [ -d lessons ] && [ -d starter ] ||
    fail "$(pwd) is not the course's folder (no meson.build, lessons/ and starter/)" \
         "Run this script from inside the course: bash tools/hosted_gpu.sh lesson01"
say "$(pwd)"

step "the GPU and its driver"
listed=$(command -v nvidia-smi >/dev/null && nvidia-smi -L 2>&1 || echo "no nvidia-smi, the NVIDIA driver's tool")
grep -q "^GPU" <<<"$listed" ||
    fail "no NVIDIA GPU is visible here ($(head -n 1 <<<"$listed"))" \
         "In a notebook, choose a runtime with a GPU (Colab: Runtime, Change runtime type, a T4 GPU;" \
         "Kaggle: Settings, Accelerator, a GPU), then run this again. docs/no_gpu.md lists other ways."
say "$listed"
# name, compute capability, driver of the first GPU (the one the lessons run on)
IFS=, read -r gpu_name cap driver <<<"$(nvidia-smi --query-gpu=name,compute_cap,driver_version \
                                          --format=csv,noheader 2>/dev/null | head -n 1)"
cap=${cap// /} driver=${driver// /}
# The highest CUDA version the driver runs, from nvidia-smi's banner ("CUDA Version: 12.4").
driver_cuda=$(nvidia-smi 2>/dev/null | sed -n 's/.*CUDA Version: *\([0-9][0-9.]*\).*/\1/p' | head -n 1)
if [[ $cap =~ ^[0-9]+\.[0-9]+$ ]]; then
    say "compute capability $cap, driver ${driver:-?}${driver_cuda:+, which runs CUDA up to $driver_cuda}"
    [ "$(vnum "$cap")" -ge 705 ] ||
        fail "the course needs compute capability 7.5 or newer (a T4 or later); ${gpu_name:-this GPU} has $cap" \
             "Choose another GPU for this runtime (a P100 is 6.0, a K80 3.7: neither runs the course)."
else
    say "note: this nvidia-smi does not report the compute capability (an old driver?): the course needs 7.5" \
        "or newer (a T4 or later); the grader says so if this GPU is older"
fi

step "the CUDA toolkit (nvcc)"
if ! command -v nvcc >/dev/null && [ -x "${CUDA_HOME:-/usr/local/cuda}/bin/nvcc" ]; then
    export PATH="${CUDA_HOME:-/usr/local/cuda}/bin:$PATH"
    say "nvcc is not on PATH; using ${CUDA_HOME:-/usr/local/cuda}/bin (added to PATH for this run)"
fi
command -v nvcc >/dev/null ||
    fail "no CUDA toolkit: nvcc is neither on PATH nor in ${CUDA_HOME:-/usr/local/cuda}/bin" \
         "Install a CUDA 12.x or 13.x toolkit (docs/no_gpu.md, \"When the hosted CUDA differs\"), then run this again."
cuda=$(nvcc --version | sed -n 's/.*release \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p' | head -n 1)
say "$(command -v nvcc): CUDA ${cuda:-of unknown version}"
[ -n "$cuda" ] || fail "nvcc --version names no release" "Check the toolkit: nvcc --version"
case ${cuda%%.*} in
    12|13) ;;
    1[4-9]|[2-9][0-9]) say "note: CUDA $cuda is newer than the course has been built with (12.x, 13.x): going on" ;;
    *) fail "the course needs CUDA 12.x or 13.x; this toolkit is $cuda" \
            "Install a CUDA 12 toolkit beside it and put its bin/ first on PATH (docs/no_gpu.md," \
            "\"When the hosted CUDA differs\"), then run this again." ;;
esac
if [ -n "$driver_cuda" ]; then
    if [ "${driver_cuda%%.*}" -lt "${cuda%%.*}" ]; then
        fail "the driver runs CUDA up to $driver_cuda, older than this toolkit's major version ($cuda): what it builds would not run" \
             "Use a CUDA ${driver_cuda%%.*}.x toolkit (docs/no_gpu.md, \"When the hosted CUDA differs\")."
    elif [ "$(vnum "$driver_cuda")" -lt "$(vnum "$cuda")" ]; then
        say "note: the driver runs CUDA up to $driver_cuda and the toolkit is $cuda: the same major version," \
            "so programs built for this GPU run (CUDA's minor-version compatibility). Should the grader say" \
            "\"the NVIDIA driver is older than this CUDA toolkit needs\", use a toolkit of $driver_cuda or older."
    fi
fi

step "Meson and Ninja"
have_tools() {  # meson 1.1 or newer, and ninja, on PATH
    command -v meson >/dev/null && command -v ninja >/dev/null &&
        [ "$(vnum "$(meson --version 2>/dev/null || echo 0.0)")" -ge 101 ]
}
if have_tools; then
    say "found meson $(meson --version) ($(command -v meson)) and ninja $(ninja --version) ($(command -v ninja)): not installing"
elif [ "$check" = 1 ]; then
    say "meson 1.1 or newer and ninja are not both on PATH: a run without --check installs them with pip"
else
    say "meson 1.1 or newer and ninja are not both on PATH: installing them with pip"
    if ! run python3 -m pip install --quiet --disable-pip-version-check 'meson>=1.1' ninja; then
        fail "pip could not install meson and ninja (no network here, or a Python that refuses pip installs)" \
             "Without network: upload the wheels of meson and ninja and pip install those files." \
             "With a Python that refuses (\"externally-managed-environment\"): make a virtual environment," \
             "python3 -m venv ~/meson-env && ~/meson-env/bin/pip install meson ninja && export PATH=~/meson-env/bin:\$PATH," \
             "then run this again."
    fi
    # pip puts the commands in this Python's scripts folder, or the user's when it installs there.
    for dir in "$(python3 -c 'import sysconfig; print(sysconfig.get_path("scripts"))')" \
               "$(python3 -m site --user-base 2>/dev/null)/bin"; do
        case ":$PATH:" in *":$dir:"*) ;; *) [ -x "$dir/meson" ] && export PATH="$dir:$PATH" && say "added $dir to PATH for this run" ;; esac
    done
    have_tools || fail "meson or ninja is still not on PATH after pip installed them" \
                       "Find them (python3 -m pip show -f meson) and put their folder on PATH."
    say "installed: meson $(meson --version), ninja $(ninja --version)"
fi

step "doctest (the grader's unit-test library)"
if printf '#include <doctest/doctest.h>\n' | c++ -fsyntax-only -x c++ - >/dev/null 2>&1; then
    say "found: the compiler has <doctest/doctest.h>"
elif [ -d subprojects/doctest ]; then
    say "found: subprojects/doctest (fetched before)"
else
    say "not installed: meson setup fetches it once from GitHub (subprojects/doctest.wrap), which needs network." \
        "Without network: install doctest (apt install doctest-dev), or put its doctest/ folder of headers" \
        "in a folder named on CPATH."
fi

if [ "$check" = 1 ]; then
    printf '\nhosted_gpu.sh: the checks hold; nothing was installed or built (--check)\n'
    exit 0
fi

step "configure the build ($build)"
if [ -f "$build/build.ninja" ]; then
    # Again for this machine's GPU: -Dgpu_arch=auto reads it at configure time.
    run meson setup --reconfigure "$build" || fail "meson setup failed: its last lines are above" \
        "docs/troubleshooting.md, section \"Building\", explains the usual causes."
else
    run meson setup "$build" || fail "meson setup failed: its last lines are above" \
        "docs/troubleshooting.md, section \"Building\", explains the usual causes."
fi

if [ ${#lessons[@]} -eq 0 ]; then
    printf '\nhosted_gpu.sh: configured; no lesson named. Run one: bash tools/hosted_gpu.sh lesson01\n'
    exit 0
fi
rc=0
for lesson in "${lessons[@]}"; do
    step "run $lesson (it builds the lesson first: minutes on a notebook's few cores)"
    run meson test -C "$build" "$lesson" "${test_options[@]}"
    rc=$?
done
printf '\nhosted_gpu.sh: done. Your edits live in starter/; a hosted notebook'"'"'s disk goes with its session:\n'
printf 'download starter/ (or the files you changed) before you leave.\n'
exit $rc
