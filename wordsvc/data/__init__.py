"""The only part of wordsvc that reads files: rulesets, decks, word lists, compiled lexicons.

Everything read here is turned into the pure objects of :mod:`wordsvc.core`.
"""
