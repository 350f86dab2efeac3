"""The web page served beside the game's WebSocket protocol, on the host's own port.

A browser is a remote window (docs/web.md): the page draws from what the host sends
(:mod:`sliders.net.view`), reads the hand and sends the seat's intended shot in the protocol of
docs/protocol.md; it decides nothing. :class:`Site` answers the plain HTTP requests that come
before a WebSocket handshake (websockets' ``process_request``): ``/`` lists the rooms and their
seats (each seat's link and QR code only with the host's key, printed in its terminal),
``/play#room=R&code=C`` is a seat's page, ``/table#room=R`` the whole table for a shared screen
or a spectator, ``/web/FILE`` the page's files, every one shipped in this package (no CDN: a LAN
without internet plays). A seat's code travels in the link's fragment, which a browser never
sends to a server: the code stays the only key (a room with a watch code gives its table's
link that code too). What reaches the page has passed the host's gate first
(:meth:`sliders.net.guard.Gate.check`: the caps on connections, and a browser's WebSocket
handshake from another site's page refused).
"""

from __future__ import annotations

import html
import io
import secrets
from collections.abc import Iterable, Mapping, Sequence
from http import HTTPStatus
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import segno
from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from sliders.core.outcome import SEAT_COLOURS
from sliders.net.guard import response

WEB_DIR = Path(__file__).resolve().parent / "web"
"""the page's files"""
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".wav": "audio/wav",
}
PAGES = {"/play": "page.html", "/table": "page.html"}
"""paths answered with the page (it reads its mode from the path and the rest from the
fragment)"""
KEY_BYTES = 16
"""the host's key (the lobby's seat links and QR codes): 128 random bits"""
POLICY = (
    "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
    "style-src 'self' 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
"""the pages' content security policy: nothing but this host's own files and socket"""


class Site:
    """The host's pages (``rooms``: each room's name, seats and codes, read as they are served;
    ``base``: the address the links name, ``http://ADDRESS:PORT``, or the address each
    request was sent to; ``web``: False serves no page; ``secure``: served over TLS, https).
    ``key`` opens the lobby's seat links."""

    def __init__(
        self,
        rooms: Mapping[str, Any],
        base: str = "",
        *,
        web: bool = True,
        secure: bool = False,
        key: str = "",
    ) -> None:
        self.rooms = rooms
        self.base = base
        self.web = web
        self.scheme = "https" if secure else "http"
        self.key = key or secrets.token_hex(KEY_BYTES)
        self.files = {p.name: p.read_bytes() for p in sorted(WEB_DIR.iterdir()) if p.is_file()}
        self.served = 0

    def __call__(self, connection: ServerConnection, request: Request) -> Response | None:
        """A plain HTTP request's answer; None for a WebSocket handshake (or with no page)."""
        if "websocket" in request.headers.get("Upgrade", "").lower() or not self.web:
            return None
        self.served += 1
        url = urlsplit(request.path)
        path = url.path
        if path == "/":
            query = parse_qs(url.query)
            keyed = secrets.compare_digest(query.get("key", [""])[0], self.key)
            base = self.base or f"{self.scheme}://{request.headers.get('Host', '127.0.0.1')}"
            body = lobby_html(self.rooms, base, keyed)
            return _response(HTTPStatus.OK, body.encode(), TYPES[".html"], private=True)
        if path in PAGES:
            return _response(HTTPStatus.OK, self.files[PAGES[path]], TYPES[".html"])
        if path.startswith("/web/"):
            name = path[len("/web/") :]
            data = self.files.get(name)
            if data is not None and "/" not in name:
                return _response(HTTPStatus.OK, data, TYPES.get(Path(name).suffix, "text/plain"))
        if path == "/favicon.ico":
            return _response(HTTPStatus.OK, self.files["icon.svg"], TYPES[".svg"])
        return _response(HTTPStatus.NOT_FOUND, b"not found\n")


def seat_link(base: str, room: str, code: str) -> str:
    """The page of the seat whose code is ``code`` (the code in the fragment: never sent over
    HTTP)."""
    return f"{base}/play#room={room}&code={code}"


def table_link(base: str, room: str, watch_code: str | None = None) -> str:
    """The room's table (a shared screen, or a spectator), with the room's watch code if any."""
    return f"{base}/table#room={room}" + (f"&code={watch_code}" if watch_code else "")


def qr_code(text: str) -> segno.QRCode:
    """``text`` as the QR code every picture of a link draws (the terminal, the lobby, the
    host's window): a full-size code at error correction level M."""
    return segno.make(text, error="m", micro=False)


def qr_modules(text: str) -> list[list[bool]]:
    """``text``'s QR code as rows of modules, True dark, without the quiet zone."""
    return [[bool(v) for v in row] for row in qr_code(text).matrix]


def qr_svg(text: str, scale: int = 4) -> str:
    """``text`` as a QR code, an SVG element (dark on light, a quiet zone around it)."""
    out = io.BytesIO()
    qr_code(text).save(
        out, kind="svg", scale=scale, border=4, xmldecl=False, svgns=True, dark="#111", light="#fff"
    )
    return out.getvalue().decode()


def qr_lines(text: str) -> list[str]:
    """``text`` as a QR code drawn in a terminal: two rows of modules a line (half blocks), dark
    modules as the terminal's background on a light quiet zone."""
    rows = [list(r) for r in qr_code(text).matrix_iter(border=2)]
    if len(rows) % 2:
        rows.append([0] * len(rows[0]))
    glyph = {(0, 0): "█", (0, 1): "▀", (1, 0): "▄", (1, 1): " "}
    return [
        "".join(glyph[(bool(a), bool(b))] for a, b in zip(top, low, strict=True))
        for top, low in zip(rows[::2], rows[1::2], strict=True)
    ]


def side_by_side(blocks: Sequence[Sequence[str]], width: int, gap: int = 2) -> list[str]:
    """Blocks of lines (QR codes with their captions) set side by side as many as fit in
    ``width`` columns, the rest below."""
    out: list[str] = []
    row: list[Sequence[str]] = []
    used = 0
    for block in [*blocks, None]:
        w = max((len(line) for line in block), default=0) if block is not None else 0
        if block is None or (row and used + gap + w > width):
            widths = [max(len(line) for line in b) for b in row]
            for i in range(max((len(b) for b in row), default=0)):
                cells = [
                    (b[i] if i < len(b) else "").ljust(wd)
                    for b, wd in zip(row, widths, strict=True)
                ]
                out.append((" " * gap).join(cells).rstrip())
            row, used = [], 0
        if block is not None:
            row.append(block)
            used += (gap if used else 0) + w
    return out


def lobby_html(rooms: Mapping[str, Any], base: str, keyed: bool) -> str:
    """The lobby: each room, its seats (who is here) and the table's link; with the host's key,
    each free seat's link and QR code too."""
    parts = []
    for name, room in rooms.items():
        seats = []
        for seat in room.presence():
            code = room.codes.get(seat["seat"])
            who = (
                "the computer"
                if seat["kind"] == "cpu"
                else (html.escape(seat["name"]) or "here")
                if seat["connected"]
                else "free"
            )
            cell = (
                f'<li class="seat {SEAT_COLOURS.get(seat["seat"], "")}">'
                f"<b>{seat['seat']}</b> <span>{who}</span>"
            )
            if keyed and code is not None:
                link = seat_link(base, name, code)
                cell += (
                    f'<a class="join" href="{html.escape(link)}">play {seat["seat"]}</a>'
                    f'<div class="qr">{qr_svg(link)}</div>'
                )
            seats.append(cell + "</li>")
        over = " (over)" if getattr(room, "over", None) else ""
        watch = getattr(room, "watch_code", None) if keyed else None
        parts.append(
            f"<section><h2>Room {html.escape(name)}{over}</h2><ul>{''.join(seats)}</ul>"
            f'<a class="table" href="{html.escape(table_link(base, name, watch))}">'
            f"the table (a shared screen, or watch)</a></section>"
        )
    hint = (
        "Each player opens their seat's link, or points their phone's camera at its code."
        if keyed
        else "Each player opens the link of their seat that the host gave them (the host's "
        "terminal prints them, with the address that shows them all here)."
    )
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sorry! Sliders</title><link rel="icon" href="/web/icon.svg">
<link rel="stylesheet" href="/web/style.css"></head>
<body class="lobby"><h1>Sorry! Sliders</h1><p>{hint}</p>{"".join(parts)}</body></html>
"""


def print_links(
    rooms: Iterable[Any], base: str, key: str, say: Any = print, width: int = 100
) -> None:
    """The page's links in the terminal: the lobby with the key, and each remote seat's link
    with its QR code."""
    say(f"web: open {base}/?key={key} on a screen everyone sees (every seat's link and QR code)")
    for room in rooms:
        say(f"room {room.name}: the table {table_link(base, room.name, room.watch_code)}")
        blocks = []
        for seat, code in room.codes.items():
            link = seat_link(base, room.name, code)
            say(f"  {seat}: {link}")
            blocks.append([f"{seat}, room {room.name}", *qr_lines(link)])
        for line in side_by_side(blocks, width):
            say(line)


def _response(
    status: HTTPStatus, body: bytes, kind: str = "text/plain; charset=utf-8", private: bool = False
) -> Response:
    """A page's answer: nothing but this host's own files and socket, no referrer, cached
    only after asking again (``private``: never)."""
    return response(
        status,
        body,
        kind,
        [
            ("Content-Security-Policy", POLICY),
            ("Referrer-Policy", "no-referrer"),
            ("Cache-Control", "no-store" if private else "no-cache"),
        ],
    )
