"""Take the screenshots in this folder: the setup, play (mid-shot), round-end and results screens.

Runs headless (SDL_VIDEODRIVER=dummy): a four-player Instant Sorry! game, red a person whose
slides are chosen here by a computer player, the others the computer.

    python docs/screens/make_screens.py [OUTPUT_DIR]
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from sliders.ai import ComputerPlayer  # noqa: E402
from sliders.scenes.app import App  # noqa: E402
from sliders.scenes.config import MatchConfig, parse_seat_specs  # noqa: E402
from sliders.scenes.match import Match  # noqa: E402
from sliders.scenes.play import PlayScreen  # noqa: E402
from sliders.scenes.results import ResultsScreen  # noqa: E402
from sliders.scenes.roundend import RoundEndScreen  # noqa: E402
from sliders.scenes.setup import SetupScreen  # noqa: E402

FRAME = 1 / 60


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    app = App((1280, 800), sound=False, think_budget=None)
    seats = "south=human,west=cpu:easy,north=cpu:medium,east=cpu:hard"
    config = MatchConfig("instant-sorry", "square", parse_seat_specs(seats), seed=4)

    app.show(SetupScreen(app, config))
    _shot(app, out / "setup.png")

    match = Match(config)
    hand = ComputerPlayer("south", "medium", seed=99)  # plays red's slides for the pictures
    app.show(PlayScreen(app, match))
    took_play = took_round = False
    for _ in range(200000):
        screen = app.screen
        if isinstance(screen, PlayScreen):
            m = screen.match
            if m.turn == "south" and not m.rolling and screen._leaving is None:
                m.start(hand.choose_shot(m.state, m.layout, m.face, m.params))
            if (
                not took_play
                and m.rolling
                and m.state.round == 2
                and len(m.state.table) >= 5
                and m.sim is not None
                and 0.55 < m.sim.t
                and m.sim.moving
            ):
                _shot(app, out / "play.png")
                took_play = True
        elif isinstance(screen, RoundEndScreen):
            if screen.seat == "south" and not took_round and match.state.round >= 2:
                app.step(FRAME)
                _shot(app, out / "round-end.png")
                took_round = True
            if screen.seat is not None:
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0))
            elif screen.moved >= 1.0:
                pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0))
        elif isinstance(screen, ResultsScreen):
            _shot(app, out / "results.png")
            break
        app.step(FRAME, draw=False)
    app.close()


def _shot(app: App, path: Path) -> None:
    assert app.screen is not None
    app.screen.draw(app.surface)
    pygame.image.save(app.surface, str(path))
    print(f"{path} ({path.stat().st_size // 1024} KB)")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent)
