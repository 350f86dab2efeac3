"""The window's game when it is played on a host (``sliders join``, ``sliders host`` with a seat
at its own window): a :class:`~sliders.scenes.table.Match` whose steps are the host's.

The screens drive it as they drive a local game; what differs is who decides. The person's seat
aims here (the hand measured on this machine) and its intended shot goes to the host
(:meth:`NetMatch.play`); every shot, this seat's and the others', starts rolling here when the
host says it was released (its pawn and seed), frame by frame on the same engine; once it rests
the host's result is applied, whatever this machine's run gave (a difference is counted and
said). The host asks this seat's Instant Home choices (the screen's picker answers them) and
its round-end choice (the round-end screen's, as in a local game: :meth:`NetMatch.chose`), and
scores the round's end. Who is connected, who dropped or came back and the others' hands while
they aim arrive as messages, read once a frame (:meth:`NetMatch.poll`). No pygame here.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

from sliders.core.outcome import SEAT_COLOURS, ShotResult
from sliders.game import HomeChoice
from sliders.game.config import DEFAULT_HAND, MatchConfig, SeatSpec
from sliders.game.saves import layout_of
from sliders.net.client import shot_message
from sliders.net.link import Link
from sliders.net.protocol import result_hash
from sliders.physics import Shot
from sliders.rules import Game, Happening, Move, Phase
from sliders.scenes.table import Match, Pos

AIM_EVERY = 0.05
"""seconds between two ``aim`` messages while this seat's person holds a pawn"""
AIM_LIFE = 2.0
"""seconds another seat's hand is drawn after its last ``aim`` message"""


class NetMatch(Match):
    """A hosted game seen (and, with a seat, played) from this window, over ``link``."""

    replayable = False

    def __init__(self, link: Link, welcome: dict[str, Any]) -> None:
        game = Game.from_json(welcome["log"])
        ref = layout_of(game)
        config = MatchConfig(
            game.face,
            ref.name,
            tuple(SeatSpec(s, "human") for s in game.seats),
            None,
            game.starter,
            str(welcome["engine"]),
            next(iter(game.hands.values()), DEFAULT_HAND),
        )
        super().__init__(config, game=game)
        self.turns.max_rounds = welcome.get("max_rounds")  # a draw after them, as the host has it
        self.link = link
        self.me: str | None = welcome["seat"]
        """this window's seat (None: a spectator)"""
        self.room = str(welcome["room"])
        self.seats: list[dict[str, Any]] = list(welcome["seats"])
        self.clock: float | None = welcome.get("clock")
        self.links: dict[str, str] = {}
        """each remote seat's web page link (its code in it), set by a host that serves the
        page and plays a seat at its own window; empty elsewhere"""
        self.over: dict[str, Any] | None = None
        self.gone = ""
        """why the host is gone for good ("" while it is there)"""
        self.mismatches: list[int] = []
        """the steps whose shot ran differently here (the host's result stood)"""
        self.sent = False
        self.asked: dict[str, Any] | None = None
        """the host's Instant Home question to this seat, unanswered"""
        self.round_asked: dict[str, Any] | None = None
        """the host's round-end question to this seat, unanswered"""
        self._round_answer: tuple[int, list[dict[str, Any]]] | None = None
        """the round-end choice made here (its step, its moves), sent each time the host asks
        for it (asked again after a connection made again: the answer sent may have been lost)"""
        self.turn_started = time.monotonic()
        self._pending: deque[dict[str, Any]] = deque()
        self._host_step: dict[str, Any] | None = None
        self._notes: list[str] = []
        self._hands: dict[str, tuple[float, float, float]] = {}
        self._aim_sent = 0.0

    # -- who plays where ----------------------------------------------------------------------------

    def is_remote(self, seat: str | None) -> bool:
        return seat is not None and seat != self.me

    def chooses_here(self, seat: str) -> bool:
        return seat == self.me  # the others' choices are made at their own machines

    def chose(self, seat: str, assignment: Sequence[Move]) -> None:
        """This seat's round-end choice, sent to the host once it has asked for it."""
        self._round_answer = (len(self.game.steps), [m.to_json() for m in assignment])
        self._answer_round()

    def choice_open(self, seat: str) -> bool:
        return not self.can_score()  # once the host has scored the round, it chose

    def _answer_round(self) -> None:
        ask, answer = self.round_asked, self._round_answer
        if ask is not None and answer is not None and ask["step"] == answer[0]:
            self.link.send({"type": "score", "step": answer[0], "moves": answer[1]})
            self.round_asked = None

    @property
    def awaiting(self) -> bool:
        return self.sent

    def connected(self, seat: str) -> bool:
        return any(s["seat"] == seat and s["connected"] for s in self.seats)

    def invites(self) -> list[tuple[str, str]]:
        return [
            (s["seat"], self.links[s["seat"]])
            for s in self.seats
            if s["seat"] in self.links
            and s["seat"] != self.me
            and s["kind"] != "cpu"
            and not s["connected"]
        ]

    def who(self) -> dict[str, str]:
        out = {}
        for s in self.seats:
            seat = s["seat"]
            if seat == self.me:
                words = "you"
            elif s["kind"] == "cpu":
                words = "the host's computer"
            elif s["connected"]:
                words = f"connected ({s['name']})" if s.get("name") else "connected"
            else:
                words = "not connected"
            out[seat] = words
        return out

    def hand_of(self, seat: str) -> Pos | None:
        held = self._hands.get(seat)
        if held is None or time.monotonic() - held[2] > AIM_LIFE:
            return None
        return held[0], held[1]

    def notes(self) -> list[str]:
        out, self._notes = self._notes, []
        return out

    # -- this seat's hand -----------------------------------------------------------------------------

    def play(self, shot: Shot, foul: bool = False) -> bool:
        """Send the person's intended shot (the host adds their hand and slides it)."""
        if self.sent or self.me is None or shot.seat != self.me:
            return False
        self.link.send(shot_message(shot, len(self.game.steps), foul))
        self.sent = True
        return True

    def aim(self, held: Pos | None) -> None:
        """Where this seat's person holds a pawn now, sent to the others now and then."""
        now = time.monotonic()
        if held is None or self.me is None or self.turn != self.me or self.sent:
            return
        if now - self._aim_sent >= AIM_EVERY:
            self._aim_sent = now
            along, across = held
            self.link.send({"type": "aim", "along": along, "across": across})

    # -- the host's steps -----------------------------------------------------------------------------

    def can_finish(self) -> bool:
        return self._host_step is not None

    def finish(self, home: dict[str, int] | None = None) -> tuple[ShotResult, list[Happening]]:
        """Apply the shot at rest as the host ran and applied it (its result, its Instant Home
        choices); a result that differs from this machine's run is counted and said."""
        msg = self._host_step
        assert msg is not None and self.sim is not None
        step = msg["step"]
        mine = self.sim.result()
        if result_hash(mine.to_json()) != msg.get("hash"):
            self.mismatches.append(int(msg["n"]))
            self._notes.append(
                f"shot {msg['n'] + 1} ran differently here: the host's result stands"
            )
        self._host_step = None
        host_home = {str(k): int(v) for k, v in dict(step.get("home", {})).items()}
        out = self.turns.finish(host_home, ShotResult.from_json(step["shot"]), step.get("by"))
        self._prev, self._curr = {}, {}
        return out

    def can_score(self) -> bool:
        self.poll()
        head = self._pending[0] if self._pending else None
        return head is not None and head["type"] == "step" and "score" in head["step"]

    def score(self, assignments: Mapping[str, Sequence[Move]]) -> list[Happening]:
        """The round's end as the host scored it (call when :meth:`can_score`)."""
        msg = self._pending.popleft()
        self._round_answer = None
        return self.game.take(msg["step"])

    def home_choice(self, result: ShotResult, home: dict[str, int]) -> HomeChoice | None:
        """The Instant Home choice the host asks of this seat, while it is unanswered; once
        ``home`` holds the answer it goes to the host."""
        ask = self.asked
        if ask is None:
            return None
        if ask["pawn"] in home:
            self.link.send(
                {
                    "type": "home",
                    "step": ask["step"],
                    "pawn": ask["pawn"],
                    "scoring": home[ask["pawn"]],
                }
            )
            self.asked = None
            return None
        return HomeChoice(
            str(ask["seat"]),
            str(ask["pawn"]),
            tuple(ask["board"]),
            tuple(ask["options"]),
            int(ask["default"]),
        )

    def poll(self, slides: bool = True) -> None:
        """Take the host's messages in order; a shot or step waits while the shot before it is
        still rolling here, and a shot waits until ``slides`` (the physics is ready here: a frame
        never waits for it to load)."""
        self._pending.extend(self.link.take())
        while self._pending:
            msg = self._pending[0]
            if msg.get("type") == "shot" and not slides:
                return
            if not self._take(msg):
                return
            self._pending.popleft()

    def _take(self, msg: dict[str, Any]) -> bool:
        """Take one message; False when it must wait."""
        if msg.get("type") in ("shot", "step", "over"):
            return self._take_step(msg)
        self._take_word(msg)
        return True

    def _take_step(self, msg: dict[str, Any]) -> bool:
        """A shot released, a step applied or the game's end; False when it must wait."""
        kind = msg.get("type")
        steps = len(self.game.steps)
        if kind == "shot":
            if msg["step"] < steps:
                return True
            if (
                self.rolling
                or self._host_step is not None
                or self.state.phase is not Phase.SHOOTING
            ):
                return False
            slide = Shot.from_json(msg["slide"])
            self._hands.pop(slide.seat, None)
            if slide.seat == self.me:
                self.sent = False
            if not self.start_slide(slide):
                self._notes.append("the host's shot could not be set up here")
            return True
        if kind == "step":
            n, step = msg["n"], msg["step"]
            if n < steps:
                return True
            if "score" in step:
                return False  # scored by the round-end screen (:meth:`score`)
            if self.rolling:
                if self._host_step is not None:
                    return False
                self._host_step = msg
                return True
            self.game.take(step)  # not seen rolling here (joined again since)
            return True
        if kind == "over":
            if self.rolling or self._host_step is not None:
                return False
            self.over = msg
        return True

    def _take_word(self, msg: dict[str, Any]) -> None:
        """Anything else the host says: taken at once."""
        kind = msg.get("type")
        if kind == "turn":
            self.turn_started = time.monotonic()
            self.clock = msg.get("clock")
        elif kind == "seats":
            self.seats = list(msg["seats"])
        elif kind == "news":
            if "step" not in msg:  # a step's own lines are told here as the shot comes to rest
                self._notes.extend(str(line) for line in msg.get("lines", []))
        elif kind == "aim":
            self._hands[str(msg["seat"])] = (msg["along"], msg["across"], time.monotonic())
        elif kind == "ask" and msg.get("choice") == "score":
            self.round_asked = msg  # answered by the round-end screen (:meth:`chose`)
            self._answer_round()
        elif kind == "ask":
            self.asked = msg
        elif kind == "refused":
            self.sent = False
            self._notes.append(f"the host refused the shot: {msg.get('reason', '')}")
        elif kind == "bye":
            self.gone = str(msg.get("reason", "the host closed the connection"))
            self._notes.append(f"the host closed the connection: {self.gone}")
        elif kind == "lost":
            self._notes.append("the connection to the host was lost: joining again…")
        elif kind == "gone":
            self.gone = str(msg.get("reason", ""))
            self._notes.append(self.gone)
        elif kind == "welcome":
            self._welcome_again(msg)

    def _welcome_again(self, msg: dict[str, Any]) -> None:
        """Joined again (the connection lost, or the host restarted): the host's log taken up
        from this copy's step, as if its steps had come one by one (a shot rolling here that the
        host never applied is taken back: its seat shoots again)."""
        self.seats = list(msg["seats"])
        self.sent = False
        self.asked = self.round_asked = None  # the host asks again
        self._host_step = None
        steps = list(msg["log"]["steps"])
        n = len(self.game.steps)
        if self.rolling and not (n < len(steps) and "shot" in steps[n]):
            self.turns.withdraw()
            self._prev, self._curr = {}, {}
        again = [
            {"type": "step", "n": i, "step": step}
            | ({"hash": result_hash(step["shot"])} if "shot" in step else {})
            for i, step in enumerate(steps[n:], n)
        ]
        for m in reversed(again):
            self._pending.insert(1, m)
        self._notes.append("joined the game again")

    def start_slide(self, slide: Shot) -> bool:
        """Start the host's shot as slid (its pawn and its seed) rolling here."""
        if not self.turns.release(slide, seed=slide.seed):
            return False
        assert self.sim is not None
        self._acc = 0.0
        self._curr = self.sim.positions()
        self._prev = dict(self._curr)
        self._seen_events = 0
        return True

    def banner(self, seat: str | None) -> str:
        """What the banner says while ``seat`` (another machine's) is to shoot."""
        name = SEAT_COLOURS.get(seat or "", "someone").capitalize()
        if seat is not None and not self.connected(seat):
            return f"{name} is not connected: waiting"
        clock = ""
        if self.clock:
            left = max(self.clock - (time.monotonic() - self.turn_started), 0.0)
            clock = f" ({left:.0f} s)"
        return f"{name} is aiming{clock}"

    def close(self) -> None:
        self.link.close()
