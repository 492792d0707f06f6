"""Output files: checked before any work is done, then written as shell redirection and
``cp`` write them, once the whole output is made. A user's output (``write_output``) that
exists as a regular file is written through, as ``>`` writes it: the same file, so its
hard links, owner and mode stay, its space reserved before a byte of it changes (a full
disk leaves the old text whole). A new file, and every file dicelab keeps for itself
(``write_atomic``: checkpoints, networks, kept answers), is written through a temporary
file in the same folder, moved into place whole, so a failed run leaves no partial file.
A character or block device or a named pipe is written through (``-o /dev/null`` stays a
device), and ``/dev/stdout`` or ``/dev/fd/N`` through the open descriptor; a symbolic
link's target is written and the link kept, and a link that loops is one line. New files
follow the umask; a file replaced keeps its mode. Temporary files name their process, so
that a later run removes those of a killed one. Input files (sheets, rules) are read
whole up to a size limit."""

from __future__ import annotations

import errno
import fcntl
import os
import re
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from analyzer.errors import UserError

_WORDS = {
    errno.ENOSPC: "no space left on device (the disk is full)",
    errno.EDQUOT: "disk quota exceeded",
    errno.EROFS: "read-only file system",
    errno.ENAMETOOLONG: "file name too long",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
}


def os_error_words(exc: OSError) -> str:
    """What went wrong in ``exc``, in lower-case words without the file name."""
    return _WORDS.get(exc.errno) or (exc.strerror or str(exc)).lower()


def os_error_in(exc: BaseException) -> OSError | None:
    """The ``OSError`` that ``exc`` is or was raised while handling (a library may
    raise another error as it cleans up after a full disk), or None."""
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, OSError):
            return exc
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return None


def shown(path: str | Path, most: int = 120) -> str:
    """``path`` quoted for a message, its middle cut when it is very long."""
    text = str(path)
    if len(text) > most:
        text = f"{text[:most // 2]}...{text[-most // 2:]}"
    return repr(text)


def why_not_writable(path: Path) -> str:
    """Why ``path`` (which ``os.access`` refused) cannot be written."""
    try:
        if os.statvfs(path).f_flag & os.ST_RDONLY:
            return "read-only file system"
    except OSError:
        pass
    return "permission denied"


def _check_name_lengths(path: Path) -> None:
    """Each name in ``path`` within the file system's limit (NAME_MAX)."""
    try:
        most = os.pathconf(_existing_ancestor(path), "PC_NAME_MAX")
    except (OSError, ValueError):
        most = 255
    for name in path.parts:
        size = len(os.fsencode(name))
        if size > most:
            raise UserError(f"cannot write {shown(path)}: file name too long ({size} "
                            f"bytes; at most {most} bytes a name)")


def _existing_ancestor(path: Path) -> Path:
    for folder in path.absolute().parents:
        try:
            if folder.is_dir():
                return folder
        except OSError:
            continue
    return Path("/")


def is_regular_file(path: Path) -> bool:
    """``path`` is a regular file (not a link, folder, device or pipe, which a reader of
    our own files must not open: a pipe would block it)."""
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def is_stream(path: Path) -> bool:
    """``path`` exists and is a character or block device or a named pipe (written
    through, never replaced)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISBLK(mode) or stat.S_ISFIFO(mode)


def _probe(folder: Path, what: str) -> None:
    """Create and remove a temporary file in ``folder``: the one sure test that files can be
    written there (permissions, read-only or virtual file systems such as /proc)."""
    try:
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=".dicelab-probe-")
    except OSError as exc:
        raise UserError(f"cannot write {what}: {os_error_words(exc)} in folder "
                        f"{shown(folder)}") from None
    os.close(fd)
    os.unlink(tmp)


def _check_space(folder: Path, what: str) -> None:
    """Refuse a folder on a full disk before any work is done."""
    try:
        disk = os.statvfs(folder)
    except OSError:
        return
    free = disk.f_bfree if os.geteuid() == 0 else disk.f_bavail
    if free == 0 and disk.f_blocks > 0:
        raise UserError(f"cannot write {what}: no space left on device (the disk is full) "
                        f"in folder {shown(folder)}")


def _check_parent(path: Path, parent: Path, what: str) -> None:
    """The folder ``parent`` that ``path`` goes into must exist (and be a folder)."""
    if parent.exists() and not parent.is_dir():
        raise UserError(f"cannot write {what}: {shown(parent)} is a file, not a folder")
    if not parent.is_dir():
        raise UserError(f"cannot write {what}: folder {shown(parent)} does not exist")


def _target(path: Path) -> Path:
    """The file that writing ``path`` writes: a symbolic link's target (its chain
    followed; a dangling link's missing target), else ``path``. A link that loops is one
    ``UserError`` line."""
    if not path.is_symlink():
        return path
    try:
        return Path(os.path.realpath(path, strict=True))
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UserError(f"cannot write {shown(path)}: it is a symbolic link that loops "
                            "back to itself; give a file name") from None
        return Path(os.path.realpath(path))


def _check_file(path: Path) -> None:
    target = _target(path)
    if target.is_dir():
        raise UserError(f"output path {shown(path)} is a directory; give a file name")
    if target.is_socket():
        raise UserError(f"output path {shown(path)} is a socket; give a file, a device or "
                        "a named pipe")
    if is_stream(target):
        if not os.access(target, os.W_OK):
            raise UserError(f"cannot write {shown(path)}: {why_not_writable(target)}")
        return
    parent = target.parent if str(target.parent) else Path(".")
    _check_parent(target, parent, shown(path))
    if target.exists() and not os.access(target, os.W_OK):
        raise UserError(f"cannot write {shown(path)}: {why_not_writable(target)}")
    if not is_regular_file(target):  # a new file: made in its folder
        _probe(parent, shown(path))
        _check_space(parent, shown(path))


_NAMED_FDS = {"/dev/stdin": 0, "/dev/stdout": 1, "/dev/stderr": 2}


def own_descriptor(path: str | Path) -> int | None:
    """The file descriptor of this process that ``path`` names (``/dev/stdout``,
    ``/dev/fd/N``, ``/proc/self/fd/N``), or None: such a path is written through the
    descriptor, as the shell would, whatever it is open on (a file opened for appending
    keeps what it holds)."""
    text = os.path.abspath(path)
    if text in _NAMED_FDS:
        return _NAMED_FDS[text]
    found = re.fullmatch(rf"/(?:dev/fd|proc/self/fd|proc/{os.getpid()}/fd)/(\d+)", text)
    return int(found.group(1)) if found else None


def _check_descriptor(path: Path, fd: int) -> None:
    try:
        mode = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_ACCMODE
    except OSError:
        mode = None
    if mode not in (os.O_WRONLY, os.O_RDWR):
        raise UserError(f"cannot write {shown(path)}: file descriptor {fd} is not open for "
                        "writing")


def check_writable(path: str | Path) -> Path:
    """Fail early, with one line, if ``path`` cannot be written."""
    if isinstance(path, str) and path.endswith(os.sep):
        raise UserError(f"output path {shown(path)} ends in {os.sep}, a folder's name; give "
                        "a file name")
    path = Path(path)
    fd = own_descriptor(path)
    if fd is not None:
        _check_descriptor(path, fd)
        return path
    _check_name_lengths(path)
    try:
        _check_file(path)
    except OSError as exc:
        raise UserError(f"cannot write {shown(path)}: {os_error_words(exc)}") from None
    return path


def check_folder_writable(path: Path, what: str) -> None:
    """Fail early, with one line, if the folder ``path`` (created later if missing) cannot
    take files; ``what`` names it."""
    _check_name_lengths(path)
    try:
        if path.exists() and not path.is_dir():
            raise UserError(f"cannot write {what} {shown(path)}: it is a file")
        parent = path.parent if str(path.parent) else Path(".")
        if not path.exists():
            _check_parent(path, parent, f"{what} {shown(path)}")
        folder = path if path.exists() else parent
        _probe(folder, f"{what} {shown(path)}")
        _check_space(folder, f"{what} {shown(path)}")
    except OSError as exc:
        raise UserError(f"cannot write {what} {shown(path)}: {os_error_words(exc)}") from None


def _temporary_prefix(name: str) -> str:
    """The start of the name of a temporary file for ``name``: it names this process, so
    that one a killed run left is known for stale (``remove_dead_temporaries``)."""
    return f".{name[:40]}.{os.getpid()}."


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` runs (on this machine)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process
        return True
    return True


def remove_dead_temporaries(folder: Path, name: str = "") -> None:
    """Remove the temporary files that runs killed while writing (``kill -9``) left in
    ``folder``, ``.NAME.PID.xxxxxxxx.tmp`` with PID gone; only those for ``name`` if
    given (the start of a file name). Best effort: what cannot be removed stays."""
    start = f".{name[:40]}." if name else "."
    pattern = re.compile(r"\.(.+)\.(\d+)\.[a-z0-9_]{8}\.tmp")
    try:
        entries = [e for e in os.scandir(folder) if e.name.startswith(start)]
    except OSError:
        return
    for entry in entries:
        found = pattern.fullmatch(entry.name)
        if found and entry.is_file(follow_symlinks=False) and \
                not process_alive(int(found.group(2))):
            try:
                os.unlink(entry.path)
            except OSError:
                pass


def current_umask() -> int:
    """The process's umask (read by setting it and setting it back)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _mode_for(target: Path) -> int:
    """The mode of the file written at ``target``: the old file's, else the umask's."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        return 0o666 & ~current_umask()


def _replace(target: Path, data: bytes) -> None:
    """Write ``target`` through a temporary file in its folder, moved into place whole."""
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=_temporary_prefix(target.name),
                               suffix=".tmp")
    try:
        os.fchmod(fd, _mode_for(target))
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, target)
    except BaseException:
        if os.path.lexists(tmp):
            os.unlink(tmp)
        raise


def _write_descriptor(fd: int, data: bytes) -> None:
    """Write ``data`` whole to the open file descriptor ``fd`` (after what this process
    already printed on standard output or error)."""
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _write_through(target: Path, data: bytes) -> None:
    """Write ``data`` into the existing regular file ``target`` as ``>`` would, keeping
    the file itself; its space is reserved first, so a full disk changes nothing."""
    fd = os.open(target, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0))
    try:
        if data:
            try:
                os.posix_fallocate(fd, 0, len(data))
            except OSError as exc:
                if exc.errno not in (errno.EOPNOTSUPP, errno.EINVAL):
                    raise
        view, done = memoryview(data), 0
        while done < len(data):
            done += os.pwrite(fd, view[done:], done)
        os.ftruncate(fd, len(data))
    finally:
        os.close(fd)


def write_output(path: str | Path, data: str | bytes) -> None:
    """Write a user's output ``data`` to ``path`` as ``>`` would: an existing regular
    file written through (the module's docstring); one ``UserError`` line if it cannot
    be done."""
    write_atomic(path, data, through=True)


def write_atomic(path: str | Path, data: str | bytes, through: bool = False) -> None:
    """Write ``data`` to ``path`` as shell redirection would, a regular file atomically
    (see the module's docstring; ``through``: an existing one written through); one
    ``UserError`` line if it cannot be done."""
    path = check_writable(path)
    target, fd = _target(path), own_descriptor(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        if fd is not None:
            _write_descriptor(fd, raw)  # a closed pipe ends the run as on stdout
        elif is_stream(target):
            with open(target, "wb") as fh:
                fh.write(raw)
        elif through and is_regular_file(target):
            _write_through(target, raw)
        else:
            _replace(target, raw)
    except BrokenPipeError:
        if fd is None:
            raise UserError(f"cannot write {shown(path)}: its reader closed it") from None
        drop_stdout()
        raise
    except OSError as exc:
        raise UserError(f"cannot write {shown(path)}: {os_error_words(exc)}") from None


MAX_INPUT_BYTES = 1 << 20  # sheets, rules and points files are a few kB


def read_input_text(path: str | Path, what: str, most: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of the input file ``path`` (a byte-order mark before it, as some
    editors write, left out), read up to ``most`` bytes: a larger one (or a device that
    never ends, such as /dev/zero) is one ``UserError`` line naming it as ``what``.
    ``OSError`` and ``UnicodeDecodeError`` are the caller's to word."""
    with open(path, "rb") as fh:
        data = fh.read(most + 1)
    if len(data) > most:
        raise UserError(f"{what} {shown(path)} is larger than {most // 1024} KiB; accepted: "
                        "a small text file")
    return data.decode("utf-8-sig")


def read_document(path: str | Path, what: str, parse: Callable[[str], Any],
                  syntax: type[Exception], kind: str, numbers: str, shape: str) -> Any:
    """The input file ``path`` (``what``: how messages name it) read by ``parse``, its
    text's parser (``syntax``: the error it raises, ``kind``: the format's name); every
    problem is one ``UserError`` line, a number too long to read or nesting too deep
    naming what such a file holds (``numbers``, ``shape``)."""
    named = f"{what} {str(path)!r}"
    try:
        return parse(read_input_text(path, what))
    except UserError:  # the file's own fault, said already (too large, ...)
        raise
    except FileNotFoundError:
        raise UserError(f"{named} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read {named}: {read_problem(exc)}") from None
    except syntax as exc:
        raise UserError(f"{named} is not valid {kind}: {exc}") from None
    except ValueError:  # a whole number of more digits than Python converts
        raise UserError(f"{named} holds a number too long to read; accepted: {numbers}") \
            from None
    except RecursionError:
        raise UserError(f"{named} is nested too deeply; accepted: {shape}") from None


def read_problem(exc: OSError | UnicodeDecodeError) -> str:
    """Why an input file could not be read, in words (``read_input_text``'s errors)."""
    if isinstance(exc, UnicodeDecodeError):
        return f"not UTF-8 text (byte {exc.start})"
    return "it is a folder" if exc.errno == errno.EISDIR else os_error_words(exc)


CLOSED: set[str] = set()  # the standard streams the process started without (``>&-``)


def open_closed_streams() -> None:
    """Give each standard stream the process started without (closed by the shell,
    ``>&-``) the null device in its place, and remember it (``CLOSED``): writing to it is
    one line where it matters (``write_stdout``), reading from it too (``coach``)."""
    for name, mode in (("stdin", "r"), ("stdout", "w"), ("stderr", "w")):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, mode, encoding="utf-8"))
            CLOSED.add(name)


def write_stdout(text: str) -> None:
    """Print ``text`` on standard output at once; a full disk behind it, or standard
    output closed, is one ``UserError`` line. A reader that closed the pipe (``| head``)
    ends the run quietly, as it would end ``cat`` (``BrokenPipeError``, exit status 1)."""
    if text and "stdout" in CLOSED:
        raise UserError("cannot write standard output: it is closed; give --output FILE")
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except OSError as exc:
        drop_stdout()
        if exc.errno == errno.EPIPE:
            raise
        raise UserError(f"cannot write standard output: {os_error_words(exc)}") from None


def drop_stdout() -> None:
    """Point standard output at the null device, so that what a failed write left in its
    buffer is not written again (nor fails again) when Python exits."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
        os.close(null)
    except (OSError, ValueError):
        pass


def make_folder(path: Path) -> None:
    """Create the folder ``path`` (and its parents) if needed; one ``UserError`` line
    naming it when it cannot be made (a file in the way, no permission)."""
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot make the folder {str(path)!r}: "
                        f"{exc.strerror or exc}") from None
