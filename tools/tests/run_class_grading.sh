#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Grades a generated class of six submissions with tools/grade_class.py, for real (configure
# and builds included; without a GPU every lesson that runs reports SKIP), prints each
# submission's build and test seconds, then checks every output file, every verdict and every
# copy flag (tools/tests/class_fixture.py check), that a second run skips everyone and that
# --only grades one student again.
#
#   tools/tests/run_class_grading.sh [--lessons 01,02,06 | --lessons all] [--gpu] [--keep DIR] [grade_class.py options]
#
# --lessons: the lessons graded (default 01,02,06: those the class's defects are in; each
# lesson more costs a build per submission). --gpu: on a GPU machine, the references must
# PASS. --keep DIR: grade into DIR and keep it. Exit status 0 when every check holds.
set -euo pipefail
cd "$(dirname "$0")/../.."

lessons=01,02,06 gpu=() keep=""
while [ $# -gt 0 ]; do
    case $1 in
        --lessons) lessons=$2; shift 2 ;;
        --gpu) gpu=(--gpu); shift ;;
        --keep) keep=$2; shift 2 ;;
        *) break ;;
    esac
done
[ "$lessons" = all ] && lessons=""

if [ -n "$keep" ]; then
    rm -rf "$keep" && mkdir -p "$keep" && dir=$(cd "$keep" && pwd)
else
    dir=$(mktemp -d) && trap 'chmod -R u+w "$dir" 2>/dev/null; rm -rf "$dir"' EXIT
fi
grade=(python3 tools/grade_class.py "$dir/submissions" --out "$dir/grades" ${lessons:+--lessons "$lessons"} "$@")

python3 tools/tests/class_fixture.py make "$dir/submissions"
start=$(date +%s)
"${grade[@]}"
echo "run_class_grading: 6 submissions graded in $(( $(date +%s) - start )) s"
python3 - "$dir/grades" <<'EOF'
import json, pathlib, sys
for path in sorted(pathlib.Path(sys.argv[1]).glob("students/*/record.json")):
    r = json.loads(path.read_text())
    print(f"run_class_grading: {r['student']}: build {r['build_s']} s, tests {r['test_s']} s")
EOF
python3 tools/tests/class_fixture.py check "$dir/grades" --lessons "$lessons" "${gpu[@]}"

g="$dir/grades/work/grader"
# The class's grader build holds the sealed objects of the lessons graded and no other
# (course.build_grader): with --lessons, the other lessons were not built.
if [ -n "$lessons" ] && [ -d "$g" ]; then
    built=$(cd "$g" && ls lesson*-grader.o | sed 's/^lesson//; s/-grader\.o$//' | paste -sd, -)
    [ "$built" = "$(tr , '\n' <<<"$lessons" | sed 's/^lesson//' | sort | paste -sd, -)" ] ||
        { echo "FAIL: --lessons $lessons built the grader objects of lessons $built"; exit 1; }
    echo "run_class_grading: the grader build holds the sealed objects of lessons $built only"
fi

# A build that would compile otherwise than the class's grader build may not link it: setup
# stops and names what differs (meson.build, prebuilt_grader).
if [ -f "$g/grader-flags.txt" ]; then
    other=sm_80 && grep -qx "arch=sm_80" "$g/grader-flags.txt" && other=sm_86
    if meson setup "$dir/other-arch" -Dkernels=starter -Ddocs=disabled -Dgpu_arch=$other -Dprebuilt_grader="$g" \
            > "$dir/other-arch.log" 2>&1; then
        echo "FAIL: a build for $other was let link the class's grader build"; exit 1
    fi
    grep -q "compiled the grader otherwise (.*arch" "$dir/other-arch.log" ||
        { echo "FAIL: setup did not name the architecture:"; tail -n 5 "$dir/other-arch.log"; exit 1; }
    echo "run_class_grading: a build for $other is refused the class's grader build: the architecture differs"
else
    echo "run_class_grading: no grader build at $g (--work given?): the check of its flags did not run"
fi

# A second run grades nobody again; --only grades one student again (and only them).
"${grade[@]}" 2>&1 | tee "$dir/again.log" | tail -n 3
grep -q "grading 0 of 6 submissions (6 already graded" "$dir/again.log" || { echo "FAIL: the second run graded again"; exit 1; }
before=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["finished"])' "$dir/grades/students/solutions-copy/record.json")
"${grade[@]}" --only starter-copy 2>&1 | tail -n 2
python3 - "$dir/grades" "$before" <<'EOF'
import json, pathlib, sys
grades, before = pathlib.Path(sys.argv[1]), sys.argv[2]
rec = lambda s: json.loads((grades / "students" / s / "record.json").read_text())
if rec("solutions-copy")["finished"] != before:
    sys.exit("FAIL: --only starter-copy graded solutions-copy again")
if rec("starter-copy")["finished"] <= before:
    sys.exit("FAIL: --only starter-copy did not grade starter-copy again")
print("run_class_grading: the second run skipped everyone; --only graded starter-copy alone")
EOF
python3 tools/tests/class_fixture.py check "$dir/grades" --lessons "$lessons" "${gpu[@]}"
echo "run_class_grading: ok"
