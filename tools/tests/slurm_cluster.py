#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A real single-node Slurm cluster for one command, for CI: it starts munged (with a key
generated for this run), slurmctld and slurmd, all private to a temporary folder (their
own sockets, ports, state and logs), waits until the node is idle, runs the command with
SLURM_CONF pointing at the cluster, then cancels what is left, stops the daemons and removes
the folder.

    python3 tools/tests/slurm_cluster.py [--keep DIR] [--timeout S] -- COMMAND [ARGS...]

It installs nothing. It needs Debian's slurm-wlm and munge (apt-get install -y slurm-wlm
munge: slurmctld, slurmd, munged and the client commands) and must run as root, as the
daemons do here (SlurmUser=root). No cgroups: processes are tracked through /proc
(ProctrackType=proctrack/linuxproc), tasks get no binding (TaskPlugin=task/none), and
there is no accounting database (sacct does not work; `scontrol show job` keeps a
finished job for MinJobAge seconds). The node has this machine's CPUs and memory, as
`slurmd -C` reports them, and no GRES: jobs must not ask for GPUs.

Exit status: the command's, or 2 when the cluster could not be started (the daemons' logs
are printed then). Taking about 5 to 10 s to start and 2 to stop."""
import argparse
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import tempfile
import time

NEEDED = ["munged", "slurmctld", "slurmd", "sinfo", "squeue", "scontrol", "scancel", "sbatch"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def node_line():
    """`NodeName=host CPUs=… RealMemory=…` as slurmd detects this machine."""
    out = subprocess.run(["slurmd", "-C"], capture_output=True, text=True, check=True).stdout
    return next(line for line in out.splitlines() if line.startswith("NodeName="))


def slurm_conf(d, host, node):
    ctld_port, d_port = free_port(), free_port()
    return f"""# written by tools/tests/slurm_cluster.py for one run
ClusterName=cudalessons
SlurmctldHost={host}(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmdPort={d_port}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={d}/munge/munge.socket
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/slurmctld.log
SlurmdLogFile={d}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MinJobAge=600
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=5
{node} NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=debug Nodes={host} Default=YES MaxTime=INFINITE State=UP
"""


class Cluster:
    def __init__(self, folder):
        self.d = pathlib.Path(folder)
        self.procs = []
        self.env = dict(os.environ, SLURM_CONF=str(self.d / "slurm.conf"))

    def start(self, timeout):
        d = self.d
        for sub, mode in (("munge", 0o700), ("state", 0o700), ("spool", 0o755)):
            (d / sub).mkdir(mode=mode)
        # A fresh key: munged wants it readable by its user only.
        key = d / "munge" / "munge.key"
        key.write_bytes(os.urandom(1024))
        key.chmod(0o400)
        node = node_line()
        host = node.split()[0].split("=", 1)[1]
        (d / "slurm.conf").write_text(slurm_conf(d, host, node))
        self.spawn(["munged", "--foreground", "--force", f"--key-file={key}", f"--socket={d}/munge/munge.socket",
                    f"--pid-file={d}/munge/munged.pid", f"--log-file={d}/munge/munged.log",
                    f"--seed-file={d}/munge/munged.seed"], d / "munged.out")
        self.wait_for(lambda: (d / "munge" / "munge.socket").exists(), 15, "munged did not open its socket")
        self.spawn(["slurmctld", "-D", "-i", "-f", str(d / "slurm.conf")], d / "slurmctld.out")
        self.wait_for(lambda: self.quiet(["scontrol", "ping"]) and "UP" in self.out(["scontrol", "ping"]), timeout,
                      "slurmctld did not answer")
        self.spawn(["slurmd", "-D", "-f", str(d / "slurm.conf"), "-N", host], d / "slurmd.out")
        self.wait_for(lambda: self.out(["sinfo", "-h", "-N", "-o", "%t"]).strip() == "idle", timeout,
                      "the node did not become idle")

    def spawn(self, cmd, log):
        self.procs.append(subprocess.Popen(cmd, stdout=open(log, "w"), stderr=subprocess.STDOUT, env=self.env))

    def out(self, cmd):
        return subprocess.run(cmd, capture_output=True, text=True, env=self.env).stdout

    def quiet(self, cmd):
        return subprocess.run(cmd, capture_output=True, env=self.env).returncode == 0

    def wait_for(self, ready, timeout, what):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(p.poll() is not None for p in self.procs):
                raise RuntimeError(what + ": a daemon exited")
            if ready():
                return
            time.sleep(0.5)
        raise RuntimeError(f"{what} within {timeout} s")

    def stop(self):
        if len(self.procs) >= 2:  # slurmctld runs: cancel what is left, and let slurmd end it
            jobs = self.out(["squeue", "-h", "-o", "%A"]).split()
            if jobs:
                subprocess.run(["scancel"] + jobs, env=self.env, capture_output=True)
                deadline = time.monotonic() + 30
                while self.out(["squeue", "-h", "-o", "%A"]).split() and time.monotonic() < deadline:
                    time.sleep(0.5)
        for p in reversed(self.procs):  # slurmd, slurmctld, munged: each one this script started
            if p.poll() is None:
                p.terminate()
                try:
                    p.wait(15)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()

    def logs(self):
        text = ""
        for name in ["munged.out", "munge/munged.log", "slurmctld.out", "slurmctld.log", "slurmd.out", "slurmd.log"]:
            f = self.d / name
            if f.is_file():
                text += f"--- {f}\n" + "".join(f.read_text(errors="replace").splitlines(True)[-30:])
        return text


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--keep", metavar="DIR", help="build the cluster in DIR (created) and keep it afterwards")
    ap.add_argument("--timeout", type=float, default=60, help="seconds to wait for each daemon (default 60)")
    ap.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND [ARGS...]")
    args = ap.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        ap.error("no command given (-- COMMAND ...)")
    missing = [c for c in NEEDED if not shutil.which(c)]
    if missing:
        print("slurm_cluster: not installed: " + ", ".join(missing) + " (apt-get install -y slurm-wlm munge)", file=sys.stderr)
        return 2
    if os.geteuid() != 0:
        print("slurm_cluster: must run as root (the daemons run as SlurmUser=root)", file=sys.stderr)
        return 2
    folder = pathlib.Path(args.keep) if args.keep else pathlib.Path(tempfile.mkdtemp(prefix="slurm-"))
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)
    cluster = Cluster(folder)
    t0 = time.monotonic()
    try:
        try:
            cluster.start(args.timeout)
        except (RuntimeError, subprocess.CalledProcessError, StopIteration) as e:
            print(f"slurm_cluster: {e}\n{cluster.logs()}", file=sys.stderr)
            return 2
        print(f"slurm_cluster: node idle after {time.monotonic() - t0:.1f} s (SLURM_CONF={cluster.env['SLURM_CONF']})",
              flush=True)
        return subprocess.run(command, env=cluster.env).returncode
    finally:
        t1 = time.monotonic()
        cluster.stop()
        print(f"slurm_cluster: stopped in {time.monotonic() - t1:.1f} s", flush=True)
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
