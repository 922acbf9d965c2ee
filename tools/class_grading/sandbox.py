# SPDX-License-Identifier: MIT
"""Running a submission's configure, build and tests inside bubblewrap (bwrap).

Inside the sandbox: the whole file system read-only; a private /tmp, /run and /dev (with the
NVIDIA device nodes passed through); no network (its own network namespace holds only a
loopback); no other process visible (its own PID namespace); no capabilities, in a user
namespace; the course's solutions/, the class's submissions, the grades folder and every
other student's work hidden behind empty folders; write access only to this student's own
work folder; and a time limit, after which the whole process group is killed.
docs/class_grading.md says what this does not isolate.

`none` runs the same commands with the same environment and time limits, unisolated."""
import glob
import os
import pathlib
import shutil
import signal
import subprocess
import tempfile
import threading
import time

# Variables a build needs; every other one (tokens, agent sockets, the grader's own GRADER_*
# knobs) is left out, in both modes.
ENV_KEEP = ("PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "LD_LIBRARY_PATH", "CUDA_HOME", "CUDA_PATH", "CUDACXX",
            "CC", "CXX", "NVCC_CCBIN", "NVCC_PREPEND_FLAGS", "NVCC_APPEND_FLAGS", "PKG_CONFIG_PATH",
            "PYENV_ROOT", "PYENV_VERSION", "VIRTUAL_ENV", "CONDA_PREFIX")

_running = set()
_lock = threading.Lock()


def stop_all():
    """Kills every command still running (Ctrl-C of the class run)."""
    with _lock:
        for p in list(_running):
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except OSError:
                pass


def gpu_nodes():
    """The NVIDIA device nodes of this machine (none on a machine without a driver)."""
    return sorted(p for p in glob.glob("/dev/nvidia*") if os.path.exists(p))


class Sandbox:
    """`mode` bwrap or none; `course` the course folder (read-only inside); `hide` folders no
    sandboxed command may see (the submissions, the grades, the work folders)."""

    def __init__(self, mode, course, hide=()):
        self.mode, self.course = mode, pathlib.Path(course).resolve()
        hidden = [self.course / "solutions"] + [pathlib.Path(h).resolve() for h in hide]
        self.hide = sorted({h for h in hidden if h.is_dir()})

    def environment(self, gpu, scratch):
        env = {k: os.environ[k] for k in ENV_KEEP if k in os.environ}
        env["TMPDIR"] = "/tmp" if self.mode == "bwrap" else str(scratch)
        if gpu is not None:
            # Indices as nvidia-smi and Slurm number the GPUs (PCI bus order), not CUDA's own.
            env["CUDA_DEVICE_ORDER"] = "PCI_BUS_ID"
            env["CUDA_VISIBLE_DEVICES"] = str(gpu)
        else:
            # No GPU for this command (a build, or --gpus none): bubblewrap binds no device node
            # then, and without a sandbox CUDA must still see none, or every test would run on
            # whatever GPU the machine has.
            env["CUDA_VISIBLE_DEVICES"] = ""
        return env

    def wrap(self, argv, cwd, binds=(), devices=False):
        """The command line that runs argv in the sandbox. `binds`: [("rw" or "ro", folder)], in
        order (a later one mounts over an earlier one): the only writable folders, and folders
        shown read-only although hidden (the student's copy, their build during the tests).
        `devices`: the GPU device nodes are passed through."""
        if self.mode == "none":
            return list(argv)
        b = ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev"]
        if devices:
            for n in gpu_nodes():
                b += ["--dev-bind", n, n]
        b += ["--proc", "/proc", "--tmpfs", "/tmp", "--tmpfs", "/run",
              "--ro-bind-try", "/run/nvidia-persistenced", "/run/nvidia-persistenced",
              "--ro-bind", str(self.course), str(self.course)]  # again, should it lie under /tmp
        for h in self.hide:
            b += ["--tmpfs", str(h)]
        for mode, p in binds:
            b += ["--bind" if mode == "rw" else "--ro-bind", str(p), str(p)]
        uid = os.getuid() or 65534  # root outside: nobody inside (and no capabilities either way)
        gid = os.getgid() or 65534
        b += ["--unshare-all", "--unshare-user", "--uid", str(uid), "--gid", str(gid), "--cap-drop", "ALL",
              "--die-with-parent", "--new-session", "--hostname", "grading", "--chdir", str(cwd), "--"]
        return b + list(argv)

    def run(self, argv, cwd, log, binds=(), devices=False, gpu=None, timeout=None):
        """Runs argv (in the sandbox), appending its output to `log`. Returns (exit code, output,
        timed out). `binds` and `devices` as for wrap(); `gpu`: the device to pin
        (CUDA_VISIBLE_DEVICES; its nodes are passed through) or None."""
        cmd = self.wrap(argv, cwd, binds, devices or gpu is not None)
        scratch = next((p for m, p in binds if m == "rw"), cwd)
        env = self.environment(gpu, scratch)
        with open(log, "a", encoding="utf-8", errors="replace") as f:
            f.write("$ " + " ".join(argv) + "\n")
        t0 = time.monotonic()
        try:
            p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 stdin=subprocess.DEVNULL, start_new_session=True)
        except OSError as e:
            return 127, f"cannot start {cmd[0]}: {e}\n", False
        with _lock:
            _running.add(p)
        timed_out = False
        try:
            out, _ = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(p.pid, signal.SIGKILL)
            out, _ = p.communicate()
        finally:
            with _lock:
                _running.discard(p)
        text = out.decode("utf-8", errors="replace")
        if timed_out:
            text += f"\n[stopped: over the time limit of {timeout} s]\n"
        with open(log, "a", encoding="utf-8", errors="replace") as f:
            f.write(text + f"[exit code {p.returncode} after {time.monotonic() - t0:.1f} s]\n")
        return p.returncode, text, timed_out


def probe(course, hide=()):
    """None when bwrap can run here, else why not (bwrap missing, user namespaces refused)."""
    if not shutil.which("bwrap"):
        return "bwrap is not installed (Debian/Ubuntu package: bubblewrap)"
    with tempfile.TemporaryDirectory() as d:
        box = Sandbox("bwrap", course, hide)
        log = pathlib.Path(d) / "probe.log"
        rc, out, _ = box.run(["sh", "-c", "echo ok > probe.txt"], cwd=d, log=log, binds=[("rw", d)], timeout=60)
        if rc != 0 or not (pathlib.Path(d) / "probe.txt").is_file():
            return f"bwrap does not run here (exit code {rc}): {out.strip()[:500]}"
    return None
