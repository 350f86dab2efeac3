"""The window's copy of a hosted game (:class:`~sliders.scenes.remote.NetMatch`) fed by hand:
the host's Instant Home question answered by the window's picker goes back to the host, and so
does the round-end screen's choice; a spectator plays nothing; who is connected reads from the
host's ``seats``."""

from __future__ import annotations

from typing import Any

from sliders.core.outcome import ShotResult
from sliders.game import HomeChoice
from sliders.physics import Shot
from sliders.rules import Game, Move
from sliders.scenes.remote import NetMatch

from .links import FakeLink


def welcome(seat: str | None) -> dict[str, Any]:
    game = Game("instant-home", ("south", "north"), "south", "square")
    seats = [
        {"seat": "south", "kind": "remote", "connected": True, "name": "ann"},
        {"seat": "north", "kind": "remote", "connected": False, "name": ""},
    ]
    return {"type": "welcome", "room": "1", "seat": seat, "engine": "exact", "seats": seats,
            "log": game.to_json(), "step": 0, "turn": "south", "clock": 30.0,
            "turn_timeout": None, "max_rounds": 2}  # fmt: skip


def test_the_hosts_instant_home_question_is_the_pickers_and_its_answer_goes_back() -> None:
    link = FakeLink()
    m = NetMatch(link, welcome("south"))  # type: ignore[arg-type]
    ask = {"type": "ask", "step": 3, "seat": "south", "pawn": "south-2", "board": [4, 1, 0, 2],
           "options": [0, 1, 2, 3], "default": 2, "home": {}}  # fmt: skip
    link.inbox.append(ask)
    m.poll()
    result = ShotResult("instant-home", "south-2", ())
    assert m.home_choice(result, {}) == HomeChoice(
        "south", "south-2", (4, 1, 0, 2), (0, 1, 2, 3), 2
    )
    assert m.home_choice(result, {"south-2": 3}) is None  # the picker's answer, sent
    assert link.sent == [{"type": "home", "step": 3, "pawn": "south-2", "scoring": 3}]
    assert m.home_choice(result, {"south-2": 3}) is None and len(link.sent) == 1
    assert m.who() == {"south": "you", "north": "not connected"}
    assert m.turns.max_rounds == 2 and m.is_remote("north") and not m.is_remote("south")
    assert m.banner("north").endswith("is not connected: waiting")


def test_a_spectator_sends_nothing_and_every_seat_is_played_elsewhere() -> None:
    link = FakeLink()
    m = NetMatch(link, welcome(None))  # type: ignore[arg-type]

    assert not m.play(Shot("south", 0.5))
    m.aim((0.1, 0.0))
    assert link.sent == [] and m.is_remote("south") and m.is_remote("north")
    link.inbox.append({"type": "seats", "seats": [
        {"seat": "south", "kind": "remote", "connected": False, "name": ""},
        {"seat": "north", "kind": "remote", "connected": True, "name": "bo"},
    ]})  # fmt: skip
    link.inbox.append({"type": "news", "lines": ["south dropped"]})
    link.inbox.append({"type": "news", "lines": ["told by the window itself"], "step": 0})
    m.poll()
    assert m.who() == {"south": "not connected", "north": "connected (bo)"}
    assert m.notes() == ["south dropped"]


def test_the_round_end_choice_made_here_goes_to_the_host_once_it_asks() -> None:
    link = FakeLink()
    m = NetMatch(link, welcome("south"))  # type: ignore[arg-type]
    assert m.chooses_here("south") and not m.chooses_here("north")
    moves = (Move("south-1", 0, 3),)
    m.chose("south", moves)  # before the host asked: kept
    assert link.sent == []
    moved = [{"pawn": "south-1", "scoring": 0, "points": 3}]
    ask = {"type": "ask", "choice": "score", "step": 0, "seat": "south", "round": 1,
           "board": [0, 0, 0, 0], "options": [moved], "default": moved}  # fmt: skip
    link.inbox.append(ask)
    m.poll()
    assert link.sent == [{"type": "score", "step": 0, "moves": moved}]
    assert m.asked is None and m.round_asked is None and m.choice_open("south")
    again = welcome("south") | {"turn": None}  # the connection lost and made again: the host,
    link.inbox += [again, ask]  # which may never have read the answer, asks again
    m.poll()
    assert link.sent[1:] == [{"type": "score", "step": 0, "moves": moved}]  # answered again
    link.inbox.append({"type": "step", "n": 0, "step": {"score": {"south": moved, "north": []}}})
    assert not m.choice_open("south")  # the host scored the round: nothing left to choose
