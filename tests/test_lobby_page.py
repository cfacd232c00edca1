"""What the lobby's scripts copy from the game's rules: the bots' levels by name and the clock's bounds (docs/pages.md, "The lobby (/play)").

The page offers these as choices and checks them before it sends a table; the service holds the originals
(wordsvc/core/play/bot_levels.py, wordsvc/core/play/clocks.py), so a change there must reach the page.
"""

from __future__ import annotations

import json
import re

from wordsvc.core.play.bot_levels import LEVELS
from wordsvc.core.play.clocks import BANK_SECONDS, TURN_HOURS, TURN_SECONDS
from wordsvc.i18n import CATALOG, LOCALES
from wordsvc.web.views.pages import STATIC


def _constant(script: str, name: str) -> dict[str, object]:
    """The object literal `export const NAME = {...};` of a page script, read as JSON (its keys quoted)."""
    found = re.search(rf"export const {name} = (\{{[^}}]*\}});", (STATIC / script).read_text(encoding="utf-8"))
    assert found, f"{script} has no {name}"
    return dict(json.loads(re.sub(r"(\w+):", r'"\1":', found.group(1))))


def test_the_lobby_offers_every_bot_level_by_its_name_in_every_language() -> None:
    assert _constant("lobby.js", "BOT_LEVELS") == {str(number): level.name for number, level in LEVELS.items()}
    for locale in LOCALES:
        assert all(f"lobby.bot.{level.name}" in CATALOG[locale] for level in LEVELS.values()), locale


def test_the_lobbys_clock_bounds_are_the_clocks() -> None:
    bounds = _constant("lobby_problems.js", "CLOCK_BOUNDS")
    assert (bounds["turn_min"], bounds["turn_max"]) == TURN_SECONDS
    assert (BANK_SECONDS[0], bounds["bank_max"] * 60) == (0, BANK_SECONDS[1])
    assert (bounds["hours_min"], bounds["hours_max"]) == TURN_HOURS
