"""Film one slide as a phone would (docs/calibration.md): a free slide simulated through the
physics, filmed from above at 160 x 160 in perspective with blur, noise, uneven light and a hand
over the near edge, into slide01.mp4; prints the board's corners in the picture (--corners)."""

from sliders.calibrate.synthetic import Camera, Slide, board_corners, render_clip
from sliders.physics import PhysicsParams

camera = Camera(size=160)
render_clip("slide01.mp4", Slide("free", 0.6, 0.0, 0.0), PhysicsParams.default(), camera=camera)
corners = ",".join(f"{x:.0f},{y:.0f}" for x, y in board_corners(camera))
print(f"wrote slide01.mp4; the board's corners: {corners}")
