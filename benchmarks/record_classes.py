"""What a record class costs to make and to use, by the way it is declared.

    .venv/bin/python benchmarks/record_classes.py [--rounds N] [--against DIR]

Compared, for a record of four fields (two with defaults): prc_tools' `Frozen`
(prc_tools/frozen.py, the one base, which palmish's records use too),
`@dataclass(frozen=True)` with and without slots, and
`NamedTuple`; with ``--against DIR`` (a tree holding an older prc_tools, such as
`git worktree add DIR main`) also that tree's `FrozenValue` (prc_tools/value.py,
loaded from the file). Each figure is the best of the rounds (each step of
each kind timed in turn), in microseconds:
making the class, then a record by position, by keyword and with the defaults
left out, reading a field, comparing two equal records, hashing one and
`replace`. Lower is better; the rows are measured in turns, so the machine's
load weighs on all alike.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import timeit
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tree this script is in

from prc_tools.frozen import Frozen

Maker = Callable[[], Any]
REPEAT = 2000  # operations per timing


def new_frozen() -> Any:
    class Rec(Frozen):
        a: int
        b: str
        c: int = 0
        d: tuple[int, ...] = ()

    return Rec


def plain_dataclass() -> Any:
    @dataclass(frozen=True)
    class Rec:
        a: int
        b: str
        c: int = 0
        d: tuple[int, ...] = ()

    return Rec


def slotted_dataclass() -> Any:
    @dataclass(frozen=True, slots=True)
    class Rec:
        a: int
        b: str
        c: int = 0
        d: tuple[int, ...] = ()

    return Rec


def named_tuple() -> Any:
    class Rec(NamedTuple):
        a: int
        b: str
        c: int = 0
        d: tuple[int, ...] = ()

    return Rec


def frozen_value(tree: Path) -> Maker:
    """The FrozenValue of an older tree: fields in __slots__, __init__ and annotations."""
    spec = importlib.util.spec_from_file_location("old_value", tree / "prc_tools" / "value.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    base = module.FrozenValue

    def make() -> Any:
        class Rec(base):  # type: ignore[valid-type,misc]
            a: int
            b: str
            c: int
            d: tuple[int, ...]

            __slots__ = ("a", "b", "c", "d")

            def __init__(self, a: int, b: str, c: int = 0, d: tuple[int, ...] = ()) -> None:
                self._init(locals())

        return Rec

    return make


def _copier(record: Any) -> Callable[[], object] | None:
    """`replace` as each kind offers it; None where it has none."""
    if hasattr(record, "_replace"):
        return lambda: record._replace(c=5)
    if hasattr(record, "__dataclass_fields__"):
        return lambda: replace(record, c=5)
    if hasattr(record, "replace"):
        return lambda: record.replace(c=5)
    return None


def steps(make: Maker) -> list[Callable[[], object] | None]:
    """What is timed for one kind: making its class, then using records of it."""
    cls = make()
    one, two = cls(1, "x", 2, (3,)), cls(1, "x", 2, (3,))
    return [
        make,
        lambda: cls(1, "x", 2, (3,)),
        lambda: cls(a=1, b="x", c=2, d=(3,)),
        lambda: cls(1, "x"),
        lambda: one.b,
        lambda: one == two,
        lambda: hash(one),
        _copier(one),
    ]


def once(step: Callable[[], object] | None, number: int) -> float:
    """Microseconds a call, over `number` calls (nan where the kind has no such step)."""
    if step is None:
        return float("nan")
    return timeit.timeit(step, number=number) / number * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--against", type=Path, help="a tree whose prc_tools has value.py")
    args = parser.parse_args()
    kinds: dict[str, Maker] = {"prc_tools Frozen": new_frozen}
    if args.against is not None:
        kinds["FrozenValue (--against)"] = frozen_value(args.against)
    kinds["dataclass(frozen)"] = plain_dataclass
    kinds["dataclass(frozen, slots)"] = slotted_dataclass
    kinds["NamedTuple"] = named_tuple
    columns = ("class", "by pos", "by kw", "defaults", "field", "==", "hash", "replace")
    timed = {name: steps(make) for name, make in kinds.items()}
    figures: dict[str, list[list[float]]] = {name: [] for name in kinds}
    for _ in range(args.rounds):  # each step of each kind in turn: the load weighs on all alike
        for name, row in timed.items():
            figures[name].append([once(step, 200 if index == 0 else REPEAT)
                                  for index, step in enumerate(row)])
    print(f"microseconds, best of {args.rounds} rounds")
    print(f"{'':26}" + "".join(f"{c:>9}" for c in columns))
    for name, runs in figures.items():
        best = [min(run[i] for run in runs) for i in range(len(columns))]
        print(f"{name:26}" + "".join(f"{v:9.2f}" for v in best))


if __name__ == "__main__":
    main()
