"""An event's own records: the event, its tables, rounds, deals, rulings and tokens, and what they share.

:class:`~.store.Store` is what every concept shares (the database, the
audit entry each write appends, its receipt); :mod:`.principals` is who a
request acts as, :mod:`.access` what each role may do; :mod:`.tokens`,
:mod:`.events`, :mod:`.deals`, :mod:`.games`, :mod:`.rounds` and
:mod:`.rulings` are one concept each; :mod:`.feed` and :mod:`.changes` are
what an event's streams send and how a worker hears of a write. It imports
the integrity room and the private plumbing below it, never the tournament
or transfer rooms above.
"""
