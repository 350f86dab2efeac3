// The table's geometry as the host sends it (sliders/net/view.py: table_json), a seat's lane
// frame, the views that fit the table to a screen, and the shot a hand makes: the window's
// arithmetic (sliders/scenes/table.py, controls.py), its numbers checked by tests/net/test_web.py.
import { FLICK_GAIN, MIN_FLICK } from "./flick.js";

export const HAND_BACK = 0.035; // m behind a lane's near end where the pawns in hand wait
export const CANCEL_PULL = 10; // px: the aim control's pull shorter than this puts the pawn back
export const PULL_MAX = 240; // px of pull the aim line is scaled to
export const REACH = 2.0; // the aim control's full power slides this many times to the centre
export const METERS = { slow: 1.6, normal: 1.0, fast: 0.7 }; // the meter's period, s

export const clip = (v, lo, hi) => Math.min(Math.max(v, lo), hi);

export function seatOf(table, name) {
  return table.seats.find((s) => s.seat === name) || null;
}
export function right(seat) { return [seat.forward[1], -seat.forward[0]]; }
export function toWorld(seat, along, across) {
  const [fx, fy] = seat.forward, [rx, ry] = right(seat);
  return [seat.near[0] + fx * along + rx * across, seat.near[1] + fy * along + ry * across];
}
export function vectorFromWorld(seat, x, y) {
  const [fx, fy] = seat.forward, [rx, ry] = right(seat);
  return [x * fx + y * fy, x * rx + y * ry];
}
export function fromWorld(seat, x, y) {
  return vectorFromWorld(seat, x - seat.near[0], y - seat.near[1]);
}

// Where the index-th of count pawns in a person's hand waits (along, across): side by side
// behind the near end of the lane.
export function handSpot(table, seat, index, count) {
  const r = table.pawn_radius;
  const gap = count > 1 ? Math.min(2.4 * r, (seat.width - 2 * r) / Math.max(count - 1, 1)) : 0;
  return [-HAND_BACK, (index - (count - 1) / 2) * gap];
}

// The point of the lane nearest a held pawn's wish: behind the foul line, inside the rails.
export function clampHold(seat, along, across) {
  return [clip(along, seat.release_min, seat.foul), clip(across, -seat.max_offset, seat.max_offset)];
}

// The shot of a release at hold (along, across) with the lane velocity (m/s), or null when the
// pawn was not pushed toward the board: the speed and direction the hand's, clipped.
export function flickShot(seat, hold, vAlong, vAcross) {
  if (vAlong < MIN_FLICK) return null;
  const speed = clip(Math.hypot(vAlong, vAcross), seat.min_speed, seat.max_speed);
  const angle = clip(Math.atan2(vAcross, vAlong), -seat.max_angle, seat.max_angle);
  return { speed, angle_rad: angle, offset: hold[1], release: hold[0] };
}

// A view: world (m, y up) to screen (CSS px, y down), the screen's right and up being the world
// directions `rightDir` and `upDir`, `scale` px a metre, world point `centre` at screen `at`.
export class View {
  constructor(scale, centre, at, upDir = [0, 1]) {
    this.scale = scale; this.centre = centre; this.at = at;
    this.up = upDir; this.right = [upDir[1], -upDir[0]];
  }
  toScreen(x, y) {
    const dx = x - this.centre[0], dy = y - this.centre[1];
    return [this.at[0] + this.scale * (dx * this.right[0] + dy * this.right[1]),
            this.at[1] - this.scale * (dx * this.up[0] + dy * this.up[1])];
  }
  toWorld(sx, sy) {
    const a = (sx - this.at[0]) / this.scale, b = -(sy - this.at[1]) / this.scale;
    return [this.centre[0] + a * this.right[0] + b * this.up[0],
            this.centre[1] + a * this.right[1] + b * this.up[1]];
  }
  // a screen vector (px/s) as a world vector in m/s at the flick's gain
  worldVelocity(vx, vy) {
    return [FLICK_GAIN * (vx * this.right[0] - vy * this.up[0]),
            FLICK_GAIN * (vx * this.right[1] - vy * this.up[1])];
  }
}

// The view that shows every world point of `points` in a w x h screen (margin px each side),
// the screen's up the world direction `upDir`.
export function fitView(points, w, h, upDir = [0, 1], margin = 8) {
  const probe = new View(1, [0, 0], [0, 0], upDir);
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (const [x, y] of points) {
    const [sx, sy] = probe.toScreen(x, y);
    x0 = Math.min(x0, sx); x1 = Math.max(x1, sx); y0 = Math.min(y0, sy); y1 = Math.max(y1, sy);
  }
  const scale = Math.max(Math.min((w - 2 * margin) / Math.max(x1 - x0, 1e-6),
                                  (h - 2 * margin) / Math.max(y1 - y0, 1e-6)), 1e-6);
  const centre = probe.toWorld((x0 + x1) / 2, (y0 + y1) / 2);
  return new View(scale, centre, [w / 2, h / 2], upDir);
}

function rectPoints([x0, y0, x1, y1]) { return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]; }

// Every point a picture of the whole table holds: the board, the tracks, the hands.
export function tablePoints(table) {
  const h = table.board_side / 2;
  const pts = rectPoints([-h, -h, h, h]);
  for (const t of table.tracks) pts.push(...rectPoints(t.rect));
  for (const s of table.seats) {
    const hw = s.width / 2;
    pts.push(toWorld(s, -HAND_BACK - 2 * table.pawn_radius, -hw), toWorld(s, -HAND_BACK - 2 * table.pawn_radius, hw));
  }
  return pts;
}

// A seat's own picture: its lane from the hand to the far edge of the board, and the board.
export function lanePoints(table, seat) {
  const h = table.board_side / 2, hw = seat.width / 2 + 0.01;
  const back = -HAND_BACK - 2.5 * table.pawn_radius;
  const far = seat.centre + h + 0.01;
  return [...rectPoints([-h - 0.01, -h - 0.01, h + 0.01, h + 0.01]),
    toWorld(seat, back, -hw), toWorld(seat, back, hw), toWorld(seat, far, -hw), toWorld(seat, far, hw)];
}

// The view of a seat's picture: its direction of play up the screen on a tall screen, to the
// right on a wide one; the whole lane and board in sight.
export function seatView(table, seat, w, h) {
  const f = seat.forward;
  const upDir = w > 1.2 * h ? [-f[1], f[0]] : [f[0], f[1]];
  return fitView(lanePoints(table, seat), w, h, upDir);
}

// The whole table: south's side at the bottom, or turned a quarter (south at the left) when
// that shows it larger (a long table on a wide screen).
export function tableView(table, w, h) {
  const margin = Math.min(w, h) * 0.03;
  const upright = fitView(tablePoints(table), w, h, [0, 1], margin);
  const turned = fitView(tablePoints(table), w, h, [-1, 0], margin);
  return turned.scale > 1.05 * upright.scale ? turned : upright;
}

// the aim control's meter: where its marker is (0..1) `held` seconds after the press
export function meterPower(period, held) {
  const phase = (Math.max(held, 0) / period) % 1;
  return phase < 0.5 ? 2 * phase : 2 * (1 - phase);
}

// the aim control's release speed for `power`: the speed that slides a lone pawn power x REACH
// times the way from the foul line to the board's centre
export function pullSpeed(table, seat, power) {
  const reach = Math.max(seat.centre - seat.foul, 0.05);
  const distance = REACH * reach * Math.max(power, 0);
  return clip(Math.sqrt(2 * table.deceleration * distance), seat.min_speed, seat.max_speed);
}

// The aim control's shot: the pawn at `hold`, pulled back from its screen point `pawnAt` to the
// pointer at `pointer` in `view`, let go at meter `power`; null when the pull does not push it
// toward the board or is too short.
export function aimShot(table, seat, view, hold, pawnAt, pointer, power) {
  const dx = pawnAt[0] - pointer[0], dy = pawnAt[1] - pointer[1];
  const length = Math.hypot(dx, dy);
  if (length < CANCEL_PULL) return null;
  const speed = pullSpeed(table, seat, power);
  const [wx, wy] = view.worldVelocity(dx / length, dy / length).map((v) => v / FLICK_GAIN);
  const [a, c] = vectorFromWorld(seat, wx, wy);
  return flickShot(seat, hold, speed * a, speed * c);
}
