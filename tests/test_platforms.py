"""Nothing palmish or prc_tools imports is POSIX-only without a fallback
(README.md, "Platforms"): a module that only POSIX has is imported
only in a branch of a `sys.platform` / `os.name` test whose other branch
imports the Windows counterpart."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
POSIX_ONLY = {"fcntl", "termios", "tty", "pty", "pwd", "grp", "resource", "posix", "syslog",
              "crypt", "nis", "spwd", "readline", "curses"}


def _names(node: ast.stmt) -> set[str]:
    if isinstance(node, ast.Import):
        return {alias.name.split(".")[0] for alias in node.names}
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        return {node.module.split(".")[0]}
    return set()


def _is_platform_test(test: ast.expr) -> bool:
    text = ast.unparse(test)
    return "sys.platform" in text or "os.name" in text


def _unguarded_posix_imports(tree: ast.AST) -> list[int]:
    """Lines of POSIX-only imports not under a platform test that has an else branch."""
    guarded: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_platform_test(node.test) and node.orelse:
            for child in node.body + node.orelse:
                guarded.update(n.lineno for n in ast.walk(child) if isinstance(n, ast.stmt))
    return sorted(
        node.lineno for node in ast.walk(tree)
        if isinstance(node, ast.stmt) and _names(node) & POSIX_ONLY and node.lineno not in guarded
    )


def test_posix_only_modules_have_a_fallback() -> None:
    offenders = [
        f"{path.relative_to(ROOT)}:{line}"
        for package in ("palmish", "prc_tools")
        for path in sorted((ROOT / package).rglob("*.py"))
        for line in _unguarded_posix_imports(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert offenders == []


def test_the_check_finds_an_unguarded_import() -> None:
    bare = ast.parse("import os\nimport fcntl\n")
    guarded = ast.parse("import sys\nif sys.platform == 'win32':\n    import msvcrt\n"
                        "else:\n    import fcntl\n")
    one_sided = ast.parse("import sys\nif sys.platform != 'win32':\n    import fcntl\n")
    assert _unguarded_posix_imports(bare) == [2]
    assert _unguarded_posix_imports(guarded) == []
    assert _unguarded_posix_imports(one_sided) == [3]
