"""YAML tournament formats through marshmallow into :class:`wordsvc.core.standings.Format`.

One file per format in a folder (``formats/`` of the source tree), id =
file name. Every problem in every file is collected and reported at once,
each as ``formats/file.yaml: key: message``, and unknown keys are errors,
as for rulesets (:mod:`wordsvc.data.rulesets`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate

from ..core.standings import DECIMALS, MISSED, RANKINGS, TIE_BREAKS, Format, FormatError, format_from_document
from ..core.standings.formats import MAX_DECIMALS
from .rulesets import _flatten, _read_yaml, _valid_id

__all__ = ["DEFAULT_FORMAT", "default_formats_dir", "format_document", "format_from_snapshot", "known_formats", "load_formats"]

#: The format a tournament gets when it names none.
DEFAULT_FORMAT = "total"


class FormatFileSchema(Schema):
    """One format file; the id is the file's name, so the file has no ``id`` key."""

    class Meta:
        unknown = RAISE

    name = fields.String(required=True, validate=validate.Length(min=1))
    description = fields.String(load_default="")
    ranking = fields.String(required=True, validate=validate.OneOf(RANKINGS, error="must be one of: {choices}"))
    tie_breaks = fields.List(fields.String(validate=validate.OneOf(TIE_BREAKS, error="must be one of: {choices}")), required=True)
    missed = fields.String(required=True, validate=validate.OneOf(MISSED, error="must be one of: {choices}"))
    min_games = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0, error="must be at least {min}"))
    decimals = fields.Integer(strict=True, load_default=DECIMALS, validate=validate.Range(min=0, max=MAX_DECIMALS, error="must be from {min} to {max}"))


def default_formats_dir() -> Path:
    """``formats/`` of the source tree."""
    return Path(__file__).resolve().parents[2] / "formats"


def load_formats(directory: str | Path | None = None) -> dict[str, Format]:
    """Every ``*.yaml`` format in ``directory`` by id; :class:`FormatError` listing every problem of every file."""
    folder = Path(directory) if directory is not None else default_formats_dir()
    label = folder.name
    problems: list[str] = []
    out: dict[str, Format] = {}
    files = sorted(folder.glob("*.yaml"))
    if not files:
        problems.append(f"{label}: no *.yaml formats found")
    for path in files:
        where = f"{label}/{path.name}"
        if not _valid_id(path.stem):
            problems.append(f"{where}: file name must be a format id (lowercase letters, digits, hyphens)")
            continue
        data = _read_yaml(path, where, problems)
        if data is None:
            continue
        try:
            loaded = FormatFileSchema().load(data)
        except ValidationError as err:
            problems.extend(_flatten(where, err.messages))
            continue
        try:
            out[path.stem] = format_from_document({"id": path.stem, **loaded})
        except FormatError as err:  # what the schema cannot see: a tie-break twice, or the ranking itself
            problems.extend(f"{where}: {field}: {message}" for field, messages in err.problems.items() for message in messages)
    if problems:
        raise FormatError("formats", f"{len(problems)} problem(s) in formats", {"formats": problems})
    return out


def format_document(fmt: Format) -> dict[str, Any]:
    """What the ledger snapshots when a tournament starts: :meth:`Format.document`, plain JSON types."""
    return fmt.document()


def format_from_snapshot(doc: Mapping[str, Any]) -> Format:
    """The :class:`Format` of a snapshot taken by :func:`format_document`; :class:`FormatError` naming every field at fault."""
    return format_from_document(doc)


@lru_cache(maxsize=1)
def known_formats() -> dict[str, Format]:
    """The formats of the source tree's ``formats/``, read once per process (what events choose from, and the default)."""
    return load_formats()
