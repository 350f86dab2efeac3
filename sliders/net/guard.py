"""What stands between a host and a real network, shared by everything the host serves on its
port: the listening sockets (bound before anything is written; IPv6 beside IPv4 when public),
TLS (:func:`server_tls`), the ``Origin`` of a browser's connection (:func:`origin_allowed`), the
caps on connections in total and from one address (:class:`Gate`), and the machine's addresses
a host prints (:func:`machine_addresses`).

A :class:`Gate` counts a connection from the moment it is accepted to the moment it is gone,
refused or not, so that the descriptors it holds are counted too; the caps leave
:data:`RESERVED_FILES` descriptors for the logs and the host's own work, whatever the clients do.
"""

from __future__ import annotations

import email.utils
import errno
import ipaddress
import resource
import socket
import ssl
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from http import HTTPStatus
from urllib.parse import urlsplit

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from sliders.core.errors import UserError
from sliders.net.protocol import ProtocolError

RESERVED_FILES = 64
"""descriptors kept from the clients: the logs, their locks and temporary files, the host's own"""
MAX_CONNECTIONS = 1000
"""connections a host takes at once, at most (fewer when the process may open fewer files)"""
PER_ADDRESS = 32
"""connections one address may hold at once (a household or a café behind one address fits)"""
WATCHERS_PER_ROOM = 300
"""spectators one room takes at once"""
PORTS = range(0, 65536)
RATE = 40.0
"""messages a second a client may send on average"""
BURST = 80.0
"""messages a client may send at once"""


def check_port(port: int, flag: str = "--port") -> int:
    """A TCP port from 0 (a free one) to 65535, or one line saying why not."""
    if port not in PORTS:
        raise UserError(f"{flag} {port}: a port is from 0 to 65535 (0: a free one)")
    return port


def open_files_limit() -> int:
    """The files this process may open, its soft limit raised to the hard one where it can be."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        want = 65536 if hard == resource.RLIM_INFINITY else hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
            soft = want
        except (ValueError, OSError):
            pass
    return int(soft)


def connection_cap(rooms: int, files: int | None = None) -> int:
    """How many connections a host of ``rooms`` rooms takes at once: :data:`MAX_CONNECTIONS`,
    or fewer, so that :data:`RESERVED_FILES` (and a few a room) stay free of the ``files`` the
    process may open (None: its limit)."""
    files = open_files_limit() if files is None else files
    return max(1, min(MAX_CONNECTIONS, files - RESERVED_FILES - 4 * rooms))


def listen(address: str, port: int) -> socket.socket:
    """A socket bound to ``address`` (``::``: every interface, IPv6 and IPv4 alike where the
    machine has IPv6; ``0.0.0.0`` otherwise) and ``port``, listening: bound before a host
    writes anything, so a port in use leaves no file behind."""
    check_port(port)
    if address == "::" and not socket.has_ipv6:
        address = "0.0.0.0"
    family = socket.AF_INET6 if ":" in address else socket.AF_INET
    try:
        sock = socket.socket(family, socket.SOCK_STREAM)
    except OSError as exc:
        if family == socket.AF_INET6:
            return listen("0.0.0.0", port)  # no IPv6 on this machine
        raise UserError(f"cannot listen on {address}:{port}: {exc.strerror or exc}") from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        sock.bind((address, port))
        sock.listen(128)
        sock.setblocking(False)
    except OSError as exc:
        sock.close()
        if family == socket.AF_INET6 and exc.errno in (errno.EAFNOSUPPORT, errno.EADDRNOTAVAIL):
            return listen("0.0.0.0", port)  # no IPv6 on this machine
        raise UserError(f"cannot listen on {address}:{port}: {exc.strerror or exc}") from None
    return sock


def machine_addresses() -> list[str]:
    """This machine's addresses others may reach it at (not the loopback): those its name
    resolves to and those its routes leave by (found without sending anything)."""
    found: list[str] = []
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, proto=socket.IPPROTO_TCP)
        found += [str(i[4][0]) for i in infos]
    except OSError:
        pass
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        try:
            with socket.socket(family, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))  # no packet leaves: it only picks the route
                found.append(str(s.getsockname()[0]))
        except OSError:
            pass
    out: list[str] = []
    for text in found:
        try:
            ip = ipaddress.ip_address(text.split("%")[0])
        except ValueError:
            continue
        if ip.is_loopback or ip.is_unspecified or ip.is_link_local or str(ip) in out:
            continue
        out.append(str(ip))
    return sorted(out, key=lambda a: (":" in a, a))


def host_port(address: str, port: int) -> str:
    """``address:port`` as a URL writes it (an IPv6 address in brackets)."""
    return f"[{address}]:{port}" if ":" in address else f"{address}:{port}"


def server_tls(cert: str, key: str) -> ssl.SSLContext:
    """The TLS context of a host serving ``wss://`` with the certificate chain in the PEM file
    ``cert`` and its private key in ``key``; one line when either cannot be used."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(cert, key)
    except FileNotFoundError as exc:
        raise UserError(f"--cert/--key: {exc.filename or cert}: no such file") from None
    except (ssl.SSLError, OSError, ValueError) as exc:
        reason = getattr(exc, "reason", None) or getattr(exc, "strerror", None) or exc
        raise UserError(
            f"--cert {cert} --key {key}: not a certificate and its key in PEM ({reason})"
        ) from None
    return context


def origin_allowed(origin: str | None, host: str | None, allowed: Sequence[str] = ()) -> bool:
    """Whether a connection whose ``Origin`` header is ``origin`` may use the host it reached
    as ``host`` (its ``Host`` header). A connection without an ``Origin`` is not a browser's (a
    program, a bot: a browser always sends one) and may; a browser's may when its page came from
    this very host (the same host and port) or from one of ``allowed`` (``scheme://host[:port]``
    as a browser sends it). Anything else is another site's page using the visitor's browser."""
    if origin is None:
        return True
    if origin in allowed:
        return True
    try:
        parts = urlsplit(origin)
        same = parts.netloc.lower()
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not same or host is None:
        return False
    return _with_port(same, parts.scheme) == _with_port(host.lower(), parts.scheme)


def _with_port(netloc: str, scheme: str) -> str:
    default = "443" if scheme == "https" else "80"
    if netloc.endswith("]") or ":" not in netloc.rsplit("]", 1)[-1]:
        return f"{netloc}:{default}"
    return netloc


class Rate:
    """A client's message rate: :meth:`spend` once a message; past :data:`RATE` a second on
    average (bursts of :data:`BURST`) it is a :class:`ProtocolError`."""

    def __init__(self) -> None:
        self.tokens = BURST
        self.stamp = time.monotonic()

    def spend(self) -> None:
        now = time.monotonic()
        self.tokens = min(BURST, self.tokens + (now - self.stamp) * RATE)
        self.stamp = now
        self.tokens -= 1
        if self.tokens < 0:
            raise ProtocolError(f"more than {RATE:g} messages a second")


@dataclass
class Gate:
    """The caps on the connections a host holds at once: ``total`` in all and ``per_address``
    from one address. :meth:`admit` counts a connection in and says why it is refused ("" when
    it is not); :meth:`leave` counts it out. A connection past ``total`` plus a margin is not
    even answered (:meth:`admit` says ``abort``): its descriptor is given back at once."""

    total: int = MAX_CONNECTIONS
    per_address: int = PER_ADDRESS
    origins: tuple[str, ...] = ()
    """the origins of browser pages, other than this host's own, that may connect"""
    open: int = 0
    by_address: Counter[str] = field(default_factory=Counter)

    def admit(self, address: str) -> str:
        self.open += 1
        self.by_address[address] += 1
        if self.open > self.total + max(16, self.total // 8):
            why = "abort"
        elif self.open > self.total:
            why = f"the host is full ({self.total} connections)"
        elif self.by_address[address] > self.per_address:
            why = f"too many connections from one address ({self.per_address})"
        else:
            return ""
        return why

    def leave(self, address: str) -> None:
        self.open -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]

    def connection_class(self) -> type[ServerConnection]:
        """A WebSocket server's connection class (``serve(create_connection=...)``) whose every
        connection passes this gate: counted in when accepted, out when gone, and one past the
        caps closed at once (see :func:`refusal`)."""
        gate = self

        class Gated(ServerConnection):
            refusal = ""
            peer = ""

            def connection_made(self, transport: object) -> None:
                super().connection_made(transport)  # type: ignore[arg-type]
                name = self.transport.get_extra_info("peername")
                self.peer = str(name[0]) if name else "?"
                self.refusal = gate.admit(self.peer)
                if self.refusal == "abort":
                    self.transport.abort()

            def connection_lost(self, exc: Exception | None) -> None:
                gate.leave(self.peer)
                super().connection_lost(exc)

        return Gated

    def check(self, connection: ServerConnection, request: Request) -> Response | None:
        """A server's ``process_request``: a connection past the caps, or a browser's from
        another site's page (:func:`origin_allowed`), is answered at once with the reason (HTTP
        503 or 403) and closed; None lets the handshake go on."""
        why = str(getattr(connection, "refusal", ""))
        if why:
            return refusal(HTTPStatus.SERVICE_UNAVAILABLE, why)
        headers = request.headers
        if not origin_allowed(headers.get("Origin"), headers.get("Host"), self.origins):
            return refusal(HTTPStatus.FORBIDDEN, "a page of another site may not connect here")
        return None


def refusal(status: HTTPStatus, reason: str) -> Response:
    """An HTTP answer refusing a connection, its one-line reason in the body."""
    return response(status, (reason + "\n").encode())


def response(
    status: HTTPStatus,
    body: bytes,
    kind: str = "text/plain; charset=utf-8",
    headers: Sequence[tuple[str, str]] = (),
) -> Response:
    """An HTTP answer the host gives before (or instead of) a WebSocket handshake: ``body`` of
    type ``kind``, never sniffed as another, the connection closed after it; ``headers`` more."""
    return Response(
        status.value,
        status.phrase,
        Headers(
            [
                ("Date", email.utils.formatdate(usegmt=True)),
                ("Connection", "close"),
                ("Content-Length", str(len(body))),
                ("Content-Type", kind),
                ("X-Content-Type-Options", "nosniff"),
                *headers,
            ]
        ),
        body,
    )
