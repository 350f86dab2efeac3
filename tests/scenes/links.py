"""A link to a host faked for the window's tests: messages put in ``inbox`` arrive at the next
``take``, and what the window sends is kept in ``sent``."""

from __future__ import annotations

from typing import Any


class FakeLink:
    def __init__(self) -> None:
        self.inbox: list[dict[str, Any]] = []
        self.sent: list[dict[str, Any]] = []

    def take(self) -> list[dict[str, Any]]:
        out, self.inbox = self.inbox, []
        return out

    def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    def close(self) -> None:
        pass
