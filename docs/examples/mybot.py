"""A player of your own for ``sliders tournament --players docs.examples.mybot:play`` (run from
the project's folder; a file ``mybot.py`` of your own is ``mybot:play`` from its folder)."""

import math


def play(turn):
    """Straight at the centre, a little short when the board is crowded."""
    seat = turn.layout.seat(turn.seat)
    distance = math.dist(seat.to_world(seat.foul, 0.0), (0.0, 0.0))
    if len(turn.state.table) > 4:
        distance -= 0.03
    speed = math.sqrt(2 * turn.params.deceleration * distance)
    return (speed, 0.0, 0.0, None)  # speed m/s, angle rad, offset m, release (None: foul line)
