"""The pure core of wordsvc: standard library only, no I/O.

Cards and decks, rulesets as objects, text normalization, the lexicon
interface, word verdicts, round and game scoring, and the solver. Nothing
here reads a file, opens a socket or imports flask, marshmallow, whoosh or
yaml; a test enforces it. Files are read by :mod:`wordsvc.data`, HTTP is
:mod:`wordsvc.web`.
"""
