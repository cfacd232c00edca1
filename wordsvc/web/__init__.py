"""The HTTP layer: app factory, views, the one error handler, OpenAPI. No game logic here."""

from .app import create_app

__all__ = ["create_app"]
