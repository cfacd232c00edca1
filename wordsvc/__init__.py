"""wordsvc: a multilingual dictionary and rules-variant server for Quiddler."""

__version__ = "0.1.0"
