"""The views: one module per resource, each a Flask blueprint that reads a request, calls the service or the ledger, and answers.

The app's plumbing they stand on (the factory, admission, metrics, the JSON
encoding, the one error shape, request reading, locale negotiation, the
OpenAPI machinery) is in ``wordsvc.web`` beside this folder; a view imports
it, and it imports no view but in the two places that assemble them (the
factory registers every blueprint of :data:`BLUEPRINTS`; the OpenAPI
document reads their declarations). Each view's endpoint is declared on it
(:class:`~wordsvc.web.endpoints.Endpoint`). ``ledger_access`` is what the
ledger's views share: the app's ledger and who a request acts as on it.
"""

from __future__ import annotations

from .. import metrics
from . import (
    analysis,
    best_meld,
    catalogue,
    deals,
    documents,
    events,
    games,
    health,
    lexicons,
    pages,
    play,
    play_replay,
    play_seated,
    qr,
    ratings,
    reference,
    rounds,
    solitaire,
    stream,
    tokens,
    tournaments,
    trail,
    validate,
    words,
)

__all__ = ["BLUEPRINTS"]

#: Every resource's blueprint, in the order their routes are registered and the document lists them.
BLUEPRINTS = (
    validate.bp, rounds.bp, best_meld.bp, words.bp, catalogue.bp, lexicons.bp, deals.bp, solitaire.bp, tokens.bp, events.bp, games.bp, trail.bp, stream.bp, tournaments.bp,
    play.bp, play_replay.bp, play_seated.bp, documents.bp, ratings.bp, analysis.bp, pages.bp, qr.bp, health.bp, metrics.bp, reference.bp,
)  # fmt: skip
