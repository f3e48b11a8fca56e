"""What a plugin is: what its header (pINF) declares, where it lives, and the checks
that tell a usable plugin database from one that is not.

The lowest module of the store: the descriptions kept across runs, the loaded
plugins and the registry all speak of plugins in these terms.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from prc_tools import Database, PrcError
from prc_tools.frozen import Frozen, field
from prc_tools.plugin import pinf
from prc_tools.plugin.resource_codes import GAME_BITMAP_TYPE
from prc_tools.schema import registry

if TYPE_CHECKING:
    from prc_tools.bitmap.header import Header

# Where each member of a bitmap family starts, and its header.
MemberHeaders = list[tuple[int, "Header"]]


class InvalidPlugin(ValueError):
    """A database that is not a usable plugin; the message is one line."""


class NotADatabase(InvalidPlugin):
    """A file that cannot be read as a Palm database at all (a text file, a picture):
    the message is why, for the caller to put after what the file is not."""



class PluginInfo(Frozen):
    """What a plugin says about itself (its pINF), and where it lives."""

    name: str
    game: str
    kind: str
    configs: tuple[str, ...]
    version: int
    author: str
    creator: str
    db_type: str
    path: Path
    bundled: bool
    default: bool = False  # pINF `default: true`: preferred among bundled fallbacks
    fields: Mapping[str, object] = field(default_factory=dict, compare=False)

    def serves(self, slot: str) -> bool:
        return slot in self.configs

    @property
    def source(self) -> str:
        return "bundled" if self.bundled else "installed"


def describe(db: Database, path: Path, bundled: bool = False) -> PluginInfo:
    """Check a database's plugin header (pINF) and return what it declares.

    The checks are prc_tools' (the same `build` and `verify` make), against the
    installed game schemas.
    """
    try:
        header = pinf.read(db, registry())
    except PrcError as exc:
        raise InvalidPlugin(one_line(exc)) from None
    return PluginInfo(
        name=header.name.strip(),
        game=header.game.strip(),
        kind=header.kind,
        configs=header.configs,
        version=header.version,
        author=header.author.strip(),
        creator=db.creator,
        db_type=db.type,
        path=path,
        bundled=bundled,
        default=header.default,
        fields=header.fields,
    )


def check_contents(db: Database) -> None:
    """Every bitmap decodes and every sound reads (prc_tools' verify); InvalidPlugin if not.

    One member at a time within the per-file decode budget; nothing is kept.
    """
    from prc_tools import plugin  # the codecs are only needed once a plugin is used

    try:
        plugin.verify(db)
    except PrcError as exc:
        raise InvalidPlugin(one_line(exc)) from None


def check_structure(db: Database) -> dict[int, MemberHeaders]:
    """Every 'Tbmp' family's chain of member headers reads; InvalidPlugin if not.

    The quick check of a plugin being loaded: no pixels are decoded.
    """
    from prc_tools import bitmap

    found: dict[int, MemberHeaders] = {}
    for res in db.resources:
        # the first of an id, as db.resource finds it
        if res.type == GAME_BITMAP_TYPE and res.id not in found:
            try:
                found[res.id] = bitmap.headers(res.data)
            except PrcError as exc:
                raise InvalidPlugin(f"Tbmp {res.id}: {one_line(exc)}") from None
    return found


def one_line(exc: BaseException) -> str:
    """The first line of an error's message (its type's name when it has none)."""
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
