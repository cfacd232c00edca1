"""The HTTP layer: the app factory (:mod:`.app`), one module per resource, problems, OpenAPI. No game logic here."""
