"""Each endpoint is declared once, on its view, and the app serves exactly what is declared.

The OpenAPI document is derived from the declarations (tests/test_openapi.py
checks what it says); these check that the declarations and the app's Flask
rules are one set, and that a declaration cannot say what the document could
not hold.
"""

from __future__ import annotations

import pytest
from flask import Flask

from wordsvc.core.problem_codes import REGISTRY
from wordsvc.schemas.validate import ValidateQuery
from wordsvc.web.endpoints import TOKEN, Endpoint, Resource, query
from wordsvc.web.openapi import declared, spec
from wordsvc.web.parameters import EVENT

LEXICONS = ("en-US",)


@pytest.fixture
def app(service) -> Flask:
    from wordsvc.web.app import create_app

    return create_app(service=service)


def test_every_flask_rule_is_a_declared_endpoint_and_every_declaration_a_rule(app: Flask) -> None:
    served = {
        (method.lower(), rule.rule)
        for rule in app.url_map.iter_rules()
        if rule.endpoint != "static"  # Flask's own, for a static folder the app does not have
        for method in rule.methods or ()
        if method not in ("HEAD", "OPTIONS")
    }
    assert served == {(e.method, e.rule) for e in declared()}


def test_no_two_declarations_share_a_route_or_an_operation_id() -> None:
    endpoints = declared()
    assert len({(e.method, e.path) for e in endpoints}) == len(endpoints)
    assert len({e.operation_id for e in endpoints}) == len(endpoints)


def test_the_document_holds_every_documented_declaration_and_nothing_else() -> None:
    doc = spec()
    listed = {(method, path) for path, item in doc["paths"].items() for method in item}
    assert listed == {(e.method, e.path) for e in declared() if e.documented}
    assert [e.path for e in declared() if not e.documented] == ["/events/{event}/display"]  # a page outside the API, as it always was


def test_every_error_answer_lists_registered_codes_of_its_status() -> None:
    named = {(e.method, e.path) for e in declared() if e.problems is not None}
    for path, item in spec()["paths"].items():
        for method, operation in item.items():
            for status, answer in operation["responses"].items():
                if status[0] in "45":
                    listed = answer["x-problem-codes"]
                    of_status = [c.code for c in REGISTRY.values() if int(status) in c.statuses]
                    assert listed and listed == [c for c in of_status if c in listed], (method, path, status)
                    if (method, path) not in named:
                        assert listed == of_status, (method, path, status)
    submit = spec()["paths"]["/events/{event}/games/{game}/rounds/{round}"]["put"]["responses"]
    assert {"round_differs", "stored_meanwhile"} <= set(submit["409"]["x-problem-codes"]) and submit["428"]["x-problem-codes"] == ["errors_not_listed", "if_match_required"]


def test_the_roles_a_declaration_names_are_the_ones_its_description_opens_with() -> None:
    """The description tells a reader who may call (``Director token.``); the roles say the same for the /docs page."""
    openers = {("admin",): "Admin token.", ("director",): "Director token.", ("referee", "director"): "Referee or director token.", ("kiosk", "referee", "director"): "Kiosk, referee or director token.", ("player",): "Seat token.", ("player", "director"): "Seat or director token."}
    for e in declared():
        if e.roles:
            assert e.access == TOKEN, e.operation_id
            assert e.description.startswith(openers[e.roles]), e.operation_id
        else:
            assert not any(e.description.startswith(opener) for opener in openers.values()), e.operation_id


def test_the_flask_rule_is_derived_from_the_documented_path() -> None:
    rounds = next(e for e in declared() if e.operation_id == "submitRound")
    assert rounds.path == "/events/{event}/games/{game}/rounds/{round}"
    assert rounds.rule == "/events/<event:event>/games/<game>/rounds/<int:round>"


def test_a_declaration_whose_path_and_parameters_disagree_is_refused() -> None:
    with pytest.raises(ValueError, match="disagree"):
        Endpoint(method="get", path="/events/{event}/games/{game}", operation_id="x", tag="t", summary="s", description="d", parameters=[EVENT])


def test_query_parameters_without_the_schema_that_reads_them_are_refused() -> None:
    with pytest.raises(ValueError, match="query schema"):
        Endpoint(method="get", path="/x", operation_id="x", tag="t", summary="s", description="d", parameters=[query("word", "The word.")])
    Endpoint(method="get", path="/x", operation_id="x", tag="t", summary="s", description="d", parameters=[query("word", "The word.")], query=ValidateQuery)


def test_an_unknown_role_or_access_is_refused() -> None:
    with pytest.raises(ValueError, match="roles"):
        Endpoint(method="post", path="/x", operation_id="x", tag="t", summary="s", description="d", access=TOKEN, roles=("umpire",))


def test_a_resource_routes_a_view_from_its_declaration_and_keeps_it() -> None:
    bp = Resource("probe", __name__)
    endpoint = Endpoint(method="put", path="/probe/{event}", operation_id="probe", tag="t", summary="s", description="d", parameters=[EVENT])

    @bp.declare(endpoint)
    def probe(event: str) -> str:
        return event

    app = Flask("probe")
    app.url_map.converters["event"] = app.url_map.converters["default"]
    app.register_blueprint(bp)
    assert bp.endpoints == [endpoint]
    assert app.test_client().put("/probe/club").get_data(as_text=True) == "club"
    assert app.test_client().get("/probe/club").status_code == 405
