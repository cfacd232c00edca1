"""Human-readable messages for reason codes and error titles, per locale.

Codes never change; messages are for people and come in every locale the
service speaks. :data:`CATALOG` maps locale -> key -> template; a test checks
that every locale has every key. ``str.format`` fields name the parameters a
reason carries.
"""

from __future__ import annotations

from collections.abc import Mapping

from .locales import MODULES
from .page_messages import LOCALE_NAMES, PAGE_CATALOG

__all__ = ["CATALOG", "DEFAULT_LOCALE", "LOCALES", "LOCALE_NAMES", "render"]

DEFAULT_LOCALE = "en"

CATALOG: dict[str, dict[str, str]] = {
    "en": {
        "reason.not_in_lexicon": "'{word}' is not in the {lexicon} lexicon.",
        "reason.banned_class": "'{word}' is only a word in a class this ruleset bans: {class_label}.",
        "reason.house_refused": "'{word}' is refused by this ruleset's house rules.",
        "reason.too_short": "A word needs at least {min_cards} card(s) and {min_letters} letter(s).",
        "reason.too_long": "'{word}' needs more cards than the largest hand ({max_cards}).",
        "reason.not_spellable": "The deck cannot lay '{word}': {why}.",
        "reason.invalid_characters": "A word holds only letters.",
        "why.missing_letters": "no card has {letters}",
        "why.too_many_copies": "it needs more copies of a card than the deck holds",
        "why.unknown_cards": "no card reads {cards}",
        "hint.ruleset": "The {ruleset} ruleset, which this lexicon is played with, has a deck that lays it: send ruleset={ruleset}, or leave ruleset out.",
        "class.proper_noun": "proper noun",
        "class.abbreviation": "abbreviation",
        "class.contraction": "contraction",
        "class.possessive": "possessive",
        "class.hyphenated": "hyphenated word",
        "class.prefix": "prefix",
        "class.suffix": "suffix",
        "class.compound": "compound",
        "class.clitic": "form with a clitic",
        "class.obsolete": "obsolete form",
        "class.rare": "rare form",
        "class.letter_plural": "plural of a letter's name (bs, cs)",
        "class.symbol": "unit or technical symbol",
        "class.run_together": "two words run together",
        "class.roman_numeral": "Roman numeral",
        "class.rare_short": "short form only the largest word list holds",
        "title.bad_request": "Malformed request",
        "title.invalid_request": "Invalid request",
        "title.not_found": "Not found",
        "title.method_not_allowed": "Method not allowed",
        "title.payload_too_large": "Request body too large",
        "title.unsupported_media_type": "Unsupported media type",
        "title.internal_error": "Internal server error",
        "title.not_ready": "Not ready",
        "title.request_timeout": "Request timeout",
        "title.header_fields_too_large": "Request header fields too large",
        "title.not_implemented": "Not implemented",
        "title.unauthorized": "Authentication required",
        "title.forbidden": "Not allowed",
        "title.conflict": "Conflict with what is stored",
        "title.precondition_failed": "Precondition failed",
        "title.precondition_required": "Precondition required",
    },
    "et": {
        "reason.not_in_lexicon": "Sõna '{word}' ei ole sõnastikus {lexicon}.",
        "reason.banned_class": "'{word}' on sõna ainult liigis, mida need reeglid ei luba: {class_label}.",
        "reason.house_refused": "Nende reeglite omareeglid ei luba sõna '{word}'.",
        "reason.too_short": "Sõnas peab olema vähemalt {min_cards} kaart(i) ja {min_letters} tähte.",
        "reason.too_long": "Sõna '{word}' vajab rohkem kaarte, kui on suurimas käes ({max_cards}).",
        "reason.not_spellable": "Selle kaardipakiga ei saa sõna '{word}' laduda: {why}.",
        "reason.invalid_characters": "Sõnas võivad olla ainult tähed.",
        "why.missing_letters": "pakis pole kaarti tähega {letters}",
        "why.too_many_copies": "selleks on vaja ühte kaarti rohkem kordi, kui pakis on",
        "why.unknown_cards": "pakis pole kaarti {cards}",
        "hint.ruleset": "Reeglitel {ruleset}, millega seda sõnastikku mängitakse, on kaardipakk, millega selle saab laduda: saada ruleset={ruleset} või jäta ruleset ära.",
        "class.proper_noun": "pärisnimi",
        "class.abbreviation": "lühend",
        "class.contraction": "kokkutõmmatud vorm",
        "class.possessive": "omastav vorm",
        "class.hyphenated": "sidekriipsuga sõna",
        "class.prefix": "eesliide",
        "class.suffix": "järelliide",
        "class.compound": "liitsõna",
        "class.clitic": "liitepartikliga (-ki/-gi) vorm",
        "class.obsolete": "iganenud vorm",
        "class.rare": "haruldane vorm",
        "class.letter_plural": "tähe nimetuse mitmus (bs, cs)",
        "class.symbol": "ühiku või tehniline tähis",
        "class.run_together": "kokku kirjutatud kaks sõna",
        "class.roman_numeral": "rooma number",
        "class.rare_short": "lühivorm, mis on ainult suurimas sõnaloendis",
        "title.bad_request": "Vigane päring",
        "title.invalid_request": "Kehtetu päring",
        "title.not_found": "Ei leitud",
        "title.method_not_allowed": "Meetod pole lubatud",
        "title.payload_too_large": "Päring on liiga suur",
        "title.unsupported_media_type": "Toetamata andmetüüp",
        "title.internal_error": "Serveri sisemine viga",
        "title.not_ready": "Teenus pole veel valmis",
        "title.request_timeout": "Päring ei jõudnud õigel ajal kohale",
        "title.header_fields_too_large": "Päise väljad on liiga suured",
        "title.not_implemented": "Pole toetatud",
        "title.unauthorized": "Vaja on tuvastamist",
        "title.forbidden": "Pole lubatud",
        "title.conflict": "Vastuolu salvestatuga",
        "title.precondition_failed": "Eeltingimus ei kehti",
        "title.precondition_required": "Eeltingimus on nõutud",
    },
    "is": {
        "reason.not_in_lexicon": "'{word}' er ekki í orðasafninu {lexicon}.",
        "reason.banned_class": "'{word}' er aðeins orð í flokki sem þessar reglur banna: {class_label}.",
        "reason.house_refused": "Heimareglur þessa reglusafns hafna '{word}'.",
        "reason.too_short": "Orð þarf að minnsta kosti {min_cards} spil og {min_letters} stafi.",
        "reason.too_long": "'{word}' þarf fleiri spil en stærsta höndin hefur ({max_cards}).",
        "reason.not_spellable": "Ekki er hægt að leggja '{word}' með þessum stokki: {why}.",
        "reason.invalid_characters": "Orð mega aðeins innihalda bókstafi.",
        "why.missing_letters": "ekkert spil ber {letters}",
        "why.too_many_copies": "það þarf fleiri eintök af spili en stokkurinn hefur",
        "why.unknown_cards": "ekkert spil ber {cards}",
        "hint.ruleset": "Reglusafnið {ruleset}, sem þetta orðasafn er spilað með, hefur stokk sem leggur það: sendu ruleset={ruleset} eða slepptu ruleset.",
        "class.proper_noun": "sérnafn",
        "class.abbreviation": "skammstöfun",
        "class.contraction": "samdráttur",
        "class.possessive": "eignarfallsmynd",
        "class.hyphenated": "orð með bandstriki",
        "class.prefix": "forskeyti",
        "class.suffix": "viðskeyti",
        "class.compound": "samsett orð",
        "class.clitic": "mynd með áskeyttri smáögn",
        "class.obsolete": "úrelt mynd",
        "class.rare": "sjaldgæf mynd",
        "class.letter_plural": "fleirtala bókstafsheitis (bs, cs)",
        "class.symbol": "tákn einingar eða tæknitákn",
        "class.run_together": "tvö orð skrifuð saman",
        "class.roman_numeral": "rómversk tala",
        "class.rare_short": "stutt mynd sem aðeins stærsti orðalistinn hefur",
        "title.bad_request": "Gölluð beiðni",
        "title.invalid_request": "Ógild beiðni",
        "title.not_found": "Fannst ekki",
        "title.method_not_allowed": "Aðferð ekki leyfð",
        "title.payload_too_large": "Beiðnin er of stór",
        "title.unsupported_media_type": "Óstudd gagnategund",
        "title.internal_error": "Innri villa í þjóninum",
        "title.not_ready": "Þjónustan er ekki tilbúin",
        "title.request_timeout": "Beiðnin barst ekki í tæka tíð",
        "title.header_fields_too_large": "Hausar beiðninnar eru of stórir",
        "title.not_implemented": "Ekki stutt",
        "title.unauthorized": "Auðkenningar krafist",
        "title.forbidden": "Ekki leyft",
        "title.conflict": "Stangast á við það sem er vistað",
        "title.precondition_failed": "Forsenda stenst ekki",
        "title.precondition_required": "Forsendu krafist",
    },
    **{code: dict(module.MESSAGES) for code, module in MODULES.items()},
}

for _locale, _texts in PAGE_CATALOG.items():  # the console's and the kiosk's words (docs/pages.md)
    CATALOG[_locale].update(_texts)

LOCALES = tuple(CATALOG)


def render(key: str, locale: str = DEFAULT_LOCALE, params: Mapping[str, object] | None = None) -> str:
    """The message ``key`` in ``locale`` (falling back to English), filled with ``params``."""
    catalog = CATALOG.get(locale, CATALOG[DEFAULT_LOCALE])
    template = catalog.get(key) or CATALOG[DEFAULT_LOCALE][key]
    return template.format(**(params or {}))
