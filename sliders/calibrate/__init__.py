"""Calibration: the model's numbers fitted to a real board.

Slides filmed from above (:mod:`sliders.calibrate.video`) or measured by hand become tables
(:mod:`sliders.calibrate.tables`); a fit (:mod:`sliders.calibrate.fit`) finds the rolling
resistance, the restitutions, the rim frictions and the surface's spread with their intervals,
measures any loss where the track meets the board (which the model does not have), and writes a parameter
file every command loads with ``--params``. :mod:`sliders.calibrate.synthetic` films simulated
slides with known parameters, the proof that the chain recovers them. OpenCV, which reads and
writes the videos, is an optional extra loaded only when a video is read or written.
"""
