"""A schema's `samples:`: kinds whose resources are data the game reads (a game's
levels, say), with sample files for `prc-tools new` to copy into a new folder.

    samples:
      levels:
        what: level                              # what one resource is
        files:                                   # paths from the schema file's folder
          - {file: plugin-samples/levels/100.dat, id: 100}
        about: plugin-samples/levels/README.txt  # written as README.txt beside them

Each file becomes a raw resource of the kind's type (its `types:` code) with that
id; the folder builds into a plain database (no `pINF`), as the game's own data
is. Only the paths are checked here (the files are read by `prc-tools new`), so
reading a schema stays one file's work.
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from prc_tools.frozen import Frozen
from prc_tools.plugin_words import KINDS
from prc_tools.safeyaml import brief

# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any

MAX_SAMPLE_FILES = 64
_SAMPLE_FIELDS = {"what", "files", "about"}
_FILE_FIELDS = {"file", "id"}


class SampleFile(Frozen):
    path: Path  # where the sample is (resolved from the schema file's folder)
    id: int  # its resource id


class Sample(Frozen):
    """A data kind's sample resources and the note that says their format."""

    what: str  # one resource is a ... ("level")
    files: tuple[SampleFile, ...]
    about: Path | None = None  # the README written beside them


def parse_samples(value: Any, types: Mapping[str, str], required: Mapping[str, object],
                  source: str, fail: Callable[[str, str], Exception]) -> dict[str, Sample]:
    """The checked `samples:` of a schema read from `source`; `fail(where, problem)`
    makes the error to raise."""
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise fail("samples", "must be a mapping of kind: sample")
    base = Path(source).parent
    found: dict[str, Sample] = {}
    for kind, entry in value.items():
        where = f"samples.{kind}"
        if kind not in types:
            raise fail("samples", f"{brief(kind)} is not one of the types' kinds")
        if kind in KINDS or kind in required:
            raise fail(where, "a kind with samples is data, not a plugin with pictures"
                              " or sounds (no board, pieces, sound or required: rules)")
        if not isinstance(entry, dict) or set(entry) - _SAMPLE_FIELDS:
            unknown = sorted(set(entry) - _SAMPLE_FIELDS) if isinstance(entry, dict) else []
            raise fail(where, f"unknown field {brief(unknown[0])}" if unknown
                       else "must be a mapping with what, files and about")
        what = entry.get("what")
        if not isinstance(what, str) or not what.strip():
            raise fail(f"{where}.what", "must be a non-empty text (what one resource is)")
        files = entry.get("files")
        if not isinstance(files, list) or not 1 <= len(files) <= MAX_SAMPLE_FILES:
            raise fail(f"{where}.files", f"must be a list of 1 to {MAX_SAMPLE_FILES}"
                                         " {file: PATH, id: N}")
        made = []
        for index, item in enumerate(files):
            at = f"{where}.files[{index}]"
            if not isinstance(item, dict) or set(item) != _FILE_FIELDS:
                raise fail(at, "must be {file: PATH, id: N}")
            number = item["id"]
            if isinstance(number, bool) or not isinstance(number, int) \
                    or not 0 <= number <= 0xFFFF:
                raise fail(f"{at}.id", f"must be an integer in 0..65535, not {brief(number)}")
            made.append(SampleFile(_path(item["file"], base, f"{at}.file", fail), number))
        names = [f.path.name for f in made]
        if len(set(names)) != len(names) or len({f.id for f in made}) != len(made):
            raise fail(f"{where}.files", "each file needs a name and an id of its own")
        about = entry.get("about")
        found[kind] = Sample(what.strip(), tuple(made),
                             None if about is None else _path(about, base, f"{where}.about",
                                                              fail))
    return found


def _path(value: Any, base: Path, where: str,
          fail: Callable[[str, str], Exception]) -> Path:
    """A relative path inside the schema's folder (no `..`, not absolute)."""
    if not isinstance(value, str) or not value.strip():
        raise fail(where, "must be a path from the schema file's folder")
    relative = PurePosixPath(value)
    if relative.is_absolute() or ".." in relative.parts or "\\" in value:
        raise fail(where, f"{brief(value)} must be a path inside the schema file's folder")
    return base.joinpath(*relative.parts)
