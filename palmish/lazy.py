"""Package exports imported on first use (PEP 562), so that a package's small
modules (a game's descriptor) can be imported without its engine.

    if TYPE_CHECKING:  # what mypy and readers see
        from mygame.rules import Board, Move
    __getattr__ = exports(__name__, {"mygame.rules": ("Board", "Move")})
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping


def exports(package: str, where: Mapping[str, tuple[str, ...]],
            submodules: tuple[str, ...] = ()) -> Callable[[str], object]:
    """A module `__getattr__` for `package` that imports each name from its module
    (or each of `submodules`, as `package.solver`) the first time it is asked for,
    then keeps it in the package."""
    module_of = {name: module for module, names in where.items() for name in names}

    def __getattr__(name: str) -> object:
        if name in submodules:
            return importlib.import_module(f"{package}.{name}")  # the import sets the attribute
        module = module_of.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
