"""The installed package's version, one place for every output that reports it."""

from __future__ import annotations

__all__ = ["package_version"]


def package_version() -> str:
    """The installed distribution's version (package metadata; ``unknown`` when not installed).

    Returns
    -------
    str
        The version.

    Examples
    --------
    >>> isinstance(package_version(), str)
    True
    """
    from importlib import metadata

    try:
        return metadata.version("monopoly-trade")
    except metadata.PackageNotFoundError:
        return "unknown"
