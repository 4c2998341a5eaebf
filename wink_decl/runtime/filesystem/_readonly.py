"""``ReadOnlyFilesystem``: another filesystem's reads, with every change refused."""

from __future__ import annotations

from wink_decl.prompt.filesystem_protocol import Filesystem, FilesystemSnapshot
from wink_decl.runtime.filesystem._errors import FilesystemError

__all__ = ["ReadOnlyFilesystem"]


class ReadOnlyFilesystem:
    """Lets tools read ``inner`` and refuses, with a ``FilesystemError``, every write or delete.

    For runs that may look at a workspace but must not change it.
    """

    __slots__ = ("_inner",)

    def __init__(self, inner: Filesystem) -> None:
        """Guard ``inner``."""
        self._inner = inner

    @property
    def root_label(self) -> str:
        """The guarded filesystem's label, marked read-only."""
        return f"{self._inner.root_label} (read-only)"

    def normalise(self, path: str) -> str:
        """As the guarded filesystem normalises it."""
        return self._inner.normalise(path)

    def exists(self, path: str) -> bool:
        """Whether a file or folder is at ``path``."""
        return self._inner.exists(path)

    def is_file(self, path: str) -> bool:
        """Whether a file is at ``path``."""
        return self._inner.is_file(path)

    def read_text(self, path: str) -> str:
        """The file's text."""
        return self._inner.read_text(path)

    def list_dir(self, path: str = ".") -> tuple[str, ...]:
        """The names directly inside ``path``."""
        return self._inner.list_dir(path)

    def write_text(self, path: str, text: str) -> None:
        """Refused."""
        del text
        self._refuse(path, "written")

    def delete(self, path: str) -> None:
        """Refused."""
        self._refuse(path, "deleted")

    def snapshot(self) -> FilesystemSnapshot:
        """The guarded filesystem's snapshot (nothing here changes it)."""
        return self._inner.snapshot()

    def restore(self, snapshot: FilesystemSnapshot) -> None:
        """Restore the guarded filesystem (nothing here changed it)."""
        self._inner.restore(snapshot)

    def _refuse(self, path: str, verb: str) -> None:
        shown = self._inner.normalise(path)
        raise FilesystemError(
            f"'{shown}' cannot be {verb}: the filesystem is read-only.", path=shown
        )
