"""Moving an event between ledgers: its export, and the checks of an import (docs/ledger.md, "Moving an event").

:mod:`.export` writes an event as one document and stores an imported one;
:mod:`.imports` checks an import row by row before anything is written, and
:mod:`.tournament_imports` its tournament rows as the writes that made them.
It imports the records, integrity and plumbing rooms; only the Ledger and
the trail import it.
"""
