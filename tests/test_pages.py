"""The pages' files in the package: every word they use is in the catalogue, every asset they load is served."""

from __future__ import annotations

import re

from wordsvc.i18n import CATALOG, LOCALES, PAGE_PLURALS
from wordsvc.web.views.pages import ASSETS, PAGES, STATIC, render_page


def test_every_file_the_pages_load_is_an_asset_and_every_asset_ships() -> None:
    for page in PAGES:
        loaded = re.findall(r'(?:src|href)="/assets/([^"]+)"', render_page(page, "en", {}))
        assert loaded and set(loaded) <= set(ASSETS) and f"{page}.js" in loaded, loaded
    for js in (name for name in ASSETS if name.endswith(".js")):
        imported = re.findall(r'from "\./([^"]+)"', (STATIC / js).read_text(encoding="utf-8"))
        assert set(imported) <= set(ASSETS), imported
    assert {p.name for p in STATIC.iterdir()} == set(ASSETS) | {html for html, _ in PAGES.values()}


def test_every_word_the_pages_use_is_in_the_catalogue_in_every_locale() -> None:
    used: set[str] = set()
    for _page, (html, _prefixes) in PAGES.items():
        used |= set(re.findall(r'data-t="([a-z_.]+)"', (STATIC / html).read_text(encoding="utf-8")))
    scripts = [name for name in ASSETS if name.endswith(".js")]  # every module: the pages' own and those they import
    for js in scripts:  # a quoted key of the page's own prefixes ("judge.ruling" in dashboard.js is an audit action, not a word)
        text = (STATIC / js).read_text(encoding="utf-8")
        prefixes = "page|judge" if js == "judge.js" else "page|console|tournament|dashboard|players|links|newevent"
        used |= set(re.findall(r'\btn?\("([a-z_.]+)"', text)) | set(re.findall(rf'"((?:{prefixes})\.[a-z_.]+)"', text))
    for js in scripts:
        for prefix in re.findall(r"t\(`([a-z_.]+)\$\{", (STATIC / js).read_text(encoding="utf-8")):  # keys made at run time: page.role.*, console.bonus.*
            assert any(key.startswith(prefix) for key in CATALOG["en"]), prefix
    assert used, "no keys found: the patterns above no longer match the pages"
    for locale in LOCALES:
        missing = sorted(key for key in used if key not in CATALOG[locale] and key not in PAGE_PLURALS[locale])  # a count's text: tn(key, n)
        assert missing == [], f"{locale} lacks {missing}"
