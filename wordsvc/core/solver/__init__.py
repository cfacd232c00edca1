"""The best-play solver, pure: which words a hand's cards can lay, and the best arrangement of them.

- :mod:`.candidates`: where candidate words come from (letter keys, a lexicon's anagram index);
- :mod:`.groups`: step 1, the words (card groups) a hand can lay;
- :mod:`.arrangement`: step 2, the best arrangement of groups (memoized over card multisets);
- :mod:`.plays`: solver results as values;
- :mod:`.solver`: the solver itself: best play, discard, ties, top-k, pick-up advice.
"""
