"""The views: one module per resource, each a Flask blueprint that reads a request, calls the service or the ledger, and answers.

The app's plumbing they stand on (the factory, admission, metrics, the JSON
encoding, the one error shape, request reading, locale negotiation, the
OpenAPI machinery) is in ``wordsvc.web`` beside this folder; a view imports
it, and it imports no view but in the two places that assemble them (the
factory registers every blueprint; the OpenAPI document reads the pages'
assets and word search's operations). ``ledger_access`` is what the ledger's
views share: the app's ledger and who a request acts as on it.
"""
