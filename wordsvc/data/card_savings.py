"""What multi-letter cards can save in a word, for millions of words at once (building the indexes).

A word of more letters than a hand holds cards can still be laid when
multi-letter cards (QU, IN, TH, ...) take up some of its letters. Both
indexes built beside a lexicon bound that saving the same way, generously
(overlapping places allowed, as long as the deck holds the copies)::

    sum(min(word.count(face), copies) * (len(face) - 1) for face, copies in faces.items())

:func:`card_savings` gives exactly that for every word of a list, but counts
in bulk: one ``str.replace`` per face over all the words joined by newlines,
which marks each counted place with a control character inside the face
(``qu`` becomes ``q\\x01u``), then one ``bytes.translate`` that drops all
but the marks, so each word is left as a short signature of its marks
(mostly empty), and the sum is worked out once per distinct signature. The
Estonian candidates (13 million long forms) take seconds this way, against
more than a minute word by word.

The marks count what ``str.count`` counts: ``replace`` scans left to right
and never overlaps a face with itself, like ``count``, and a mark inside one
face's place never splits another face's place as long as no face holds the
first two letters of another (true of every pair of two-letter faces). When
that or anything else the trick needs does not hold (a word with a newline
or a mark character, more faces than marks), the words are counted one by
one.
"""

from __future__ import annotations

from itertools import repeat

__all__ = ["card_savings", "card_savings_of"]

#: Control characters used as marks: none is a letter, none is ``\\t`` or ``\\n``.
MARKS = "".join(chr(code) for code in range(1, 32) if chr(code) not in "\t\n")


def card_savings_of(word: str, faces: dict[str, int]) -> int:
    """The saving of one word: the definition :func:`card_savings` computes in bulk."""
    return sum(min(word.count(face), copies) * (len(face) - 1) for face, copies in faces.items())


def card_savings(words: list[str], faces: dict[str, int]) -> list[int]:
    """:func:`card_savings_of` each of ``words``, in order, counted in bulk (see the module docstring)."""
    if not words or not faces:
        return [0] * len(words)
    if not _bulk_safe(faces):
        return list(map(card_savings_of, words, repeat(faces)))
    joined = "\n".join(words)
    if joined.count("\n") != len(words) - 1 or any(mark in joined for mark in MARKS):
        return list(map(card_savings_of, words, repeat(faces)))
    marks = {}
    for (face, copies), mark in zip(faces.items(), MARKS, strict=False):
        joined = joined.replace(face, face[0] + mark + face[1:])
        marks[mark] = (copies, len(face) - 1)
    keep = {ord(mark) for mark in marks} | {ord("\n")}
    signatures = joined.encode("utf-8").translate(None, bytes(code for code in range(256) if code not in keep)).split(b"\n")
    value = {signature: _value(signature.decode("ascii"), marks) for signature in set(signatures)}
    return list(map(value.__getitem__, signatures))


def _value(signature: str, marks: dict[str, tuple[int, int]]) -> int:
    return sum(min(signature.count(mark), copies) * saved for mark, (copies, saved) in marks.items())


def _bulk_safe(faces: dict[str, int]) -> bool:
    """True when marks inside each face's places count every face right (see the module docstring)."""
    if len(faces) > len(MARKS):
        return False
    for face in faces:
        if len(face) < 2 or "\n" in face or any(mark in face for mark in MARKS):
            return False
        if any(other != face and face[:2] in other for other in faces):
            return False
    return True
