"""The HTTP layer: the app factory (:mod:`.app`) and its plumbing here, the views in :mod:`.views`, problems, OpenAPI. No game logic here."""
