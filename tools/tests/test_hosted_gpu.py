# SPDX-License-Identifier: MIT
"""Tests of the hosted-GPU route without a GPU: tools/hosted_gpu.sh parses (bash -n) and, run
against stand-ins for nvidia-smi, nvcc, meson, ninja and pip on PATH, takes the steps it must,
stops where the GPU, the toolkit or the driver does not fit, and installs nothing where meson
and ninja are there already; tools/hosted_gpu.ipynb is a valid notebook that runs the script.

Run from the repository root: python3 -m unittest discover -s tools/tests -t .
"""
import json
import os
import pathlib
import shutil
import subprocess
import tempfile
import textwrap
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tools" / "hosted_gpu.sh"
NOTEBOOK = ROOT / "tools" / "hosted_gpu.ipynb"
BASH = shutil.which("bash")


def stub(folder, name, body):
    """An executable `name` in `folder` that runs the shell code `body`."""
    path = pathlib.Path(folder) / name
    path.write_text("#!/bin/sh\n" + textwrap.dedent(body))
    path.chmod(0o755)


def machine(folder, gpu="Tesla T4, 7.5, 535.104.05", driver_cuda="12.2", cuda="12.2", meson="1.4.0", pip_works=True):
    """Stand-ins on `folder` for a hosted machine: nvidia-smi (gpu=None: no GPU), nvcc of
    release `cuda`, meson of that version (None: absent) that logs what it is asked to do, and
    a python3 whose pip either 'installs' a meson or fails as without network."""
    folder = pathlib.Path(folder)
    log = folder / "calls.log"
    if gpu:
        stub(folder, "nvidia-smi", f"""\
            case "$1" in
                -L) echo "GPU 0: {gpu.split(',')[0]} (UUID: GPU-0)" ;;
                --query-gpu=*) echo "{gpu}" ;;
                *) echo "| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: {driver_cuda}  |" ;;
            esac
            """)
    stub(folder, "nvcc", f'echo "Cuda compilation tools, release {cuda}, V{cuda}.140"\n')
    meson_body = f"""\
        [ "$1" = --version ] && {{ echo {meson or "1.4.0"}; exit 0; }}
        echo "meson $*" >> "{log}"
        """
    if meson:
        stub(folder, "meson", meson_body)
    stub(folder, "ninja", 'echo 1.11.1\n')
    stub(folder, "c++", "exit 0\n")  # the compiler finds doctest
    real = shutil.which("python3")
    installs = (f'mkdir -p "{folder}/scripts" && cat > "{folder}/scripts/meson" <<\'EOF\'\n#!/bin/sh\n'
                + textwrap.dedent(meson_body) + 'EOF\nchmod +x "' + f'{folder}/scripts/meson"; echo "python3 $*" >> "{log}"'
                if pip_works else 'echo "ERROR: Could not find a version that satisfies the requirement meson>=1.1" >&2; exit 1')
    stub(folder, "python3", f"""\
        if [ "$1 $2" = "-m pip" ]; then
            {installs}
            exit 0
        fi
        if [ "$1" = -c ] && [ "${{2#*scripts}}" != "$2" ]; then echo "{folder}/scripts"; exit 0; fi
        exec "{real}" "$@"
        """)
    return log


@unittest.skipUnless(BASH, "no bash")
class Script(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = pathlib.Path(self.tmp.name)
        self.bin = self.dir / "bin"
        self.bin.mkdir()

    def tearDown(self):
        self.tmp.cleanup()

    def run_script(self, *args):
        env = {"PATH": f"{self.bin}:/usr/bin:/bin", "HOME": str(self.dir), "CUDA_HOME": str(self.dir / "no-cuda")}
        r = subprocess.run([BASH, str(SCRIPT), *args], capture_output=True, text=True, env=env, cwd=self.dir,
                           timeout=60)
        return r.returncode, r.stdout + r.stderr

    def steps(self, out):
        return [line.split("] ", 1)[1] for line in out.splitlines() if line.startswith("==> [")]

    def test_it_parses(self):
        r = subprocess.run([BASH, "-n", str(SCRIPT)], capture_output=True, text=True)
        self.assertEqual((r.returncode, r.stderr), (0, ""))

    def test_a_t4_with_meson_there_installs_nothing_and_runs_the_lesson(self):
        log = machine(self.bin)
        rc, out = self.run_script("--build", str(self.dir / "build"), "lesson01", "--", "--test-args=-tc=01.1*")
        self.assertEqual(rc, 0, out)
        self.assertEqual(self.steps(out), ["the course", "the GPU and its driver", "the CUDA toolkit (nvcc)",
                                           "Meson and Ninja", "doctest (the grader's unit-test library)",
                                           f"configure the build ({self.dir / 'build'})",
                                           "run lesson01 (it builds the lesson first: minutes on a notebook's few cores)"])
        self.assertIn("compute capability 7.5, driver 535.104.05, which runs CUDA up to 12.2", out)
        self.assertIn(f"{self.bin / 'nvcc'}: CUDA 12.2", out)
        self.assertIn("found meson 1.4.0", out)
        self.assertIn("not installing", out)
        self.assertEqual(log.read_text().splitlines(), [f"meson setup {self.dir / 'build'}",
                                                        f"meson test -C {self.dir / 'build'} lesson01 --test-args=-tc=01.1*"])
        self.assertIn(f"    $ meson test -C {self.dir / 'build'} lesson01", out)  # each command is shown

    def test_a_configured_build_is_configured_again_for_this_gpu(self):
        log = machine(self.bin)
        (self.dir / "build").mkdir()
        (self.dir / "build" / "build.ninja").write_text("")
        rc, out = self.run_script("--build", str(self.dir / "build"))
        self.assertEqual(rc, 0, out)
        self.assertEqual(log.read_text().splitlines(), [f"meson setup --reconfigure {self.dir / 'build'}"])
        self.assertIn("no lesson named", out)

    def test_without_meson_pip_installs_it(self):
        log = machine(self.bin, meson=None)
        rc, out = self.run_script("--build", str(self.dir / "build"), "lesson02")
        self.assertEqual(rc, 0, out)
        self.assertIn("installing them with pip", out)
        self.assertIn(f"added {self.bin / 'scripts'} to PATH for this run", out)
        calls = log.read_text().splitlines()
        self.assertEqual(calls[0], "python3 -m pip install --quiet --disable-pip-version-check meson>=1.1 ninja")
        self.assertEqual(calls[1:], [f"meson setup {self.dir / 'build'}", f"meson test -C {self.dir / 'build'} lesson02"])

    def test_without_network_for_pip_it_says_what_to_do(self):
        log = machine(self.bin, meson=None, pip_works=False)
        rc, out = self.run_script("--build", str(self.dir / "build"), "lesson01")
        self.assertEqual(rc, 1, out)
        self.assertIn("FAILED: pip could not install meson and ninja", out)
        self.assertIn("upload the wheels", out)
        self.assertFalse(log.exists())  # nothing configured, nothing run

    def test_check_installs_and_builds_nothing(self):
        log = machine(self.bin, meson=None)
        rc, out = self.run_script("--check", "lesson01")
        self.assertEqual(rc, 0, out)
        self.assertEqual(len(self.steps(out)), 5)
        self.assertIn("a run without --check installs them with pip", out)
        self.assertFalse(log.exists())

    def test_what_does_not_fit_stops_it_with_what_to_do(self):
        cases = [
            (dict(gpu=None), "no NVIDIA GPU is visible here (no nvidia-smi", "Change runtime type"),
            (dict(gpu="Tesla P100-PCIE-16GB, 6.0, 535.104.05"), "needs compute capability 7.5 or newer", "a P100 is 6.0"),
            (dict(cuda="11.8"), "the course needs CUDA 12.x or 13.x; this toolkit is 11.8", "Install a CUDA 12 toolkit"),
            (dict(driver_cuda="12.2", cuda="13.0"), "the driver runs CUDA up to 12.2, older than this toolkit's major",
             "Use a CUDA 12.x toolkit"),
        ]
        for kw, why, todo in cases:
            with self.subTest(**kw):
                for p in self.bin.iterdir():
                    p.unlink()
                log = machine(self.bin, **kw)
                rc, out = self.run_script("--build", str(self.dir / "build"), "lesson01")
                self.assertEqual(rc, 1, out)
                self.assertIn(why, out)
                self.assertIn(todo, out)
                self.assertFalse(log.exists())

    def test_an_older_driver_of_the_same_major_version_is_a_note(self):
        machine(self.bin, driver_cuda="12.2", cuda="12.4")
        rc, out = self.run_script("--check")
        self.assertEqual(rc, 0, out)
        self.assertIn("note: the driver runs CUDA up to 12.2 and the toolkit is 12.4", out)

    def test_outside_the_course_it_says_where_to_run_it(self):
        copy = self.dir / "elsewhere" / "tools"
        copy.mkdir(parents=True)
        shutil.copy(SCRIPT, copy)
        r = subprocess.run([BASH, str(copy / "hosted_gpu.sh"), "lesson01"], capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 1)
        self.assertIn("is not the course's folder", r.stdout)


class Notebook(unittest.TestCase):
    def test_a_valid_notebook_that_runs_the_script(self):
        nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
        self.assertEqual(nb["nbformat"], 4)
        self.assertTrue(all(c["cell_type"] in ("markdown", "code") and isinstance(c["source"], list)
                            for c in nb["cells"]))
        self.assertTrue(all(c["outputs"] == [] and c["execution_count"] is None
                            for c in nb["cells"] if c["cell_type"] == "code"), "outputs committed")
        code = ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code"]
        self.assertTrue(any("!bash tools/hosted_gpu.sh lesson01" in c for c in code), code)
        self.assertLessEqual(len(nb["cells"]), 8)
        # The course's cell is Python: it must compile as written (the shell cells are IPython's).
        compile(code[0], "cell 1", "exec")


if __name__ == "__main__":
    unittest.main()
