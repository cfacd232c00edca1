"""Text normalization: one function used when lexicons are built and when words are looked up.

A word is judged by its *normalized* form (:func:`normalize`): compatibility
characters folded to the letters they stand for, then case folding, then NFC.
So ``Café``, ``CAFÉ`` and the decomposed ``cafe\\u0301`` are the same key, and
so are ``quiz``, full-width ``ｑｕｉｚ``, ``ＱＵＩＺ`` and circled ``ⓠⓤⓘⓩ``; ``ﬁsh``
is ``fish`` and ``baß``/``BAẞ`` are ``bass``. docs/text.md gives the rule, each
class of character and why.

The folding, character by character: a *compatibility character* (one whose
NFKC form is not itself: ligatures, full-width and circled letters,
superscript and modifier letters, Roman numerals, ``ſ``, ``ǅ``) is replaced by
its NFKC form when it is a letter or its form is letters (with marks, an
apostrophe or a hyphen). Any other compatibility character, a symbol or
punctuation whose form is not letters (``⒜`` is ``(a)``, ``？`` is ``?``,
``½``, a no-break space), stays itself, so folding never makes card notation,
a wildcard, a digit or a space out of it; :func:`has_invalid_characters` then
refuses it, as it refuses every non-letter. So no compatibility character
reaches a lexicon: every one is folded to letters or refused. ``ß`` and ``ẞ``
are not compatibility characters (NFKC keeps ``ß``); case folding makes both
``ss``. The ligature ``œ`` (not a compatibility character) is written out
``oe``, as French word games lay it: no deck has an Œ card, and no word list
spells with it. The letters of Icelandic and Estonian (þ, ð, æ, ö, õ, š, ž,
á, ...) are not compatibility characters either and stay themselves.

The deck is a separate question: :func:`fold_diacritics` gives the plain
letters a language that lays loanwords without accents (English: café is laid
C-A-F-E) uses to match cards; Icelandic and Estonian do not fold (á is not a).
"""

from __future__ import annotations

import unicodedata

__all__ = ["WORD_PUNCTUATION", "fold_diacritics", "has_invalid_characters", "normalize"]

#: Characters that may stand inside a lexicon form but are on no card: the
#: apostrophe of contractions and possessives, the hyphen of compounds. A word
#: holding them is looked up (so its class can be named) but cannot be laid.
WORD_PUNCTUATION = frozenset("'-")


def normalize(text: str) -> str:
    """The lookup key of ``text``: NFC of the case-folded text, its compatibility characters folded.

    >>> normalize("Ca\\u0301fe\\u0301") == normalize("CÁFÉ") == "cáfé"
    True
    >>> normalize("ＱＵＩＺ"), normalize("ﬁsh"), normalize("BAẞ"), normalize("Þórður"), normalize("SŒUR")
    ('quiz', 'fish', 'bass', 'þórður', 'soeur')

    ASCII text costs one ``lower()``. Other text costs two NFKC quick checks
    (C code, a table look-up a character) besides the case folding: the full
    folding runs only for text that holds a compatibility character or is
    not NFC. Case folding can leave a string that is not NFC (``"ǰ"`` folds
    to j + caron), hence the second check. The typographic apostrophe is the
    ASCII one.
    """
    if text.isascii():  # the common case: NFC and NFKC are the identity and folding is lower()
        return text.lower()
    composed = text if unicodedata.is_normalized("NFKC", text) else _fold_compatibility(text)
    folded = composed.casefold()
    if folded != composed and not unicodedata.is_normalized("NFKC", folded):
        folded = _fold_compatibility(folded)
    if "œ" in folded:  # written out, as French word games lay sœur (S-O-E-U-R): no deck has an Œ card
        folded = folded.replace("œ", "oe")
    return folded.replace("\u2019", "'") if "\u2019" in folded else folded


def _fold_compatibility(text: str) -> str:
    """NFC of ``text`` with each compatibility character folded as the module docstring says."""
    out = []
    for ch in text:
        if ch > "\x7f":
            compatible = unicodedata.normalize("NFKC", ch)
            if compatible != ch and (ch.isalpha() or _word_characters(compatible)):
                ch = compatible
        out.append(ch)
    return unicodedata.normalize("NFC", "".join(out))


def _word_characters(text: str) -> bool:
    """Letters, marks and :data:`WORD_PUNCTUATION` only."""
    return all(ch in WORD_PUNCTUATION or unicodedata.category(ch)[0] in ("L", "M") for ch in text)


def fold_diacritics(text: str, keep: str = "") -> str:
    """``text`` with combining marks removed: ``"café"`` -> ``"cafe"``; the letters of ``keep`` stay as they are.

    Letters that are not a base letter plus marks (ð, þ, æ, ß) are kept. A
    language whose cards have no accents but a letter of its own folds with
    that letter kept (Spanish: ``"canción"`` -> ``"cancion"``, ``"niño"`` stays):

    >>> fold_diacritics("cañón", keep="ñ"), fold_diacritics("år idé", keep="å")
    ('cañon', 'år ide')
    """
    if text.isascii():
        return text
    if keep:
        return "".join(ch if ch in keep else fold_diacritics(ch) for ch in text)
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def has_invalid_characters(normalized: str) -> bool:
    """True when ``normalized`` holds a character no word can hold.

    Letters (and the combining marks that survive NFC) are fine; so are the
    apostrophe and hyphen of :data:`WORD_PUNCTUATION`. Digits, spaces, NUL and
    other punctuation are not, nor the compatibility characters
    :func:`normalize` does not fold to letters (``⒜``, ``½``, ``？``: none is a
    letter).
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
