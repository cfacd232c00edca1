"""Standings across the games of a tournament: pure, standard library only.

A tournament seats its players at tables of 2 to 8 for each session (one
game per active player). :func:`standings` ranks every entrant over all
their complete games by a :class:`Format` (formats are YAML files in
``formats/``, read by :mod:`wordsvc.data.formats`); :func:`crosstable` says
who met whom. Definitions, with worked examples checkable by hand, are in
docs/standings.md.

- :mod:`.formats`: the :class:`Format` object, its document and its checks.
- :mod:`.games`: what one game gives each player at its table (table points,
  a share of the win, the spread) and the :class:`Entrant`/:class:`Game` inputs.
- :mod:`.ranking`: totals per player, the ranking and its tie-breaks.
- :mod:`.crosstable`: meetings between players, as a mapping or as CSV rows.
"""

from __future__ import annotations

from .crosstable import crosstable, crosstable_rows
from .formats import DECIMALS, MISSED, RANKINGS, TIE_BREAKS, Format, FormatError, format_from_document, rounded
from .games import Entrant, Game
from .ranking import standings

__all__ = [
    "DECIMALS",
    "MISSED",
    "RANKINGS",
    "TIE_BREAKS",
    "Entrant",
    "Format",
    "FormatError",
    "Game",
    "crosstable",
    "crosstable_rows",
    "format_from_document",
    "rounded",
    "standings",
]
