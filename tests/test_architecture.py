"""docs/architecture.md's code map is the tree: every folder of the package with every module, and only paths that exist.

The one code map of the project (the README and docs/ledger.md link to it), so
a module added, moved or removed without its line in the map fails here; the
arrows between the rooms are tests/test_layers.py's.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")


def code_map() -> dict[str, set[str]]:
    """The code map: each ``wordsvc/...`` folder line with the module names it lists."""
    block = ARCHITECTURE.split("## Code map", 1)[1].split("```", 2)[1]
    listed: dict[str, set[str]] = {}
    for line in block.splitlines():
        if line.startswith("wordsvc/") and line.split()[0].endswith("/"):
            folder, *names = line.split()
            listed[folder] = set(names)
    return listed


def test_the_code_map_lists_every_folder_and_module_of_the_package():
    tree = {
        f"{folder.relative_to(ROOT).as_posix()}/": {p.stem for p in folder.glob("*.py") if p.stem not in ("__init__", "__main__")}
        for folder in sorted((ROOT / "wordsvc").rglob("*"))
        if folder.is_dir() and (folder / "__init__.py").is_file()
    }
    tree = {folder: names for folder, names in tree.items() if names}
    assert code_map() == tree


def test_the_code_map_names_only_paths_that_exist():
    block = ARCHITECTURE.split("## Code map", 1)[1].split("```", 2)[1]
    paths = [line.split()[0] for line in block.splitlines() if line and not line.startswith(" ")]
    assert [p for p in paths if not (ROOT / p).exists()] == []


def room_paths() -> list[str]:
    """The first cell of each row of the rooms table: the room's path, as ``wordsvc/...``."""
    table = ARCHITECTURE.split("| room | holds | may import |", 1)[1].split("\n\n", 1)[0]
    return [line.split("|")[1].strip().strip("`") for line in table.splitlines() if line.startswith("| `wordsvc/")]


def test_the_rooms_table_names_every_room_the_import_check_knows():
    """tests/test_layers.py's rooms and this table's rows are the same set, so the table says what each room may import."""
    from test_layers import ALLOWED, SUB_ROOMS

    expected = {f"wordsvc/{room}/" for room in ALLOWED if "." not in room and room not in ("top", "config")} | {"wordsvc/config.py"}
    for prefix in SUB_ROOMS.values():
        module = "wordsvc/" + prefix.replace(".", "/")
        expected.add(f"{module}.py" if (ROOT / f"{module}.py").is_file() else f"{module}/")
    listed = set(room_paths())
    assert expected <= listed, sorted(expected - listed)
    assert [path for path in listed if not (ROOT / path).exists()] == []
