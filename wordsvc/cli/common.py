"""What every command shares: one-line errors, JSON output, reading a file or stdin."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from marshmallow import ValidationError

from ..core.errors import WordsvcError
from ..schemas.common import flatten_errors
from ..service import Service

__all__ = ["CliError", "lexicon_of", "load_service", "one_line", "print_json", "read_json", "read_text"]


class CliError(Exception):
    """A problem to report in one line (exit status 2)."""


def one_line(err: Exception) -> str:
    """An error as the one line the CLI prints instead of a traceback."""
    if isinstance(err, WordsvcError):
        detail = "; ".join(f"{k}: {', '.join(v)}" for k, v in err.problems.items())
        return f"{err.detail} {detail}".strip()
    if isinstance(err, ValidationError):
        return "invalid input: " + "; ".join(f"{k}: {', '.join(v)}" for k, v in flatten_errors(err.messages).items())
    if isinstance(err, CliError):
        return str(err)
    return f"{type(err).__name__}: {err}"


def print_json(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


def read_text(path: str) -> str:
    """A UTF-8 file's text, or stdin for ``-``."""
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise CliError(f"{path}: {err}") from None


def read_json(path: str) -> Any:
    """A JSON file's document, or stdin's for ``-``; a one-line error if it is not JSON."""
    try:
        return json.loads(read_text(path))
    except ValueError as err:
        raise CliError(f"{path}: not valid JSON: {err}") from None


def load_service(without: str) -> Service | None:
    """The service's rulesets and lexicons, for checks that need them; ``None`` if they cannot load (saying on stderr what goes ``without`` them)."""
    try:
        return Service.from_settings()
    except Exception as err:  # a machine with no lexicons built still checks what needs none
        print(f"# lexicons not loaded ({one_line(err)}): {without}", file=sys.stderr)
        return None


def lexicon_of(service: Service | None) -> Callable[[Mapping[str, Any]], Any]:
    """A function from a lexicon's stamp to the service's loaded lexicon of the same id and sha256, else ``None``."""

    def of(stamp: Mapping[str, Any]) -> Any:
        if service is None:
            return None
        try:
            lexicon = service.languages.get(str(stamp["id"]))
        except Exception:  # a language this machine does not have
            return None
        return lexicon if lexicon.info.sha256 == stamp.get("sha256") else None

    return of
