"""The window on a hosted game (``sliders join``): a person plays their seat with the window's
own control while a bot plays the other over the network and a spectator's window follows;
every shot is animated here from the host's slide, compared by hash and the host's step taken,
so the window's game is the host's log, step for step, even with the person's connection cut
again and again."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pygame
import pytest

from sliders.game.config import config_from_flags
from sliders.game.saves import load_replay
from sliders.net.client import play_bot
from sliders.net.host import Host, Room, new_room, parse_host_seats
from sliders.net.link import Link
from sliders.rules import Phase, ScoreStep
from sliders.scenes.app import NAP, App
from sliders.scenes.remote import NetMatch
from sliders.scenes.roundend import RoundEndScreen
from sliders.scenes.screens import PlayScreen, ResultsScreen
from sliders.tournament.players import make_player

from .person import FRAME, slide_to


class Served:
    """A host on the loopback in a thread of its own (the window keeps the test's thread)."""

    def __init__(self, room: Room, said: list[str]) -> None:
        self.room, self.said = room, said
        self.loop = asyncio.new_event_loop()
        self.host = Host([room])
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        asyncio.run_coroutine_threadsafe(self.host.start(), self.loop).result(10)
        self.url = f"127.0.0.1:{self.host.port}"

    def story(self) -> str:
        """What the host said of the room (who came, dropped, came back; the shots), and how
        its game's task stands: for a test's failure."""
        (task,) = self.host.tasks
        how = "running" if not task.done() else repr(task.exception() or "ended")
        return f"the host's room {how}; it said: {' | '.join(self.said[-12:])}"

    def run(self, coro: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)

    def bot(self, seat: str) -> Any:
        """A bot (``centre:low``) joined to ``seat`` on the host's loop: its future."""
        make = lambda seat: make_player("centre:low", seat, np.random.default_rng(1))  # noqa: E731
        return self.run(play_bot(self.url, "1", self.room.codes[seat], make))

    def stop(self) -> None:
        self.run(self.host.close()).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    config = config_from_flags("instant-sorry", "square", "south=human,north=human", 5)
    plans = parse_host_seats("south=human,north=remote")
    said: list[str] = []
    s = Served(new_room("1", config, plans, tmp_path, 1, say=said.append), said)
    yield s
    s.stop()


async def cut_again_and_again(room: Room, seat: str, seed: int) -> None:
    """Cut ``seat``'s connection at random moments (a dead network: no goodbye), for ever."""
    rng = random.Random(seed)
    while True:
        await asyncio.sleep(rng.uniform(0.05, 1.0))
        conn = room.players.get(seat)
        if conn is not None:
            conn.ws.transport.abort()


def _slide(app: App, screen: PlayScreen, match: NetMatch, slid: int, joins: list[int]) -> bool:
    """South slides its next pawn, sent for the host to slide; False when the window joined
    again meanwhile (``joins`` grew), which takes the turn up again: a shot sent as the link
    died never reached the host, a pawn pressed as the welcome came is no longer held, and one
    pressed as the link died is not taken (the window joins again within a few seconds)."""
    joined = len(joins)
    try:
        slide_to(app, screen, "south", (0.0, 0.02 * slid), 0.01 * slid)
    except AssertionError:
        deadline = time.monotonic() + 10
        while len(joins) == joined and time.monotonic() < deadline:
            app.step(FRAME, draw=False)
            time.sleep(NAP)
        if len(joins) == joined:
            raise
        return False
    assert match.awaiting or match.rolling or len(joins) > joined
    return True


@pytest.mark.parametrize("cut", [False, True], ids=["steady", "cut-again-and-again"])
def test_a_person_plays_a_hosted_seat_in_the_window_against_a_bot(
    served: Served, cut: bool
) -> None:
    """Cut: the person's connection is cut every 0.05 to 1 s; the window joins again each time
    and the game still ends as the host's log, step for step, the round-end choice its own (a
    shot sent as its connection died never reached the host: that turn is shot again)."""
    room = served.room
    cutting = served.run(cut_again_and_again(room, "south", 1)) if cut else None
    bot = served.bot("north")
    link = Link(served.url, "1", room.codes["south"], name="ann")
    watcher = Link(served.url, "1", watch=True)
    app = App((1000, 700), sound=False, think_budget=None)
    app.clock = lambda: app.time
    try:
        match = NetMatch(link, link.open())
        watched = NetMatch(watcher, watcher.open())
        screen = PlayScreen(app, match)
        app.show(screen)
        joins: list[int] = []  # welcomes since the first: each clears a shot sent as it died
        welcome_again = match._welcome_again
        match._welcome_again = lambda msg: (joins.append(0), welcome_again(msg))[1]
        banners: set[str] = set()
        slid = 0
        picked = None
        deadline = time.monotonic() + 180  # the host's time is the clock's: its waits are real
        while time.monotonic() < deadline:
            if isinstance(app.screen, ResultsScreen) and match.over is not None:
                break
            watched.poll()
            if isinstance(app.screen, RoundEndScreen):  # south's choice, then Continue
                end = app.screen
                if end.seat == "south":
                    picked = end.options[len(end.options) > 1]  # another than the suggestion
                    key = pygame.K_RIGHT if len(end.options) > 1 else pygame.K_RETURN
                    end.handle_event(pygame.event.Event(pygame.KEYDOWN, key=key))
                    end.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN))
                elif end.scored and end.moved >= 1.0:
                    end.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN))
            if app.screen is screen and screen._human_turn() == "south":
                slid += _slide(app, screen, match, slid, joins)
            if match.turn == "north" and not match.rolling:
                banners.add(match.banner("north"))
            app.step(FRAME, draw=slid % 2 == 0)
            time.sleep(NAP)  # as App.run waits: the host's and the links' threads get to run
            if app.screen is not screen and isinstance(app.screen, PlayScreen):
                screen = app.screen
        else:
            raise AssertionError(
                f"the game did not end in the window: {slid} slid, "
                f"{len(match.game.steps)} steps here, {len(load_replay(room.log).steps)} logged, "
                f"{type(app.screen).__name__}, {match.state.phase}, turn {match.turn}, "
                f"rolling {match.rolling}, awaiting {match.awaiting}, "
                f"pending {[m['type'] for m in match._pending][:5]}, {screen.messages[-3:]}; "
                + served.story()
            )
        assert bot.result(30).over is not None
        logged = load_replay(room.log)
        assert (slid >= 4 if cut else slid == 4) and len(logged.steps) == 9
        assert ("room 1: south dropped" in served.said) == cut
        scored = logged.steps[8]
        assert isinstance(scored, ScoreStep) and scored.by == {}  # south chose in time
        assert picked is not None and len(picked) > 0
        assert scored.assignments["south"] == picked  # the round-end screen's choice
        assert match.game.to_json()["steps"] == logged.to_json()["steps"]
        assert match.mismatches == []
        assert match.who()["south"] == "you" and match.who()["north"].startswith("connected")
        assert any(b.endswith("is aiming") for b in banners), banners
        results = app.screen  # the host starts any next game: no Play again here
        assert "Play again" not in [b.label for b in results.buttons]
        results.handle_event(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN))
        assert app.screen is results
        for _ in range(200):  # the spectator's copy: every step, each shot rolled to rest
            watched.poll()
            if watched.rolling:
                watched.advance(60.0, max_steps=10**7)
                if watched.can_finish():
                    watched.finish()
            elif watched.state.phase is Phase.SCORING and watched.can_score():
                watched.score({})
            if watched.over is not None:
                break
            app.step(FRAME, draw=False)
        assert watched.game.to_json()["steps"] == logged.to_json()["steps"]
    finally:
        if cutting is not None:
            cutting.cancel()
        app.close()
        link.close()
        watcher.close()
