"""Writing files so that no reader ever sees half of one.

Every file the project writes (saved states, reports, result files, plots,
checkpoints) goes through :func:`atomic_write`: the data goes to a temporary
file in the target's own folder, is flushed to disk (:func:`os.fsync`), and
then replaces the target in one step (:func:`os.replace`, atomic on POSIX and
Windows when both names are on one file system). A crash or a kill leaves
either the old file or the new one, never a mix; the temporary file is
removed when the write fails.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

PathLike = str | os.PathLike[str]
"""A path given as text or as a path object."""

NEW_FILE_MODE = 0o644
"""Permissions of a new file (:func:`tempfile.mkstemp` creates 0o600; our files are ordinary files)."""


def atomic_write(path: PathLike, data: str | bytes, *, encoding: str = "utf-8") -> None:
    """Write ``data`` (text is encoded with ``encoding``) to ``path`` atomically.

    An existing file keeps its permissions; a new one gets :data:`NEW_FILE_MODE`.
    The target's folder must exist.

    Parameters
    ----------
    path:
        The target file.
    data:
        The contents: text (encoded) or bytes (written as they are).
    encoding:
        The encoding of text.

    Raises
    ------
    OSError
        The folder does not exist or the file cannot be written; the target is
        then unchanged and the temporary file removed.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from models.files import atomic_write
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     atomic_write(Path(tmp) / "note.txt", "one line")
    ...     print(sorted(p.name for p in Path(tmp).iterdir()), oct((Path(tmp) / "note.txt").stat().st_mode & 0o777))
    ['note.txt'] 0o644
    """
    target = Path(path)
    payload = data.encode(encoding) if isinstance(data, str) else data
    mode = target.stat().st_mode & 0o777 if target.exists() else NEW_FILE_MODE
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


__all__ = ["NEW_FILE_MODE", "atomic_write"]
