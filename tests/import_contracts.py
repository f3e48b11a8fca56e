"""An import-linter contract type of the project's own, named in .importlinter:
`private_names`, a name with one leading underscore is used only inside the
package that defines it (docs/architecture.md, "Layers").

A module's package is the package it sits in (`palmish.network.beam` for
palmish/network/beam/wire.py; the package itself for its `__init__.py`).
Found: `from M import _name` and `M._name` where M is a module of the checked
packages, bound by an import (`import a.b as m`, `from a import m`, `import a`).
import-linter reads imports, not the names they bring, so this contract reads
the source itself (the standard library's ast).
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path
from typing import Any

from importlinter import Contract, ContractCheck, fields, output


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def modules_of(folder: Path, package: str) -> dict[str, Path]:
    """Every module of the package in `folder`, by its dotted name."""
    found = {}
    for path in sorted(folder.rglob("*.py")):
        parts = [package, *path.relative_to(folder).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _package_of(module: str, modules: dict[str, Path]) -> str:
    return module if modules[module].name == "__init__.py" else module.rpartition(".")[0]


def _absolute(node: ast.ImportFrom, module: str, modules: dict[str, Path]) -> str:
    if node.level == 0:
        return node.module or ""
    base = _package_of(module, modules).split(".")
    base = base[: len(base) - node.level + 1]
    return ".".join([*base, *([node.module] if node.module else [])])


def _dotted(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return None if inner is None else f"{inner}.{node.attr}"
    return None


def _uses(tree: ast.Module, module: str, modules: dict[str, Path]) -> list[tuple[int, str, str]]:
    """(line, the module that defines it, the private name) for each use in `tree`."""
    bound: dict[str, str] = {}  # a local name -> the module it is
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    top = alias.name.partition(".")[0]
                    bound[top] = top
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(node, module, modules)
            for alias in node.names:
                if f"{source}.{alias.name}" in modules:
                    bound[alias.asname or alias.name] = f"{source}.{alias.name}"
                if _is_private(alias.name) and source in modules:
                    found.append((node.lineno, source, alias.name))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _is_private(node.attr):
            dotted = _dotted(node.value)
            if dotted is None:
                continue
            head, _, rest = dotted.partition(".")
            target = bound.get(head)
            if target is not None:
                target = f"{target}.{rest}" if rest else target
                if target in modules:
                    found.append((node.lineno, target, node.attr))
    return found


def crossings(folder: Path, package: str) -> list[str]:
    """`where uses module._name` for every private name used outside its package."""
    modules = modules_of(folder, package)
    lines = []
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for line, owner, name in _uses(tree, module, modules):
            if _package_of(owner, modules) != _package_of(module, modules):
                lines.append(f"{module}:{line} uses {owner}.{name}")
    return lines


class PrivateNamesContract(Contract):
    """No private name is used outside the package that defines it."""

    type_name = "private_names"

    packages = fields.ListField(subfield=fields.StringField())

    def check(self, graph: Any, verbose: bool) -> ContractCheck:
        found: list[str] = []
        for package in self.packages:
            spec = importlib.util.find_spec(package)
            assert spec is not None and spec.submodule_search_locations
            found += crossings(Path(next(iter(spec.submodule_search_locations))), package)
        return ContractCheck(kept=not found, metadata={"crossings": found})

    def render_broken_contract(self, check: ContractCheck) -> None:
        output.print_error("Private names used outside their package:", bold=False)
        output.new_line()
        for line in check.metadata["crossings"]:
            output.indent_cursor()
            output.print_error(f"- {line}", bold=False)
        output.new_line()
