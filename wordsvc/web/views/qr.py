"""``POST /qr``: a QR code as SVG, made by segno, for the pages (docs/pages.md, "Sign-in links").

The console has no build step and loads nothing from another origin, so the
code is drawn here. segno is a maintained, pure-Python QR code library with
no dependencies of its own that writes SVG directly. Nothing is stored, and
the body (a sign-in link holds a referee's token) is never logged: the
access log has the method, the path and the status only.
"""

from __future__ import annotations

import io

import segno
from flask import Response

from ...schemas.qr import QrBody
from ..endpoints import SVG, Endpoint, Resource
from ..requests import read_json

__all__ = ["bp", "qr_svg"]

bp = Resource("qr", __name__)

QR_BODY = QrBody()
#: The quiet zone a reader needs around the code: 4 modules (ISO/IEC 18004).
BORDER = 4


def qr_svg(text: str) -> str:
    """``text`` as a QR code, SVG with a viewBox and no size (the page sizes it), dark on white, with its title."""
    code = segno.make(text, error="l", boost_error=True, micro=False)
    out = io.BytesIO()
    code.save(out, kind="svg", xmldecl=False, nl=False, border=BORDER, omitsize=True, dark="#000", light="#fff", svgclass="qr", lineclass=None, title="QR code")
    return out.getvalue().decode("ascii")


@bp.declare(
    Endpoint(
        method="post",
        path="/qr",
        operation_id="makeQrCode",
        tag="pages",
        summary="A QR code",
        description="The text as a QR code, SVG (made by segno; 4 modules of quiet zone, no size: a viewBox), for the console's sign-in links (docs/pages.md). "
        "No token; nothing is stored, the body is never logged, and the answer is Cache-Control: no-store.",
        body=QrBody,
        answers={200: SVG},
        errors=(400, 413, 415, 422),
        problems=(),
    )
)
def make_qr() -> Response:
    body = QR_BODY.load(read_json())
    response = Response(qr_svg(body["text"]), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"  # it may hold a token: no cache keeps it
    response.headers["Content-Security-Policy"] = "default-src 'none'"
    return response
