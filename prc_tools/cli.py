"""`prc-tools ...`: build, inspect, extract and verify Palm databases.

Every problem with the user's input ends as one line on stderr,
`prc-tools: FILE: problem`, with exit status 1; bad usage exits with 2.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

# Each command imports what it needs, so `--help` or `info` on a small file
# starts quickly (benchmarks/cli_start.py; docs/prc-tools.md).
from prc_tools import __version__
from prc_tools.errors import PluginError, PrcError
from prc_tools.text import json_text, plain_message, printable

# Not `from typing import TYPE_CHECKING`: typing costs a quick command 3 ms to load.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Any

    from PIL import Image

    from prc_tools import bitmap
    from prc_tools.database import Database
    from prc_tools.schema import Registry
    from prc_tools.schema.codes import GameCodes

PROG = "prc-tools"
EXIT_OK = 0
EXIT_BAD_INPUT = 1
EXIT_USAGE = 2
OPTIONAL_ART = "optional art not given"  # how build's notes on art left out begin


def input_errors() -> tuple[type[BaseException], ...]:
    """What can go wrong with a user's files; anything else is a bug and may show a traceback.

    YAML's and Pillow's errors count only once their modules are loaded: no error
    of theirs can happen before (and loading them here would cost every command).
    """
    errors: list[type[BaseException]] = [PrcError, OSError, UnicodeError]
    yaml = sys.modules.get("yaml")
    if yaml is not None:
        errors.append(yaml.YAMLError)
    image = sys.modules.get("PIL.Image")
    if image is not None:
        errors.append(image.DecompressionBombError)
    return tuple(errors)


class InputError(Exception):
    """A failure already phrased as `FILE: problem`."""


def version_action(name_and_version: str) -> type[argparse.Action]:
    """`--version`: the version and whether the C speedups run, on one line whatever
    the terminal's width (argparse's own version action wraps it)."""
    import argparse

    from prc_tools.speedups import version_note

    class PrintVersion(argparse.Action):
        def __init__(self, option_strings: list[str], dest: str, help: str | None = None) -> None:
            super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

        def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
            print(f"{name_and_version} {version_note()}")
            parser.exit()

    return PrintVersion


def _help_formatter(prog: str) -> argparse.HelpFormatter:
    """argparse's help layout at the terminal's width, found as shutil finds it but
    without importing shutil (3 ms), as argparse makes a formatter per option added."""
    import argparse

    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0 and sys.__stdout__ is not None:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (ValueError, OSError):
            columns = 0
    return argparse.HelpFormatter(prog, width=(columns or 80) - 2)  # argparse's own margin


def build_parser() -> argparse.ArgumentParser:
    import argparse

    parser = argparse.ArgumentParser(
        prog=PROG, formatter_class=_help_formatter,
        description="Build, inspect, extract and verify Palm OS databases (.prc/.pdb).",
        epilog="Plugin folders are described in docs/plugin-format.md.",
    )
    parser.add_argument("--version", action=version_action(f"{PROG} {__version__}"),
                        help="show the version and whether the C speedups run, then exit")
    # With its prog given, argparse need not format a usage line to find it.
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True, prog=PROG)

    build = commands.add_parser(
        "build", formatter_class=_help_formatter,
        help="make a database from a plugin folder",
        description="Make a database from a folder holding manifest.yaml, PNG and WAV files.",
    )
    build.add_argument("folder", metavar="FOLDER", type=Path)
    build.add_argument("-o", "--output", metavar="OUT.prc", type=Path, required=True,
                       help="the database to write (replaced atomically)")
    build.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    build.add_argument("--sheet", metavar="OUT.png", type=Path,
                       help="also draw every bitmap built (each density and depth) beside its"
                       " source picture, labelled, those with warnings outlined in red")
    _schema_option(build)

    info = commands.add_parser(
        "info", formatter_class=_help_formatter,
        help="show a database's header and contents",
        description="Show a database's header fields, plugin info and every resource or record."
        " To see the pictures themselves: prc-tools verify --sheet OUT.png FILE.",
    )
    info.add_argument("file", metavar="FILE", type=Path)
    info.add_argument("--json", action="store_true", help="print JSON instead of text")

    extract = commands.add_parser(
        "extract", formatter_class=_help_formatter,
        help="turn a database into a folder that `build` accepts",
        description="Write every resource as PNG (bitmaps), WAV ('wave') or .bin, plus"
        " manifest.yaml. FOLDER must not exist or be empty. Building FOLDER unedited"
        " gives back the same bytes.",
    )
    extract.add_argument("file", metavar="FILE", type=Path)
    extract.add_argument("-o", "--output", metavar="FOLDER", type=Path, required=True)

    verify = commands.add_parser(
        "verify", formatter_class=_help_formatter,
        help="check a database's structure, bitmaps and sounds",
        description="Check the structure, that every bitmap decodes, every 'wave' reads"
        " and a plugin's 'pINF' is valid. Exit status 0 if all is well.",
    )
    verify.add_argument("file", metavar="FILE", type=Path)
    verify.add_argument("-v", "--verbose", action="store_true", help="one line per resource")
    verify.add_argument("--sheet", metavar="OUT.png", type=Path,
                        help="also draw every bitmap member (each density and depth) on one"
                        " picture, labelled, those with warnings outlined in red")
    _schema_option(verify)

    new = commands.add_parser(
        "new", formatter_class=_help_formatter,
        help="start a plugin folder from templates of the right sizes",
        description="Write FOLDER: a manifest filled in and a template picture (or sound) of"
        " the size the game draws for every resource the kind has; it builds as it is."
        " A kind of data (levels) gets the game's sample files and a README.txt on their"
        " format instead. `new --list` lists the games and kinds.",
        epilog="The steps after it: docs/making-plugins.md.",
    )
    new.add_argument("game", metavar="GAME", nargs="?")
    new.add_argument("kind", metavar="KIND", nargs="?")
    new.add_argument("folder", metavar="FOLDER", nargs="?", type=Path)
    new.add_argument("--list", action="store_true", help="list the games and kinds, then exit")
    new.add_argument("--config", action="append", default=[], metavar="SLOT",
                     help="a display slot to serve (square, tall, wide; may repeat; default:"
                     " every slot with the first slot's cell; none for data, which serves"
                     " every slot)")
    new.add_argument("--author", default="Your Name", help="the manifest's author")
    _schema_option(new)
    return parser


def _schema_option(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--schema", metavar="FILE.yaml", type=Path, action="append", default=[],
        help="a game's plugin schema, besides the installed ones (may repeat; a file"
        " replaces the installed schema of its game)",
    )


def schemas_for(args: argparse.Namespace) -> Registry:
    """The installed schemas plus any --schema files; InputError (one line) if one is bad."""
    from prc_tools.schema import registry

    try:
        return registry().with_files(args.schema)
    except PluginError as exc:
        raise InputError(str(exc)) from None


def game_codes() -> GameCodes:
    """The installed games' codes; InputError (one line) if a schema is bad."""
    from prc_tools.schema.codes import installed_codes

    try:
        return installed_codes()
    except PluginError as exc:
        raise InputError(str(exc)) from None


def installed_schemas(codes: GameCodes) -> Registry:
    """The installed schemas (kept ones when still true); InputError (one line) if one is bad."""
    try:
        return codes.registry()
    except PluginError as exc:
        raise InputError(str(exc)) from None


def no_schemas() -> Registry:
    from prc_tools.schema import Registry

    return Registry()


# The options of the command lines read without argparse (`parse_arguments`).
_PLAIN_FLAGS = {"info": {"--json": "json"}, "verify": {"-v": "verbose", "--verbose": "verbose"}}
_PLAIN_NONE = {"verify": ("sheet",)}  # options of the argparse line absent from the plain one


def parse_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line as argparse reads it; exits with 2 on bad usage.

    The commonest ones, `info [--json] FILE` and `verify [-v] FILE`, are read
    here without argparse, whose import and parser are a tenth of a quick
    command; every other line (help, other options, any mistake) goes to argparse.
    """
    words = sys.argv[1:] if argv is None else argv
    plain = _plain_arguments(words)
    if plain is not None:
        return plain
    if words[:1] == ["new"]:
        words = ["new", *_options_first(words[1:], {"--config", "--author", "--schema"})]
    return build_parser().parse_args(words)


def _options_first(words: list[str], with_value: set[str]) -> list[str]:
    """The options (and their values) before the other words, so that an option may come
    between positional arguments (`new GAME KIND --config wide FOLDER`), which argparse
    does not allow when they are optional."""
    options: list[str] = []
    others: list[str] = []
    taking = False
    for word in words:
        if taking:
            options.append(word)
            taking = False
        elif word.startswith("-") and word != "-":
            options.append(word)
            taking = word in with_value
        else:
            others.append(word)
    return [*options, *others]


def _plain_arguments(argv: list[str]) -> argparse.Namespace | None:
    """`argv` read as argparse would, if it is `info` or `verify` with one file (not
    starting with -) and only the options named in _PLAIN_FLAGS; else None."""
    flags = _PLAIN_FLAGS.get(argv[0]) if argv else None
    if flags is None:
        return None
    values: dict[str, object] = dict.fromkeys(flags.values(), False)
    files = []
    for word in argv[1:]:
        if word in flags:
            values[flags[word]] = True  # store_true: said twice is still true
        elif word.startswith("-"):
            return None
        else:
            files.append(word)
    if len(files) != 1:
        return None
    if argv[0] == "verify":
        values["schema"] = []
    for name in _PLAIN_NONE.get(argv[0], ()):
        values[name] = None
    from types import SimpleNamespace

    # The attributes argparse's Namespace would have, without importing argparse.
    return SimpleNamespace(command=argv[0], file=Path(files[0]), **values)  # type: ignore[return-value]


def main(argv: list[str] | None = None) -> int:
    args = parse_arguments(argv)  # exits with 2 on bad usage
    try:
        handler = {"build": cmd_build, "info": cmd_info, "extract": cmd_extract,
                   "verify": cmd_verify, "new": cmd_new}[args.command]
        return handler(args)
    except InputError as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away: stop quietly, and keep Python's
        # exit-time flush of stdout from complaining again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_BAD_INPUT


def fail(message: str) -> int:
    print(f"{PROG}: {printable(plain_message(_one_line(message)))}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _problem(path: Path, exc: BaseException) -> InputError:
    if isinstance(exc, OSError):
        detail = exc.strerror or str(exc)
        where = exc.filename if exc.filename else path
        return InputError(f"{where}: {detail}")
    return InputError(f"{path}: {exc}")


def read_database(path: Path) -> Database:
    from prc_tools.database import Database

    try:
        return Database.read(path)  # bounded: a FIFO or /dev/zero is one line, at once
    except input_errors() as exc:
        raise _problem(path, exc) from None


def cmd_build(args: argparse.Namespace) -> int:
    from prc_tools import plugin
    from prc_tools.atomic import write_atomic
    from prc_tools.progress import ProgressBar

    schemas = schemas_for(args)
    bar = ProgressBar(sys.stderr, f"building {args.output.name}")
    warnings: list[str] = []
    bar.enabled = bar.enabled and not args.quiet
    try:
        db = plugin.build_folder(args.folder, progress=bar.update, schemas=schemas,
                                 warn=lambda message: warnings.append(message))
        data = db.to_bytes()
    except PluginError as exc:
        raise InputError(str(exc)) from None  # already names the file
    except input_errors() as exc:
        raise _problem(args.folder, exc) from None
    finally:
        bar.close()
    try:
        write_atomic(args.output, data)
    except OSError as exc:
        raise _problem(args.output, exc) from None
    for message in warnings:  # after the progress bar is gone, and only for a build made
        label = "note" if message.partition(": ")[2].startswith(OPTIONAL_ART) else "warning"
        print(printable(f"{PROG}: {label}: {message}"), file=sys.stderr)
    print(printable(f"{args.output}: {db.name!r}, {len(db.resources) or len(db.records)}"
                    f" items, {len(data)} bytes"))
    if args.sheet is not None:
        _build_sheet(args.sheet, args.folder, db, schemas)
    # A plugin, or a game's own data (levels, say: a kind of its schema, no plugin).
    owner = schemas.by_codes(db.creator, db.type)
    game_data = owner is not None and owner.data_kind(db.type) is not None
    if db.is_resource and (db.resource("pINF", 0) is not None or game_data):
        print(printable(f"install it: palmish install {args.output}"))
    return EXIT_OK


def _build_sheet(path: Path, folder: Path, db: Database, schemas: Registry) -> None:
    """`build --sheet`: the built members as verify decodes them, each row after its
    source picture."""
    from prc_tools import plugin
    from prc_tools.plugin.manifest import load
    from prc_tools.plugin.sources import load_png

    decoded: dict[int, list[bitmap.Member]] = {}
    lines = plugin.verify(db, decoded, schemas=schemas)
    sources: dict[int, Image.Image] = {}
    try:
        for spec in load(folder, schemas).bitmaps:
            sources[spec.id] = load_png(folder, spec.file)
    except PluginError:
        pass  # read a moment ago; a file changed since is left out of the sheet
    _write_sheet(path, decoded, lines, sources)


def cmd_new(args: argparse.Namespace) -> int:
    from prc_tools.studio import commands

    schemas = schemas_for(args)
    if args.list:
        print(commands.kinds_text(schemas))
        return EXIT_OK
    if args.folder is None:
        raise InputError("new: give GAME KIND FOLDER (or --list to see the games and kinds)")
    try:
        said = commands.new(schemas, args.game, args.kind, args.folder, tuple(args.config),
                            args.author)
        for line in said.splitlines():
            print(printable(line))
    except PluginError as exc:
        raise InputError(str(exc)) from None
    except OSError as exc:
        raise _problem(args.folder, exc) from None
    return EXIT_OK


def cmd_info(args: argparse.Namespace) -> int:

    db = read_database(args.file)
    report = describe(db)
    if args.json:
        # Dates or binary in a pINF become strings; controls become \u escapes.
        print(json_text(report))
    else:
        print(format_report(args.file, report))
    return EXIT_OK


def cmd_extract(args: argparse.Namespace) -> int:
    from prc_tools.plugin.extract import extract

    db = read_database(args.file)
    try:
        extract(db, args.output)
    except PluginError as exc:
        raise InputError(str(exc)) from None
    except input_errors() as exc:
        raise _problem(args.output, exc) from None
    print(printable(f"{args.output}: {len(db.resources) or len(db.records)} items and"
                    " manifest.yaml"))
    return EXIT_OK


def cmd_verify(args: argparse.Namespace) -> int:
    from prc_tools import plugin

    if args.schema:
        schemas = schemas_for(args)
        db = read_database(args.file)
    else:
        # A database that is no game's plugin needs only the games' codes, a plugin
        # the schemas too, both kept across runs: no YAML (prc_tools/schema/codes.py).
        codes = game_codes()
        db = read_database(args.file)
        schemas = installed_schemas(codes) if plugin.may_be_plugin(db, codes) else no_schemas()
    decoded: dict[int, list[bitmap.Member]] | None = {} if args.sheet else None
    try:
        lines = plugin.verify(db, decoded, schemas=schemas)
    except input_errors() as exc:
        raise _problem(args.file, exc) from None
    if args.sheet is not None and decoded is not None:
        _write_sheet(args.sheet, decoded, lines)
    from prc_tools.plugin.check import WARNING

    for line in lines:
        if line.startswith(WARNING):
            print(printable(f"{PROG}: {args.file}: {line}"), file=sys.stderr)
        elif args.verbose:
            print(printable(line))
    count = len(db.resources) if db.is_resource else len(db.records)
    what = "resources" if db.is_resource else "records"
    print(printable(f"{args.file}: OK ({count} {what})"))
    return EXIT_OK


def _write_sheet(path: Path, decoded: dict[int, list[bitmap.Member]], lines: list[str],
                 sources: dict[int, Image.Image] | None = None) -> None:
    from prc_tools.atomic import write_atomic
    from prc_tools.bitmap.png import png_bytes
    from prc_tools.plugin.check import WARNING
    from prc_tools.studio.sheet import contact_sheet

    flagged = {id_ for id_ in decoded for line in lines
               if line.startswith(f"{WARNING}Tbmp {id_} ")}
    try:
        write_atomic(path, png_bytes(contact_sheet(decoded, flagged, sources)))
    except OSError as exc:
        raise _problem(path, exc) from None
    print(printable(f"{path}: contact sheet of {len(decoded)} bitmaps"))


# ---------------------------------------------------------------- info


def describe(db: Database) -> dict[str, Any]:
    """Everything `info` shows, as JSON-ready data."""
    from prc_tools import bitmap, plugin
    from prc_tools.database import ATTRIBUTE_NAMES
    from prc_tools.plugin import pinf

    report: dict[str, Any] = {
        "name": db.name,
        "type": db.type,
        "creator": db.creator,
        "database": "resource" if db.is_resource else "record",
        "attributes": db.attributes,
        "attribute_names": [n for bit, n in ATTRIBUTE_NAMES.items() if db.attributes & bit],
        "version": db.version,
        # Written from the stored numbers: no datetime (about 2 ms) for `info`.
        "created": db.date_text("created"),
        "modified": db.date_text("modified"),
        "backed_up": db.date_text("backed_up"),
        "modification_number": db.modification_number,
        "unique_id_seed": db.unique_id_seed,
        "app_info_size": None if db.app_info is None else len(db.app_info),
        "sort_info_size": None if db.sort_info is None else len(db.sort_info),
    }
    report["plugin"] = None
    if db.is_resource and pinf.find(db) is not None:
        # The schemas only for a database with plugin info (kept ones: no YAML).
        from prc_tools.schema.codes import installed_codes

        try:
            info = plugin.read_info(db, installed_codes().registry())
        except PrcError:
            info = None
        report["plugin"] = info
    if db.is_resource:
        budget = bitmap.DecodeBudget()  # one for the whole file
        report["resources"] = [
            _describe_resource(r.type, r.id, r.data, budget) for r in db.resources
        ]
    else:
        report["records"] = [
            {"size": len(r.data), "attributes": r.attributes, "category": r.category,
             "unique_id": r.unique_id}
            for r in db.records
        ]
    return report


def _describe_resource(
    type_: str, id_: int, data: bytes, budget: bitmap.DecodeBudget | None = None
) -> dict[str, Any]:
    from prc_tools.plugin.resources import handler_for

    entry: dict[str, Any] = {"type": type_, "id": id_, "size": len(data)}
    handler = handler_for(type_, id_)
    try:
        described = handler.describe(data, budget)
        if described is not None:
            entry[handler.name] = described
    except PrcError as exc:
        entry["error"] = str(exc)
    return entry


def format_report(path: Path, report: dict[str, Any]) -> str:
    from prc_tools.plugin.resource_codes import BITMAP_TYPES  # loaded by `info` already

    flags = ", ".join(report["attribute_names"]) or "none"
    lines = [
        f"File:          {path}",
        f"Name:          {report['name']}",
        f"Type/creator:  {report['type']!r} / {report['creator']!r}",
        f"Database:      {report['database']} database",
        f"Attributes:    0x{report['attributes']:04X} ({flags})",
        f"Version:       {report['version']}",
        f"Created:       {report['created'] or 'not set'}",
        f"Modified:      {report['modified'] or 'not set'}",
        f"Backed up:     {report['backed_up'] or 'never'}",
        f"Mod. number:   {report['modification_number']}",
    ]
    if report["app_info_size"] is not None:
        lines.append(f"appInfo:       {report['app_info_size']} bytes")
    if report["sort_info_size"] is not None:
        lines.append(f"sortInfo:      {report['sort_info_size']} bytes")
    info = report.get("plugin")
    if info:
        lines.append(
            f"Plugin:        {info['game']} {info['kind']}, version {info['version']}"
            f" by {info['author']}, serves {', '.join(info['configs'])}"
        )
    if "resources" in report:
        if any(res["type"] in BITMAP_TYPES for res in report["resources"]):
            lines.append(f"Pictures:      prc-tools verify --sheet OUT.png {path}")
        lines.append(f"Resources:     {len(report['resources'])}")
        for res in report["resources"]:
            lines.append(f"  {res['type']!r:8} {res['id']:5}  {res['size']:7} bytes"
                         f"  {_resource_summary(res)}".rstrip())
    else:
        lines.append(f"Records:       {len(report['records'])}")
        for index, rec in enumerate(report["records"]):
            lines.append(f"  {index:5}  {rec['size']:7} bytes  attributes 0x{rec['attributes']:02X}"
                         f"  unique id {rec['unique_id']}")
    # Names, authors and paths come from files: each line is escaped whole, so a
    # newline or a terminal escape in a value shows as \n or \x1b on its line.
    return "\n".join(printable(line) for line in lines)


def _resource_summary(res: dict[str, Any]) -> str:
    from prc_tools.plugin.resources import handler_for

    if "error" in res:
        return f"BROKEN: {res['error']}"
    handler = handler_for(res["type"], res["id"])
    return handler.summary(res[handler.name]) if handler.name in res else ""


if __name__ == "__main__":
    sys.exit(main())
