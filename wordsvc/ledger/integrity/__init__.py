"""What makes the ledger tamper-evident, and the checks that prove it (docs/ledger.md, "Audit").

The audit chain's format and check (:mod:`.audit`), the Merkle tree and
receipts (:mod:`.receipts`), signed checkpoints (:mod:`.checkpoints`) and the
check of a receipt (:mod:`.receipt_check`), every entry signed as it is
written (:mod:`.entry_signatures`), token rows sealed (:mod:`.token_seals`),
every stored round scored again (:mod:`.rescoring`), a tournament rebuilt from
its chain (:mod:`.tournament_trail`) and the whole check of one event
(:mod:`.verification`). It works on rows and entries, below the concepts that
write them: it imports only the private plumbing and the ledger's errors.
"""
