"""The word layout every game record shares: `GAME VERSION key=value ... moves=m1 m2 ...`.

Pure text handling (no device, no game), so each game's rules package can use it.
"""

from __future__ import annotations

from collections.abc import Collection


def split_record(
    text: str,
    *,
    magic: str,
    version: str,
    fields_known: Collection[str],
    what: str,
    error: type[ValueError],
) -> tuple[dict[str, str], list[str] | None]:
    """The fields and the move words of a record (moves None when there is no moves=).

    `what` names the record in the first error ("a Sigmar record"); every problem is
    `error` with one line.
    """
    tokens = text.split()
    if len(tokens) < 2 or tokens[0] != magic:
        raise error(f"not {what} (it must start with '{magic} ')")
    if tokens[1] != version:
        raise error(f"record version {tokens[1]!r} is not supported (only {version})")
    fields: dict[str, str] = {}
    moves: list[str] | None = None  # None until the moves= field
    for token in tokens[2:]:
        key, eq, value = token.partition("=")
        if moves is not None:
            if eq:
                raise error(f"record has {token!r} among its moves")
            moves.append(token)
        elif not eq:
            raise error(f"record has a stray word {token!r} before moves=")
        elif key == "moves":
            moves = [value] if value else []
        elif key not in fields_known:
            raise error(f"record has an unknown field {key!r}")
        elif key in fields:
            raise error(f"record names {key!r} twice")
        else:
            fields[key] = value
    return fields, moves
