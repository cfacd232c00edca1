"""Word search, pure: words fitting a pattern, words some cards lay, words close to a word.

- :mod:`.queries`: the queries as values and their reference answers;
- :mod:`.patterns`: the pattern syntax, result order and cursors (the work
  budget every search runs on is :mod:`wordsvc.core.work`);
- :mod:`.suggest`: playable words one or two edits away.
"""
