"""The table of resource types: what `build`, `extract`, `verify` and `info` do with
each, declared once per type (docs/prc-tools.md, "Resource types").

A `ResourceType` names the type codes it handles and the manifest list its
resources are built from, and says how one is described (`info`), checked
(`verify`), written into a folder (`extract`), compared (`equivalent`) and
built from a manifest entry (`build`). `register` adds one; `handler_for` finds
the one for a resource, and every type no handler claims is raw bytes (this
base class). The built-in ones: bitmaps ('Tbmp', 'tAIB'), sounds ('wave') and
the plugin header ('pINF' 0); their codes and manifest lists are named in
plugin/resource_codes.py, which the manifest reads too. Their methods import what
they use, so a quick command loads a bitmap's or a sound's code only for a
database that has one.
"""

from __future__ import annotations

from prc_tools import safeyaml
from prc_tools.errors import PluginError, PrcError
from prc_tools.frozen import Frozen
from prc_tools.plugin.pinf import INFO_ID, INFO_TYPE, MAX_INFO_BYTES
from prc_tools.plugin.resource_codes import (
    BITMAP_TYPES,
    BITMAPS_SECTION,
    GAME_BITMAP_TYPE,
    RESOURCES_SECTION,
    SOUND_TYPES,
    SOUNDS_SECTION,
)

# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    from prc_tools.bitmap import DecodeBudget, Member
    from prc_tools.database import Resource
    from prc_tools.plugin.folder import FolderFiles, FolderWriter
    from prc_tools.plugin.manifest import Manifest

    Handler = TypeVar("Handler", bound="ResourceType")


class Checking(Frozen):
    """What `verify` knows while it checks the resources of one database."""

    plugin: bool  # the database is a plugin: its sounds must be plain Palm PCM
    budget: DecodeBudget  # one for the whole database
    decoded: dict[int, list[Member]] | None  # receives each decoded game bitmap, if given


class ResourceType:
    """A type of resource. This base is every type no other claims: raw bytes,
    a .bin file in a folder (the manifest's `resources:` list), equal only when
    the bytes are."""

    name = "resource"  # what `info --json` calls its description, `verify` its line
    types: tuple[str, ...] = ()  # the type codes it handles; the first is the default
    only_id: int | None = None  # it handles only this id (other ids are raw)
    section = RESOURCES_SECTION  # the manifest list `build` makes these from ("": none)

    @property
    def default_type(self) -> str:
        """The type of a manifest entry that gives none."""
        return self.types[0] if self.types else ""

    def describe(self, data: bytes, budget: DecodeBudget | None) -> Any:
        """What `info` shows of one (JSON-ready), or None; PrcError if it is broken."""
        return None

    def summary(self, described: Any) -> str:
        """`info`'s words for what `describe` gave."""
        return ""

    def verify(self, res: Resource, checking: Checking) -> str | None:
        """`verify -v`'s line for one, or None; PrcError if it is broken."""
        return None

    def folder_entry(self, res: Resource, stem: str, folder: FolderWriter) -> dict[str, Any] | None:
        """One written into the folder `extract` makes, as its manifest entry (in
        `section`); None: keep it raw."""
        name = folder.write("resources", stem, ".bin", res.data)
        return {"file": name, "type": res.type, "id": res.id}

    def same(self, x: bytes, y: bytes) -> bool:
        """Whether two of them say the same (`equivalent`), given different bytes."""
        return x == y

    def build(self, files: FolderFiles, manifest: Manifest, entry: Any,
              warn: Callable[[str], None] | None) -> bytes:
        """The resource a manifest entry (of `section`) describes."""
        return files.read(entry.file)


class Bitmaps(ResourceType):
    """Bitmap families: one PNG per member in a folder (prc_tools/plugin/bitmaps.py)."""

    name = "bitmap"
    types = BITMAP_TYPES
    section = BITMAPS_SECTION
    game_type = GAME_BITMAP_TYPE  # the bitmaps a game's schema names (its rules and sizes)

    def describe(self, data: bytes, budget: DecodeBudget | None) -> Any:
        from prc_tools import bitmap

        return [{"width": m.width, "height": m.height, "depth": m.depth, "density": m.density,
                 "version": m.version, "compression": m.compression,
                 "transparent": m.transparent}
                for m in bitmap.check(data, budget)]  # no images made: no Pillow

    def summary(self, described: Any) -> str:
        return "bitmap " + ", ".join(
            f"{m['width']}x{m['height']} {m['density']}dpi {m['depth']}bpp {m['compression']}"
            for m in described
        )

    def verify(self, res: Resource, checking: Checking) -> str | None:
        from prc_tools import bitmap

        members: list[Member] | list[bitmap.Shape]
        if res.type == self.game_type and checking.decoded is not None:
            members = bitmap.decode(res.data, checking.budget)
            checking.decoded.setdefault(res.id, members)  # the first, as db.resource finds it
        else:  # the same checks, without making images
            members = bitmap.check(res.data, checking.budget)
        return "bitmap " + ", ".join(f"{m.width}x{m.height}@{m.density}/{m.depth}"
                                     for m in members)

    def folder_entry(self, res: Resource, stem: str, folder: FolderWriter) -> dict[str, Any] | None:
        from prc_tools.plugin import bitmaps

        return bitmaps.folder_entry(res, stem, folder)

    def same(self, x: bytes, y: bytes) -> bool:
        from prc_tools.plugin import bitmaps

        return bitmaps.same(x, y)

    def build(self, files: FolderFiles, manifest: Manifest, entry: Any,
              warn: Callable[[str], None] | None) -> bytes:
        from prc_tools.plugin import bitmaps

        return bitmaps.build(files, manifest, entry, warn)


class Sounds(ResourceType):
    """Palm sounds: a WAV file in a folder, converted by `build` (prc_tools/sound.py)."""

    name = "sound"
    types = SOUND_TYPES
    section = SOUNDS_SECTION

    def describe(self, data: bytes, budget: DecodeBudget | None) -> Any:
        from prc_tools import sound

        wav = sound.read_wav(data)
        return {"rate": wav.rate, "bits": wav.bits, "channels": wav.channels,
                "float": wav.is_float, "seconds": round(wav.seconds, 3)}

    def summary(self, described: Any) -> str:
        s = described
        return f"sound {s['rate']} Hz {s['bits']}-bit x{s['channels']}, {s['seconds']} s"

    def verify(self, res: Resource, checking: Checking) -> str | None:
        from prc_tools import sound

        wav = sound.read_wave_resource(res.data) if checking.plugin else sound.read_wav(res.data)
        return f"sound {wav.rate} Hz {wav.bits}-bit, {wav.seconds:.2f} s"

    def folder_entry(self, res: Resource, stem: str, folder: FolderWriter) -> dict[str, Any] | None:
        """A WAV, when it is plain Palm PCM that `build` passes through unchanged."""
        from prc_tools import sound

        try:
            wav = sound.read_wave_resource(res.data)
            if sound.convert(res.data, wav.rate, wav.bits) != res.data:
                return None  # extra chunks or an odd header: only raw bytes keep them
        except PrcError:
            return None
        name = folder.write("sounds", stem, ".wav", res.data)
        return {"file": name, "id": res.id, "rate": wav.rate, "bits": wav.bits}

    def same(self, x: bytes, y: bytes) -> bool:
        from prc_tools import sound

        sx, sy = sound.read_wav(x), sound.read_wav(y)
        return (sx.rate, sx.bits, sx.channels, sx.data) == (sy.rate, sy.bits, sy.channels, sy.data)

    def build(self, files: FolderFiles, manifest: Manifest, entry: Any,
              warn: Callable[[str], None] | None) -> bytes:
        from prc_tools import sound

        data = files.read(entry.file)  # its problems name the file already
        try:
            return sound.convert(data, entry.rate, entry.bits)
        except PrcError as exc:
            raise PluginError(f"{files.folder / entry.file}: {exc}") from None


class PluginInfo(ResourceType):
    """The plugin header, 'pINF' 0: manifest fields in a folder when `extract` can
    write it back byte for byte (else raw), checked before anything else by `verify`
    and shown on its own by `info` (prc_tools/plugin/pinf.py)."""

    name = "plugin"
    types = (INFO_TYPE,)
    only_id = INFO_ID
    section = ""

    def folder_entry(self, res: Resource, stem: str, folder: FolderWriter) -> dict[str, Any] | None:
        return None  # raw, unless `extract` took it as the manifest's fields

    def same(self, x: bytes, y: bytes) -> bool:
        return bool(safeyaml.load(x, MAX_INFO_BYTES) == safeyaml.load(y, MAX_INFO_BYTES))


RAW = ResourceType()
_BY_TYPE: dict[str, ResourceType] = {}
_REGISTERED: list[ResourceType] = []


def register(handler: Handler) -> Handler:
    """Make `handler` the one for its types (ValueError if one is taken); `build` makes
    the manifest lists in the order of registration, raw resources last."""
    taken = [code for code in handler.types if code in _BY_TYPE]
    if taken:
        raise ValueError(f"resource type {taken[0]!r} has a handler already")
    _BY_TYPE.update(dict.fromkeys(handler.types, handler))
    _REGISTERED.append(handler)
    return handler


def handler_for(type_: str, id_: int) -> ResourceType:
    """The handler of a resource of this type and id (`RAW` for any other)."""
    handler = _BY_TYPE.get(type_, RAW)
    return handler if handler.only_id is None or handler.only_id == id_ else RAW


def sections() -> list[ResourceType]:
    """The handlers `build` makes resources with, in its order: one per manifest list."""
    return [*(handler for handler in _REGISTERED if handler.section), RAW]


BITMAPS = register(Bitmaps())
SOUNDS = register(Sounds())
PLUGIN_INFO = register(PluginInfo())
