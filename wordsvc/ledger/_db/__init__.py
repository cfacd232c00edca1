"""The ledger's private plumbing: how its rows are stored, never imported from outside ``wordsvc.ledger``.

The engine and its writer (:mod:`.database`), the tables (:mod:`.schema`) and
their Alembic migrations (``migrations/``), prepared statements
(:mod:`.prepared`), canonical JSON (:mod:`.canonical`) and a round's play as
the document it is stored as (:mod:`.plays`). It imports nothing else of the
ledger but its errors, so every room above may build on it; what the web
layer and the command line need of it, ``wordsvc.ledger`` names publicly.
"""
