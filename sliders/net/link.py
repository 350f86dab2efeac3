"""A connection to a room kept in a thread of its own, for a program with a loop of its own (the
window): the host's messages wait in a queue the program reads when it likes (:meth:`Link.take`),
and what it sends is handed to the connection's thread (:meth:`Link.send`).

A connection lost before the game is over is made again (for up to ``reconnect`` seconds without
one): the queue then holds a ``lost`` message, later the host's new ``welcome``, or a ``gone``
message with the reason when the host did not come back. A ``bye`` or ``over`` ends it.
"""

from __future__ import annotations

import asyncio
import queue
import ssl
import threading
import time
from typing import Any

from websockets.exceptions import ConnectionClosed, WebSocketException

from sliders.core.errors import UserError
from sliders.net.client import RETRY, Client, parse


class Link:
    """``Link(url, room, code)`` (or ``watch=True``); :meth:`open` connects and returns the
    welcome, or says in one line why it could not."""

    def __init__(
        self,
        url: str,
        room: str,
        code: str | None = None,
        *,
        watch: bool = False,
        name: str = "",
        reconnect: float = 60.0,
        timeout: float = 10.0,
        tls: ssl.SSLContext | None = None,
    ) -> None:
        self.url, self.room, self.code, self.tls = url, room, code, tls
        self.watch, self.name = watch, name
        self.reconnect, self.timeout = reconnect, timeout
        self.inbox: queue.SimpleQueue[dict[str, Any]] = queue.SimpleQueue()
        self.loop = asyncio.new_event_loop()
        self.client: Client | None = None
        self.sent = 0
        self._opened = threading.Event()
        self._closing = False
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="sliders-link", daemon=True)

    def open(self) -> dict[str, Any]:
        """Connect and say hello; the host's welcome (a welcome in the queue later is that of
        a connection made again)."""
        self._thread.start()
        self._opened.wait()
        if self._error is not None:
            raise self._error
        assert self.client is not None
        return self.client.welcome

    def take(self) -> list[dict[str, Any]]:
        """The messages that came since the last call, in order."""
        out = []
        while True:
            try:
                out.append(self.inbox.get_nowait())
            except queue.Empty:
                return out

    def send(self, message: dict[str, Any]) -> None:
        """Send ``message`` (dropped while the connection is being made again)."""
        client = self.client
        if client is None or self.loop.is_closed():
            return
        self.sent += 1
        asyncio.run_coroutine_threadsafe(_quietly(client.send(message)), self.loop)

    def close(self) -> None:
        """Close the connection and end its thread."""
        self._closing = True
        if self._thread.is_alive():
            try:
                asyncio.run_coroutine_threadsafe(self._shut(), self.loop).result(5.0)
            except (TimeoutError, RuntimeError, ConnectionClosed):
                pass
            self._thread.join(5.0)

    # -- the connection's thread --------------------------------------------------------------------

    async def _shut(self) -> None:
        if self.client is not None:
            await self.client.close()

    def _run(self) -> None:
        try:
            self.loop.run_until_complete(self._main())
        finally:
            self._opened.set()
            self.loop.close()

    async def _connect(self) -> Client:
        return await Client.join(
            self.url,
            self.room,
            self.code,
            watch=self.watch,
            name=self.name,
            verify=False,
            timeout=self.timeout,
            tls=self.tls,
        )

    async def _main(self) -> None:
        try:
            self.client = await self._connect()
        except (OSError, TimeoutError) as exc:
            self._error = UserError(
                f"cannot reach {self.url}: {getattr(exc, 'strerror', 0) or exc}"
            )
            return
        except WebSocketException as exc:
            self._error = UserError(f"{self.url} does not speak the game's protocol ({exc})")
            return
        except UserError as exc:
            self._error = exc
            return
        self._opened.set()
        while True:
            ended = await self._read(self.client)
            if ended or self._closing:
                return
            self.client = None
            self.inbox.put({"type": "lost"})
            lost_at = time.monotonic()
            while self.client is None:
                await asyncio.sleep(RETRY)
                if self._closing:
                    return
                try:
                    self.client = await self._connect()
                except (OSError, TimeoutError, WebSocketException, UserError) as exc:
                    if time.monotonic() - lost_at > self.reconnect:
                        self.inbox.put({"type": "gone", "reason": f"the host is gone ({exc})"})
                        return
            self.inbox.put(self.client.welcome)

    async def _read(self, client: Client) -> bool:
        """Queue the host's messages until the connection ends; True when the game is over for
        this client (``over``, or the host said ``bye``)."""
        try:
            async for frame in client.ws:
                msg = parse(frame)
                self.inbox.put(msg)
                if msg.get("type") in ("over", "bye"):
                    return True
        except (ConnectionClosed, UserError, ValueError):
            pass
        return False


async def _quietly(sending: Any) -> None:
    try:
        await sending
    except ConnectionClosed:
        pass
