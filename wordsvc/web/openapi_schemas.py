"""The parts of the OpenAPI document no marshmallow schema gives: answers the views build as dicts, and the event stream's content.

Each is a :class:`~wordsvc.web.endpoints.JsonSchema` (a component by its
name) or :class:`~wordsvc.web.endpoints.Content` that an endpoint's
declaration names as its answer.
"""

from __future__ import annotations

from typing import Any

from ..schemas import stream as s
from .endpoints import Content, JsonSchema

__all__ = ["EVENT_STREAM", "EXTRA_SCHEMAS", "HEALTH", "LANGUAGE_LIST", "READY", "RULESET", "RULESET_LIST", "STREAM_SCHEMAS", "VERDICTS_OR_JUDGE"]

#: The components of the stream's message data, by message type: ``Stream`` and the schema's name (``StreamRound``).
STREAM_SCHEMAS = [(f"Stream{schema.__name__.removesuffix('Data')}", schema) for schema in s.MESSAGE_DATA.values()]
_STREAM_EXAMPLE = (
    'retry: 2000\n\nid: 14\nevent: ready\ndata: {"event":"club-night","head":14}\n\n'
    'id: 15\nevent: round.stored\ndata: {"game":"t1","round":3,"revision":1,"points":{"Ann":41,"Bob":-6}}\n\n: keep-alive\n\n'
)


def _event_stream() -> Content:
    """``text/event-stream``: the body as text, and each message described as OpenAPI 3.2's ``itemSchema`` does (an extension here)."""
    messages = [
        {
            "type": "object",
            "required": ["id", "event", "data"],
            "properties": {
                "id": {"type": "string", "pattern": "^[0-9]+$", "description": "The audit entry's seq: a client resumes after it (Last-Event-ID)."},
                "event": {"type": "string", "enum": [kind]},
                "data": {"type": "string", "contentMediaType": "application/json", "contentSchema": {"$ref": f"#/components/schemas/{name}"}},
            },
        }
        for kind, (name, _) in zip(s.MESSAGE_DATA, STREAM_SCHEMAS, strict=True)
    ]
    return Content({
        "text/event-stream": {
            "schema": {
                "type": "string",
                "description": "Server-Sent Events, UTF-8: first `retry: 2000`, then messages, each an `id:` line (the audit entry's seq), an "
                "`event:` line (its type) and one `data:` line of JSON (its schema by type: `x-itemSchema`, the components `Stream...`), "
                "ending with an empty line; `: keep-alive` comments between them.",
                "example": _STREAM_EXAMPLE,
            },
            "x-itemSchema": {"description": "One message of the stream (as OpenAPI 3.2's itemSchema for text/event-stream), by its type.", "oneOf": messages},
        }
    })



#: A component written as JSON Schema, by its name; each answers an endpoint or is nested by one that does.
EXTRA_SCHEMAS: dict[str, dict[str, Any]] = {
    "VerdictsOrJudge": {"oneOf": [{"$ref": "#/components/schemas/Verdicts"}, {"$ref": "#/components/schemas/Judge"}]},
    "RulesetList": {
        "type": "object",
        "required": ["rulesets"],
        "properties": {"rulesets": {"type": "array", "items": {"$ref": "#/components/schemas/RulesetSummary"}}},
    },
    "RulesetSummary": {
        "type": "object",
        "required": ["id", "name", "description", "language", "extends"],
        "properties": {k: {"type": "string", "nullable": k == "extends"} for k in ("id", "name", "description", "language", "extends")},
    },
    "Ruleset": {
        "allOf": [
            {"$ref": "#/components/schemas/RulesetSummary"},
            {
                "type": "object",
                "required": ["players", "rounds", "deck", "words", "bonuses", "floor", "unused", "solitaire"],
                "properties": {
                    "players": {"type": "object", "properties": {"min": {"type": "integer"}, "max": {"type": "integer"}}},
                    "rounds": {"type": "array", "items": {"type": "integer"}, "description": "Hand size of each round."},
                    "deck": {
                        "type": "object",
                        "properties": {
                            "cards": {
                                "type": "array",
                                "items": {
                                    "type": "object",
                                    "properties": {"face": {"type": "string"}, "count": {"type": "integer"}, "value": {"type": "integer"}},
                                },
                            },
                            "size": {"type": "integer"},
                            "total_value": {"type": "integer"},
                        },
                    },
                    "words": {"type": "object", "additionalProperties": True, "description": "What a word needs and which are refused (docs/rules.md)."},
                    "bonuses": {"type": "object", "additionalProperties": True, "description": "The bonuses, their measure and ties (docs/rules.md)."},
                    "floor": {"type": "string", "enum": ["total", "before_bonuses", "none"]},
                    "unused": {"type": "string", "enum": ["subtract", "ignore"], "description": "Whether cards left over cost their value."},
                    "solitaire": {"type": "object", "additionalProperties": True, "description": "Solitaire's piles, depth and rebuilding knobs."},
                },
            },
        ]
    },
    "LanguageList": {
        "type": "object",
        "required": ["languages"],
        "properties": {
            "languages": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["id", "name", "tags", "version", "sha256", "entries", "source", "licence", "attribution", "ruleset"],
                    "properties": {
                        "id": {"type": "string"},
                        "name": {"type": "string"},
                        "tags": {"type": "array", "items": {"type": "string"}},
                        "version": {"type": "string"},
                        "sha256": {"type": "string"},
                        "entries": {"type": "integer", "nullable": True, "description": "Distinct forms; null for an analyser."},
                        "source": {"type": "string"},
                        "licence": {"type": "string"},
                        "attribution": {"type": "string"},
                        "ruleset": {
                            "type": "string",
                            "description": "The ruleset this lexicon is played with: the one a request naming this language and no ruleset gets.",
                        },
                    },
                },
            }
        },
    },
    "Health": {"type": "object", "required": ["status"], "properties": {"status": {"type": "string", "enum": ["ok"]}}},
    "Ready": {
        "type": "object",
        "required": ["status", "languages", "building", "rulesets"],
        "properties": {
            "status": {"type": "string", "enum": ["ready"]},
            "languages": {"type": "array", "items": {"type": "string"}, "description": "Lexicons loaded and answering."},
            "building": {"type": "array", "items": {"type": "string"}, "description": "Lexicons `wordsvc build` is still building: 503 with Retry-After until done."},
            "rulesets": {"type": "integer"},
        },
    },
}

RULESET_LIST, RULESET, LANGUAGE_LIST, HEALTH, READY, VERDICTS_OR_JUDGE = (
    JsonSchema(name, EXTRA_SCHEMAS[name]) for name in ("RulesetList", "Ruleset", "LanguageList", "Health", "Ready", "VerdictsOrJudge")
)
#: ``text/event-stream``: the stream's answer.
EVENT_STREAM = _event_stream()
