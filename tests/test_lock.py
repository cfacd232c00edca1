"""The lock files and pyproject.toml agree: every dependency pinned once, within its range, with hashes.

``make setup`` installs only from ``requirements/*.txt`` (``pip install
--require-hashes --no-deps``), so a dependency added to pyproject.toml but
not locked would be missing, and one whose range moved past its pin would
install the old release. ``make lock`` (requirements/lock.py) rewrites the
locks; this test is what makes CI fail until it is run.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
REQUIREMENTS = ROOT / "requirements"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
#: pyproject's extras the development lock holds (the ``test``, ``fuzz`` and ``bench`` make targets use them).
LOCKED_EXTRAS = ("test", "fuzz", "bench")
_PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s\\;]+)")


def pins(name: str) -> dict[str, str]:
    """``{package: version}`` of a lock file, after checking that every pin carries at least one sha256."""
    text = (REQUIREMENTS / name).read_text(encoding="utf-8")
    found: dict[str, str] = {}
    for block in re.split(r"\n(?=[A-Za-z0-9])", text):
        match = _PIN.match(block)
        if match is None:
            continue
        package = canonicalize_name(match.group(1))
        assert package not in found, f"{name}: {package} pinned twice"
        assert re.search(r"--hash=sha256:[0-9a-f]{64}", block), f"{name}: {package} has no hash"
        found[package] = match.group(2)
    return found


def direct(name: str) -> set[str]:
    """Packages a lock says it holds because pyproject.toml asks for them (pip-compile's ``via wordsvc (pyproject.toml)``)."""
    text = (REQUIREMENTS / name).read_text(encoding="utf-8")
    out = set()
    for block in re.split(r"\n(?=[A-Za-z0-9])", text):
        match = _PIN.match(block)
        if match and "wordsvc (pyproject.toml)" in block:
            out.add(canonicalize_name(match.group(1)))
    return out


def requirements(*extras: str) -> list[Requirement]:
    listed = list(PYPROJECT["project"]["dependencies"])
    for extra in extras:
        listed += PYPROJECT["project"]["optional-dependencies"][extra]
    return [Requirement(text) for text in listed]


@pytest.mark.parametrize(("lock", "extras"), [("base.txt", ()), ("dev.txt", LOCKED_EXTRAS)])
def test_every_dependency_is_pinned_within_its_range(lock, extras):
    pinned = pins(lock)
    for requirement in requirements(*extras):
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{requirement} is in pyproject.toml but not in requirements/{lock}: run `make lock`"
        assert requirement.specifier.contains(pinned[name], prereleases=True), (
            f"requirements/{lock} pins {name}=={pinned[name]}, outside pyproject.toml's {requirement}: run `make lock`"
        )
        for extra in requirement.extras:  # psycopg[binary]: the extra's package is locked too
            assert canonicalize_name(f"{name}-{extra}") in pinned, f"{requirement}: its extra is not locked"


@pytest.mark.parametrize(("lock", "extras"), [("base.txt", ()), ("dev.txt", LOCKED_EXTRAS)])
def test_nothing_is_locked_for_a_dependency_pyproject_no_longer_names(lock, extras):
    named = {canonicalize_name(r.name) for r in requirements(*extras)}
    assert direct(lock) <= named, f"requirements/{lock} still holds {sorted(direct(lock) - named)} for pyproject.toml: run `make lock`"


def test_the_development_lock_keeps_the_service_lock_versions():
    base, dev = pins("base.txt"), pins("dev.txt")
    assert {name: dev.get(name) for name in base} == base


def test_the_build_backend_is_locked_so_the_project_installs_with_nothing_unpinned():
    backend = [Requirement(text) for text in PYPROJECT["build-system"]["requires"]]
    for lock in ("base.txt", "dev.txt"):
        pinned = pins(lock)
        for requirement in backend:
            assert requirement.specifier.contains(pinned[canonicalize_name(requirement.name)])


def test_estonian_is_pinned_exactly_with_hashes_and_installed_without_its_dependencies():
    text = (REQUIREMENTS / "estonian-nodeps.txt").read_text(encoding="utf-8")
    assert pins("estonian-nodeps.txt") == {"estnltk": "1.7.5"}
    assert "--only-binary estnltk" in text


def test_set_up_installs_from_the_locks_only():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    installs = [line.strip() for line in makefile.splitlines() if "pip install" in line or "$(PIP_LOCKED)" in line]
    assert installs, "the Makefile installs nothing?"
    for line in installs:
        assert "--require-hashes" in line or "$(PIP_LOCKED)" in line or "--no-deps --no-build-isolation -e ." in line or "$(PIP_TOOLS)" in line, line
