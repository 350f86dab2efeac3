// The table drawn from the geometry the host sends (sliders/net/view.py: table_json), on a
// canvas 2D context, in a View (geometry.js): the lanes and their rails, the board's printed
// face (rings, SORRY! corners, the hole, the 4/5/6 circle, danger dots, its numbers), the foul
// lines in their seats' colours, and the pawns. The window draws the same lists
// (sliders/boards/drawing.py); nothing of the board is kept here.
import { toWorld, seatOf } from "./geometry.js";

export const FELT = "#1d3b2f";
export const LANE = "#dfe6ee";

function circle(ctx, view, x, y, radius) {
  const [sx, sy] = view.toScreen(x, y);
  ctx.beginPath();
  ctx.arc(sx, sy, Math.max(radius * view.scale, 0.5), 0, 2 * Math.PI);
}

function polygon(ctx, view, points) {
  ctx.beginPath();
  points.forEach(([x, y], i) => {
    const [sx, sy] = view.toScreen(x, y);
    if (i === 0) ctx.moveTo(sx, sy); else ctx.lineTo(sx, sy);
  });
  ctx.closePath();
}

function segment(ctx, view, a, b, width, ink) {
  const [ax, ay] = view.toScreen(a[0], a[1]), [bx, by] = view.toScreen(b[0], b[1]);
  ctx.beginPath();
  ctx.moveTo(ax, ay);
  ctx.lineTo(bx, by);
  ctx.lineWidth = Math.max(width * view.scale, 1);
  ctx.strokeStyle = ink;
  ctx.stroke();
}

// The foul line of a group of seats (those sharing one lane) as [[a, b], seat] pieces: one
// piece in the seat's colour, or four short pieces a seat in turn across a shared lane.
export function foulStripes(table, group) {
  const seats = group.map((n) => seatOf(table, n));
  const s = seats[0], hw = s.width / 2;
  const a = toWorld(s, s.foul, -hw), b = toWorld(s, s.foul, hw);
  const pieces = seats.length > 1 ? 4 * seats.length : 1;
  const out = [];
  for (let k = 0; k < pieces; k++) {
    const t0 = k / pieces, t1 = (k + 1) / pieces;
    out.push([[[a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0],
               [a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1]], seats[k % seats.length]]);
  }
  return out;
}

export function drawFace(ctx, table, view) {
  const face = table.face, ink = table.ink, h = table.board_side / 2;
  polygon(ctx, view, [[-h, -h], [h, -h], [h, h], [-h, h]]);
  ctx.fillStyle = ink.base;
  ctx.fill();
  ctx.save();
  polygon(ctx, view, [[-h, -h], [h, -h], [h, h], [-h, h]]);
  ctx.clip();
  const line = Math.max(0.0012 * view.scale, 1);
  for (const ring of [...face.rings].reverse()) {
    circle(ctx, view, 0, 0, ring.radius);
    ctx.fillStyle = ring.fill;
    ctx.fill();
    ctx.lineWidth = line;
    ctx.strokeStyle = ink.print;
    ctx.stroke();
  }
  if (face.choice_radius > 0) {
    circle(ctx, view, 0, 0, face.choice_radius);
    ctx.fillStyle = ink.choice;
    ctx.fill();
    ctx.strokeStyle = ink.choice_ink;
    ctx.stroke();
  }
  for (const [cx, cy] of [[h, h], [-h, h], [-h, -h], [h, -h]]) {
    circle(ctx, view, cx, cy, face.sorry_radius);
    ctx.fillStyle = ink.sorry;
    ctx.fill();
  }
  for (const [x, y, radius] of face.dots) {
    circle(ctx, view, x, y, radius);
    ctx.fillStyle = ink.dot;
    ctx.fill();
    ctx.strokeStyle = ink.dot_edge;
    ctx.lineWidth = line;
    ctx.stroke();
  }
  if (face.hole_radius > 0) {
    circle(ctx, view, 0, 0, face.hole_radius);
    ctx.fillStyle = ink.hole;
    ctx.fill();
  }
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  for (const label of face.labels) {
    const [sx, sy] = view.toScreen(label.x, label.y);
    const px = label.height * view.scale;
    if (px < 5) continue;
    if (label.backing) {
      circle(ctx, view, label.x, label.y, label.height * 0.62);
      ctx.fillStyle = label.backing;
      ctx.fill();
    }
    ctx.font = `bold ${Math.round(px)}px sans-serif`;
    ctx.fillStyle = label.choice ? ink.choice_ink : ink.print;
    ctx.fillText(label.words, sx, sy);
  }
  const sorryPx = face.sorry_radius * view.scale * 0.2;
  if (sorryPx >= 6) {
    ctx.font = `bold ${Math.round(sorryPx)}px sans-serif`;
    ctx.fillStyle = ink.sorry_ink;
    for (const [cx, cy] of [[h, h], [-h, h], [-h, -h], [h, -h]]) {
      const d = face.sorry_radius * 0.45;
      const [sx, sy] = view.toScreen(cx - Math.sign(cx) * d, cy - Math.sign(cy) * d);
      ctx.fillText("SORRY!", sx, sy);
    }
  }
  ctx.restore();
  polygon(ctx, view, [[-h, -h], [h, -h], [h, h], [-h, h]]);
  ctx.lineWidth = Math.max(0.002 * view.scale, 1);
  ctx.strokeStyle = ink.print;
  ctx.stroke();
}

// The whole table but the pawns.
export function drawTable(ctx, table, view, width, height) {
  ctx.fillStyle = FELT;
  ctx.fillRect(0, 0, width, height);
  for (const t of table.tracks) {
    const [x0, y0, x1, y1] = t.rect;
    polygon(ctx, view, [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]);
    ctx.fillStyle = LANE;
    ctx.fill();
  }
  drawFace(ctx, table, view);
  ctx.lineCap = "butt";
  for (const rail of table.rails) {
    segment(ctx, view, rail.a, rail.b, rail.thickness, rail.kind === "blocker" ? table.ink.blocker : table.ink.rail);
  }
  for (const group of table.foul_groups) {
    for (const [[a, b], seat] of foulStripes(table, group)) segment(ctx, view, a, b, 0.003, seat.ink);
  }
}

export function seatInk(table, pid) {
  const seat = seatOf(table, pid.split("-")[0]);
  return seat ? seat.ink : "#787878";
}

// A roller pawn from above: its shadow, its base in the seat's colour, a lighter top, and its
// number; `ring` a highlight around it (the held pawn).
export function drawPawn(ctx, table, view, pid, x, y, ring = null) {
  const r = table.pawn_radius;
  const [sx, sy] = view.toScreen(x, y);
  const pr = Math.max(r * view.scale, 2);
  ctx.beginPath();
  ctx.arc(sx + pr * 0.15, sy + pr * 0.2, pr, 0, 2 * Math.PI);
  ctx.fillStyle = "rgba(0,0,0,0.35)";
  ctx.fill();
  ctx.beginPath();
  ctx.arc(sx, sy, pr, 0, 2 * Math.PI);
  ctx.fillStyle = seatInk(table, pid);
  ctx.fill();
  ctx.lineWidth = Math.max(pr * 0.12, 1);
  ctx.strokeStyle = "rgba(0,0,0,0.6)";
  ctx.stroke();
  ctx.beginPath();
  ctx.arc(sx, sy, pr * 0.55, 0, 2 * Math.PI);
  ctx.fillStyle = "rgba(255,255,255,0.35)";
  ctx.fill();
  if (pr >= 7) {
    ctx.font = `bold ${Math.round(pr * 0.9)}px sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillStyle = "#fff";
    ctx.fillText(pid.split("-")[1] || "", sx, sy);
  }
  if (ring) {
    ctx.beginPath();
    ctx.arc(sx, sy, pr + 3, 0, 2 * Math.PI);
    ctx.lineWidth = 3;
    ctx.strokeStyle = ring;
    ctx.stroke();
  }
  return [sx, sy, pr];
}
