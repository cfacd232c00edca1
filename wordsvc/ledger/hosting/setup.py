"""A hosted table's setup: what is fixed when it is created, as one canonical JSON document.

The ledger trusts a :class:`TableSetup` it is given (the web layer's schema
checked the request); :meth:`TableSetup.to_dict` is what ``hosted.setup_json``
holds and what every reader of the table is told.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...core.play import Knobs

__all__ = ["CLOCKS", "TableSetup"]

#: The kinds of clock (docs/play.md, "Clocks").
CLOCKS = ("none", "live", "correspondence")


@dataclass(frozen=True)
class TableSetup:
    """``seats``: how many; ``bots``: seat -> the level of the server's bot that plays it; the rest as docs/play.md says."""

    seats: int
    bots: dict[int, int] = field(default_factory=dict)
    knobs: Knobs = field(default_factory=Knobs)
    clock: dict[str, Any] = field(default_factory=lambda: {"kind": "none"})
    rated: bool = False
    public: bool = True

    def to_dict(self) -> dict[str, Any]:
        return {
            "seats": self.seats,
            "bots": {str(seat): level for seat, level in sorted(self.bots.items())},
            "knobs": self.knobs.to_dict(),
            "clock": self.clock,
            "rated": self.rated,
            "public": self.public,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TableSetup:
        return cls(
            seats=int(data["seats"]),
            bots={int(seat): int(level) for seat, level in data.get("bots", {}).items()},
            knobs=Knobs.from_dict(data.get("knobs", {})),
            clock=dict(data.get("clock", {"kind": "none"})),
            rated=bool(data.get("rated", False)),
            public=bool(data.get("public", True)),
        )
