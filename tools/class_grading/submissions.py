# SPDX-License-Identifier: MIT
"""The class's entries and a safe copy of each.

An entry is a folder that mirrors starter/, or a .zip / .tar.gz / .tgz / .tar of one (what
learning-management systems export), possibly with one extra top-level folder inside. The
student's name is the entry's name without its archive suffix.

A submission is hostile input: archives are unpacked member by member (no absolute paths, no
`..`, no links, devices or other special files, at most `max_bytes` in all), a folder is copied
file by file without following links, and the copy is made read-only before anything is
built from it."""
import hashlib
import os
import pathlib
import re
import shutil
import stat
import tarfile
import zipfile

ARCHIVES = {".tar.gz": "tar", ".tgz": "tar", ".tar": "tar", ".zip": "zip"}
# Folders archive tools add and nobody means to submit.
JUNK = {"__MACOSX", ".git", ".svn"}


class StagingError(Exception):
    """A submission that cannot be copied: an unreadable archive, one too large."""


class Entry:
    """One student's submission: `name` (used in file names and the gradebook), `path`, `kind`
    (folder, zip or tar)."""

    def __init__(self, name, path, kind):
        self.name, self.path, self.kind = name, pathlib.Path(path), kind

    def __repr__(self):
        return f"Entry({self.name!r}, {str(self.path)!r}, {self.kind!r})"


def student_name(filename):
    """The student's name of an entry: its name without an archive suffix, reduced to
    characters that are safe in file names, XML and CSV (others become _)."""
    for suffix in ARCHIVES:
        if filename.lower().endswith(suffix):
            filename = filename[: -len(suffix)]
            break
    return re.sub(r"[^A-Za-z0-9._@+-]", "_", filename).lstrip(".") or "_"


def find_entries(folder):
    """([Entry] sorted by name, [names left out]): the folder's subfolders and archives; other
    files and hidden names are left out. Two entries with one student name are an error."""
    entries, left_out, seen = [], [], {}
    for p in sorted(pathlib.Path(folder).iterdir()):
        if p.name.startswith(".") or p.name in JUNK:
            continue
        kind = "folder" if p.is_dir() and not p.is_symlink() else next(
            (k for s, k in ARCHIVES.items() if p.name.lower().endswith(s) and p.is_file()), None)
        if kind is None:
            left_out.append(p.name)
            continue
        name = student_name(p.name)
        if name in seen:
            raise ValueError(f"{seen[name]} and {p.name} are both the submission of {name!r}: keep one")
        seen[name] = p.name
        entries.append(Entry(name, p, kind))
    return sorted(entries, key=lambda e: e.name), left_out


def entry_hash(entry):
    """sha256 of what the student handed in: the archive's bytes, or a folder's file names and
    contents (links left out, as the copy leaves them out)."""
    h = hashlib.sha256()
    if entry.kind != "folder":
        with open(entry.path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                h.update(block)
        return h.hexdigest()
    for rel, path in sorted(_folder_files(entry.path)):
        h.update(rel.encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


def _folder_files(top):
    """(relative posix path, path) of each regular file under `top`, links not followed."""
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = [d for d in dirnames if d not in JUNK and not os.path.islink(os.path.join(dirpath, d))]
        for f in filenames:
            p = pathlib.Path(dirpath) / f
            if not p.is_symlink() and p.is_file():
                yield p.relative_to(top).as_posix(), p


def _safe_relative(name):
    """The member's path as relative parts, or None when it would land outside the copy."""
    parts = pathlib.PurePosixPath(name.replace("\\", "/")).parts
    if not parts or name.startswith(("/", "\\")) or ".." in parts or ":" in parts[0]:
        return None
    return [p for p in parts if p not in ("", ".")] or None


class _Writer:
    """Writes files under `top`, counting bytes against `max_bytes`."""

    def __init__(self, top, max_bytes):
        self.top, self.left, self.notes = pathlib.Path(top), max_bytes, []

    def write(self, name, stream):
        parts = _safe_relative(name)
        if parts is None:
            self.notes.append(f"left out {name!r}: a path outside the submission")
            return
        if any(p in JUNK for p in parts):
            return
        target = self.top.joinpath(*parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "wb") as out:
            for block in iter(lambda: stream.read(1 << 16), b""):
                self.left -= len(block)
                if self.left < 0:
                    raise StagingError("larger than the limit (--max-submission-mb)")
                out.write(block)

    def skip(self, name, what):
        self.notes.append(f"left out {name!r}: {what}")


def _unpack_zip(path, writer):
    try:
        with zipfile.ZipFile(path) as z:
            for info in z.infolist():
                kind = stat.S_IFMT(info.external_attr >> 16)  # 0 when the archiver recorded no file type
                if info.is_dir():
                    continue
                if kind and kind != stat.S_IFREG:
                    writer.skip(info.filename, "a link or special file")
                    continue
                with z.open(info) as stream:
                    writer.write(info.filename, stream)
    except (zipfile.BadZipFile, OSError, RuntimeError, EOFError) as e:
        raise StagingError(f"not a readable .zip archive ({e})") from e


def _unpack_tar(path, writer):
    try:
        with tarfile.open(path, "r:*") as t:
            for m in t:
                if m.isdir():
                    continue
                if not m.isfile():
                    writer.skip(m.name, "a link or special file")
                    continue
                writer.write(m.name, t.extractfile(m))
    except (tarfile.TarError, OSError, EOFError) as e:
        raise StagingError(f"not a readable tar archive ({e})") from e


def _copy_folder(top, writer):
    for dirpath, dirnames, filenames in os.walk(top):
        for name in dirnames + filenames:
            p = pathlib.Path(dirpath) / name
            if p.is_symlink():
                writer.skip(p.relative_to(top).as_posix(), "a link")
    for rel, p in _folder_files(top):
        with open(p, "rb") as stream:
            writer.write(rel, stream)


def find_root(top, lesson_dirs):
    """The folder of the copy that mirrors starter/: the shallowest (at most two levels down)
    that holds a lesson folder; else the only folder inside `top` (an archive's extra
    top-level folder); else `top` itself (every lesson's files are then missing)."""
    top = pathlib.Path(top)
    level = [top]
    for _ in range(3):
        for d in level:
            if any((d / l).is_dir() for l in lesson_dirs):
                return d
        level = sorted(c for d in level for c in d.iterdir()
                       if c.is_dir() and c.name not in JUNK and not c.name.startswith("."))
    inside = [c for c in top.iterdir() if c.name not in JUNK and not c.name.startswith(".")]
    return inside[0] if len(inside) == 1 and inside[0].is_dir() else top


def stage(entry, dest, lesson_dirs, max_bytes):
    """Copies or unpacks the entry into `dest` (which must not exist), makes the copy
    read-only and returns (the folder that mirrors starter/, [notes on what was left out])."""
    dest = pathlib.Path(dest)
    dest.mkdir(parents=True)
    writer = _Writer(dest, max_bytes)
    {"zip": _unpack_zip, "tar": _unpack_tar, "folder": _copy_folder}[entry.kind](entry.path, writer)
    root = find_root(dest, lesson_dirs)
    make_read_only(dest)
    return root, writer.notes


def make_read_only(top):
    for dirpath, dirnames, filenames in os.walk(top, topdown=False):
        for f in filenames:
            os.chmod(os.path.join(dirpath, f), 0o444)
        os.chmod(dirpath, 0o555)


def remove_tree(path):
    """Removes a folder, read-only copies included; a file or a link (not what it points to)."""
    path = pathlib.Path(path)
    if path.is_symlink() or path.is_file():
        path.unlink()
        return
    if not path.exists():
        return
    for dirpath, dirnames, filenames in os.walk(path):
        os.chmod(dirpath, 0o755)
    shutil.rmtree(path)
