// A slide as the host ran it (the `motion` message, sliders/net/view.py: motion_json): each
// moving pawn's position and velocity every `dt` seconds from the release to the rest. Between
// two samples the page draws the cubic that has both positions and both velocities: where no
// contact falls between them that cubic is the path itself (the motion is quadratic in time).

export class Motion {
  constructor(message) {
    this.step = message.step;
    this.dt = message.dt;
    this.end = message.end;
    this.pawns = message.pawns;
    this.frames = message.frames;
  }
  get duration() { return (this.frames.length - 1) * this.dt; }
  // {pawn: [x, y] or null (gone)} at `t` seconds after the release
  at(t) {
    const out = {};
    const last = this.frames.length - 1;
    const u = Math.max(t, 0) / this.dt;
    const k = Math.min(Math.floor(u), last);
    const s = k >= last ? 0 : u - k;
    const h = this.dt;
    this.pawns.forEach((pid, i) => {
      const a = this.frames[k][i];
      const b = k < last ? this.frames[k + 1][i] : null;
      if (a === null) { out[pid] = null; return; }
      if (b === null) { out[pid] = k >= last || s < 0.5 ? [a[0], a[1]] : null; return; }
      const s2 = s * s, s3 = s2 * s;
      const h00 = 2 * s3 - 3 * s2 + 1, h10 = s3 - 2 * s2 + s, h01 = -2 * s3 + 3 * s2, h11 = s3 - s2;
      out[pid] = [
        h00 * a[0] + h10 * h * a[2] + h01 * b[0] + h11 * h * b[2],
        h00 * a[1] + h10 * h * a[3] + h01 * b[1] + h11 * h * b[3],
      ];
    });
    return out;
  }
  done(t) { return t >= this.duration; }
}

// When the canvas draws: in a frame after something changed since it last drew (a message, the
// hand, the size: mark()), or in every frame while the picture moves by itself (a slide, a held
// pawn and its meter). An idle page draws nothing, which spares a phone's battery and the
// machine behind a TV that shows several pages.
export class Redraw {
  constructor() { this.dirty = true; }
  mark() { this.dirty = true; }
  due(moving) {
    const draw = this.dirty || moving;
    this.dirty = false;
    return draw;
  }
}
