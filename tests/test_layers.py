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

#: The ledger's rooms a room outside the ledger may import: all but its private plumbing (``ledger._db``).
LEDGER = {"ledger", "ledger.errors", "ledger.integrity", "ledger.records", "ledger.tournaments", "ledger.transfer", "ledger.hosting"}

#: room -> the rooms it may import (besides itself). ``config`` is the settings module. A room is a folder of
#: ``wordsvc/``, or one of the sub-rooms named here: the ledger's sub-packages (``ledger`` itself is its public face,
#: the Ledger and the trail; ``ledger.errors`` the one module every room of the ledger raises), the web's views apart
#: from its plumbing, and the server's one module the app may import (``server.hosting``, the server-to-app contract).
ALLOWED: dict[str, set[str]] = {
    "i18n": set(),  # the catalogue of words people read, read with the standard library alone
    "core": {"i18n"},
    "data": {"core"},
    "schemas": {"core"},
    "config": {"data"},
    "service": {"core", "data", "config"},
    "ledger.errors": {"core"},
    "ledger._db": {"core", "ledger.errors"},
    "ledger.integrity": {"core", "data", "ledger._db", "ledger.errors"},
    "ledger.records": {"core", "data", "config", "ledger._db", "ledger.errors", "ledger.integrity"},
    "ledger.tournaments": {"core", "data", "config", "ledger._db", "ledger.errors", "ledger.integrity", "ledger.records"},
    "ledger.transfer": {"core", "data", "config", "ledger._db", "ledger.errors", "ledger.integrity", "ledger.records"},
    "ledger.hosting": {"core", "data", "config", "ledger._db", "ledger.errors", "ledger.integrity", "ledger.records"},
    "ledger": {"core", "data", "config", "ledger._db", *LEDGER},
    "server.hosting": set(),
    "server": {"server.hosting"},
    "web": {"core", "data", "schemas", "service", "config", "i18n", "server.hosting", *LEDGER},
    "web.views": {"core", "data", "schemas", "service", "config", "i18n", "server.hosting", "web", *LEDGER},
    "cli": {"core", "data", "schemas", "service", "config", "server", "server.hosting", *LEDGER},
    "top": set(),  # wordsvc/__init__.py: the version, which any room may read
}

#: The plumbing modules that assemble the views, so may import them: the factory registers their blueprints; the
#: OpenAPI machinery reads the pages' assets and word search's operations (until each endpoint is declared once).
ASSEMBLE_VIEWS = {"wordsvc.web.app", "wordsvc.web.openapi"}

#: Sub-rooms: a module path prefix -> its room (the longest prefix wins; other modules' room is their folder).
SUB_ROOMS = {
    "wordsvc.ledger.errors": "ledger.errors",
    "wordsvc.ledger._db": "ledger._db",
    "wordsvc.ledger.integrity": "ledger.integrity",
    "wordsvc.ledger.records": "ledger.records",
    "wordsvc.ledger.tournaments": "ledger.tournaments",
    "wordsvc.ledger.transfer": "ledger.transfer",
    "wordsvc.ledger.hosting": "ledger.hosting",
    "wordsvc.web.views": "web.views",
    "wordsvc.server.hosting": "server.hosting",
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def room_of(module: str) -> str:
    for prefix in sorted(SUB_ROOMS, key=len, reverse=True):
        if module == prefix or module.startswith(prefix + "."):
            return SUB_ROOMS[prefix]
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "top"


def allowed(module: str, target: str) -> bool:
    """Whether ``module`` may import ``target`` by the table (a room imports itself and the top freely)."""
    room, to = room_of(module), room_of(target)
    return to in (room, "top") or to in ALLOWED[room] or (to == "web.views" and module in ASSEMBLE_VIEWS)


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
        if not allowed(module, target)
    )
    assert wrong == []


def test_nothing_imports_the_web_or_the_cli():
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        for target in targets
        if target.startswith(("wordsvc.web", "wordsvc.cli")) and not module.startswith(target.split(".")[0] + "." + target.split(".")[1])
    )
    assert wrong == []


def test_nothing_outside_the_ledger_imports_its_private_plumbing():
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if not module.startswith("wordsvc.ledger")
        for target in targets
        if room_of(target) == "ledger._db"
    )
    assert wrong == []


def test_the_server_knows_nothing_of_the_rest_of_wordsvc():
    """The server runs any WSGI app; what it offers one is ``server/hosting.py``, the only module of it the app may import."""
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in GRAPH.items()
        if module.startswith("wordsvc.server")
        for target in targets
        if not target.startswith("wordsvc.server")
    )
    assert wrong == []
    assert sorted({target for module, targets in GRAPH.items() if room_of(module) in ("web", "web.views") for target in targets if target.startswith("wordsvc.server")}) == [
        "wordsvc.server.hosting"
    ]


def test_the_rooms_import_one_way():
    """The rooms' own graph (an arrow where any module of one imports one of another) has no cycle, but for the views'
    assembly: the ledger's rooms, the web's plumbing below its views, the server below the app."""
    arrows: dict[str, set[str]] = {}
    for module, targets in GRAPH.items():
        for target in targets:
            if room_of(target) != room_of(module) and not (room_of(target) == "web.views" and module in ASSEMBLE_VIEWS):
                arrows.setdefault(room_of(module), set()).add(room_of(target))
    done: set[str] = set()

    def below(room: str, path: tuple[str, ...]) -> list[tuple[str, ...]]:
        if room in path:
            return [(*path[path.index(room) :], room)]
        if room in done:
            return []
        found = [cycle for to in sorted(arrows.get(room, ())) for cycle in below(to, (*path, room))]
        done.add(room)
        return found

    assert [cycle for room in sorted(arrows) for cycle in below(room, ())] == []


def test_every_sub_room_is_in_the_table():
    assert set(SUB_ROOMS.values()) <= set(ALLOWED)


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
    assert any(target.startswith("wordsvc.core") for target in GRAPH["wordsvc.web.views.validate"])
