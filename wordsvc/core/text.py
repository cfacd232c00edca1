"""Text normalization: one function used when lexicons are built and when words are looked up.

A word is judged by its *normalized* form: Unicode NFC after case folding, so
``Café``, ``CAFÉ`` and the decomposed ``cafe\\u0301`` are the same key. The
deck is a separate question: :func:`fold_diacritics` gives the plain letters a
language that lays loanwords without accents (English: café is laid C-A-F-E)
uses to match cards; Icelandic and Estonian do not fold (á is not a).
"""

from __future__ import annotations

import unicodedata

__all__ = ["WORD_PUNCTUATION", "fold_diacritics", "has_invalid_characters", "normalize"]

#: Characters that may stand inside a lexicon form but are on no card: the
#: apostrophe of contractions and possessives, the hyphen of compounds. A word
#: holding them is looked up (so its class can be named) but cannot be laid.
WORD_PUNCTUATION = frozenset("'-")


def normalize(text: str) -> str:
    """The lookup key of ``text``: NFC of the case-folded NFC text.

    >>> normalize("Ca\\u0301fe\\u0301") == normalize("CÁFÉ") == "cáfé"
    True

    Folding can leave a string that is not NFC (``"ǰ"`` folds to j + caron),
    hence NFC on both sides. The typographic apostrophe is the ASCII one.
    """
    if text.isascii():  # the common case: NFC is the identity and folding is lower()
        return text.lower()
    composed = text if unicodedata.is_normalized("NFC", text) else unicodedata.normalize("NFC", text)
    folded = composed.casefold()
    if folded != composed and not unicodedata.is_normalized("NFC", folded):
        folded = unicodedata.normalize("NFC", folded)
    return folded.replace("\u2019", "'") if "\u2019" in folded else folded


def fold_diacritics(text: str) -> str:
    """``text`` with combining marks removed: ``"café"`` -> ``"cafe"``.

    Letters that are not a base letter plus marks (ð, þ, æ, ß) are kept.
    """
    if text.isascii():
        return text
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def has_invalid_characters(normalized: str) -> bool:
    """True when ``normalized`` holds a character no word can hold.

    Letters (and the combining marks that survive NFC) are fine; so are the
    apostrophe and hyphen of :data:`WORD_PUNCTUATION`. Digits, spaces, NUL and
    other punctuation are not.
    """
    if normalized.isalpha():
        return False
    for ch in normalized:
        if ch in WORD_PUNCTUATION:
            continue
        category = unicodedata.category(ch)
        if category[0] not in ("L", "M"):
            return True
    return not normalized
