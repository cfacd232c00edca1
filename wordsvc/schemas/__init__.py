"""The wire format: marshmallow schemas for every request and response, one module per resource.

Requests are read into :mod:`wordsvc.core` objects here, by the HTTP API
(:mod:`wordsvc.web`) and the CLI (:mod:`wordsvc.cli`) alike, so both refuse
the same input with the same field paths. Responses are described here
too: OpenAPI is generated from them and a test checks real answers against
them. This room imports only :mod:`wordsvc.core` and marshmallow.
"""
