"""A tournament's records: players, sessions and their seats, standings across sessions, ratings across events.

Registration, check-in and deletion (:mod:`.players`), a list registered at
once (:mod:`.registration`), sessions seated by
``wordsvc.core.seating`` (:mod:`.sessions`), an event's standings and a
duplicate event's matchpoints (:mod:`.standings`), the overall standings and
crosstable (:mod:`.tournament_standings`), and ratings (:mod:`.ratings`)
(docs/tournaments.md). Each is a concept on the event's
:class:`~wordsvc.ledger.records.store.Store`, so it imports the records room
and those below it.
"""
