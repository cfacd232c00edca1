"""The package's rooms and the one-way arrows between them, drawn from the code's own imports.

Every ``import`` and ``from ... import`` of every module counts, those inside
functions too, so an import cannot dodge a cycle by hiding in a function.
The rooms and what each may import are docs/architecture.md's table.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "wordsvc"

#: room -> the rooms it may import (besides itself). ``config`` is the settings module.
ALLOWED: dict[str, set[str]] = {
    "i18n": set(),  # the catalogue of words people read, read with the standard library alone
    "core": {"i18n"},
    "data": {"core"},
    "schemas": {"core"},
    "config": {"data"},
    "service": {"core", "data", "config"},
    "ledger": {"core", "data", "config"},
    "server": set(),
    "web": {"core", "data", "schemas", "service", "ledger", "config", "i18n"},
    "cli": {"core", "data", "schemas", "service", "ledger", "config", "server"},
    "top": set(),  # wordsvc/__init__.py: the version, which any room may read
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def room_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "top"


def imports_of(path: Path) -> set[str]:
    """The wordsvc modules ``path`` imports, resolved to absolute names, wherever in the file the import stands."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.split(".")[0] == "wordsvc")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            if target.split(".")[0] != "wordsvc":
                continue
            found.add(target)
            # ``from . import words`` imports a module, not a name
            for alias in node.names:
                candidate = f"{target}.{alias.name}"
                if (PACKAGE.parent / Path(*candidate.split("."))).with_suffix(".py").exists() or (
                    PACKAGE.parent / Path(*candidate.split(".")) / "__init__.py"
                ).exists():
                    found.add(candidate)
    return found


GRAPH = {module_name(path): imports_of(path) for path in sorted(PACKAGE.rglob("*.py"))}


def test_every_module_lives_in_a_known_room():
    assert sorted({room_of(m) for m in GRAPH} - set(ALLOWED)) == []


@pytest.mark.parametrize("room", sorted(ALLOWED))
def test_a_room_imports_only_the_rooms_below_it(room):
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if room_of(module) == room
        for target in targets
        if room_of(target) not in (room, "top") and room_of(target) not in ALLOWED[room]
    )
    assert wrong == []


def test_nothing_imports_the_web_or_the_cli():
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        for target in targets
        if room_of(target) in ("web", "cli") and room_of(module) != room_of(target)
    )
    assert wrong == []


def test_the_import_graph_has_no_cycle():
    """Depth-first search over every import, function-level ones included."""
    modules = set(GRAPH)
    state: dict[str, int] = {}  # 1: on the stack, 2: done
    cycles: list[list[str]] = []

    def visit(node: str, stack: list[str]) -> None:
        state[node] = 1
        stack.append(node)
        for target in sorted(GRAPH[node]):
            if target not in modules or target == node:
                continue
            if state.get(target) == 1:
                cycles.append([*stack[stack.index(target) :], target])
            elif target not in state:
                visit(target, stack)
        stack.pop()
        state[node] = 2

    for module in sorted(modules):
        if module not in state:
            visit(module, [])
    assert cycles == []


def test_the_check_sees_imports_inside_functions():
    """The graph is only worth something if hidden imports count: the CLI's entry module imports its command groups."""
    assert "wordsvc.cli.serve" in GRAPH["wordsvc.cli"]
    assert any(target.startswith("wordsvc.core") for target in GRAPH["wordsvc.web.validate"])
