"""The word lists and their builders: one folder a language, and the builders' kit (:mod:`wordlists._builder`).

Each ``<folder>/`` holds a language's ``manifest.yaml`` (docs/languages.md),
its README (provenance, licence, the filter's evidence), its licence files and
either a committed list or a builder that writes the list at set-up. A
package so that a builder runs as ``python -m wordlists.<folder>.<builder>``
from the checkout's root and imports the kit and :mod:`wordsvc.core.text`
normally, without path tricks. Nothing in ``wordsvc`` imports it: the service
reads the folders' files (:mod:`wordsvc.data.languages`) and runs a builder as a
command (:mod:`wordsvc.data.build`).
"""
