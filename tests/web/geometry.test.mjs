// The page's geometry and views (sliders/net/web/geometry.js) and its drawing from the host's
// data (board.js), on the table tests/web/square.json holds (what sliders.net.view.table_json
// gives for the square with two seats; tests/net/test_web.py writes it again if it changes).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  View, aimShot, clampHold, fitView, flickShot, fromWorld, handSpot, lanePoints, meterPower,
  pullSpeed, seatOf, seatView, tableView, toWorld, vectorFromWorld,
} from "../../sliders/net/web/geometry.js";
import { drawTable, drawPawn, foulStripes } from "../../sliders/net/web/board.js";

const table = JSON.parse(readFileSync(new URL("./square.json", import.meta.url)));
const south = seatOf(table, "south"), north = seatOf(table, "north");
const close = (a, b, eps = 1e-9) => assert.ok(Math.abs(a - b) <= eps, `${a} != ${b}`);

test("a lane's frame goes to the world and back", () => {
  for (const seat of [south, north]) {
    const [x, y] = toWorld(seat, 0.1, 0.02);
    const [a, c] = fromWorld(seat, x, y);
    close(a, 0.1); close(c, 0.02);
  }
  const [x, y] = toWorld(south, south.foul, 0);
  close(x, 0); close(y, south.near[1] + south.foul);
  assert.deepEqual(vectorFromWorld(north, 0, -1), [1, 0]);
});

test("views map world to screen and back, the seat's lane up a phone and right on a desktop", () => {
  const v = new View(1000, [0.1, -0.2], [200, 300], [1, 0]);
  const [sx, sy] = v.toScreen(0.3, 0.1);
  const [x, y] = v.toWorld(sx, sy);
  close(x, 0.3); close(y, 0.1);
  const phone = seatView(table, north, 360, 640);
  const [ax, ay] = phone.toScreen(...toWorld(north, 0, 0));
  const [bx, by] = phone.toScreen(...toWorld(north, 0.3, 0));
  assert.ok(by < ay && Math.abs(bx - ax) < 1e-6, "north's lane runs up its phone");
  for (const [px, py] of lanePoints(table, north).map((p) => phone.toScreen(...p))) {
    assert.ok(px >= 0 && px <= 360 && py >= 0 && py <= 640, "the lane and the board in sight");
  }
  const desk = seatView(table, south, 1920, 1080);
  const [cx] = desk.toScreen(...toWorld(south, 0, 0));
  const [dx] = desk.toScreen(...toWorld(south, 0.3, 0));
  assert.ok(dx > cx, "south's lane runs right on a wide screen");
  const tv = tableView(table, 3840, 2160);
  assert.ok(tv.scale > 3000, `the whole table large on a 4K screen (${tv.scale} px/m)`);
});

test("a screen velocity is a lane velocity at 1000 px/s a metre a second, whatever the turn", () => {
  for (const seat of [south, north]) {
    for (const [w, h] of [[360, 640], [1600, 900]]) {
      const view = seatView(table, seat, w, h);
      // one second of pointer motion from the lane's near end to 0.5 m down it, on screen
      const a = view.toScreen(...toWorld(seat, 0, 0)), b = view.toScreen(...toWorld(seat, 1, 0));
      const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
      const [wx, wy] = view.worldVelocity(((b[0] - a[0]) / len) * 600, ((b[1] - a[1]) / len) * 600);
      const [va, vc] = vectorFromWorld(seat, wx, wy);
      close(va, 0.6, 1e-9); close(vc, 0, 1e-9);
    }
  }
});

test("a held pawn stays behind the foul line and inside the rails; a flick's shot is clipped", () => {
  assert.deepEqual(clampHold(south, 0.5, 0.2), [south.foul, south.max_offset]);
  assert.deepEqual(clampHold(south, -1, 0), [south.release_min, 0]);
  assert.equal(flickShot(south, [0.1, 0], 0.01, 0.2), null);
  const shot = flickShot(south, [0.1, 0.01], 0.6, 0.0);
  assert.deepEqual(shot, { speed: 0.6, angle_rad: 0, offset: 0.01, release: 0.1 });
  close(flickShot(south, [0.1, 0], 50, 0).speed, south.max_speed);
});

test("the pawns in hand wait side by side behind the lane", () => {
  const spots = [0, 1, 2, 3].map((i) => handSpot(table, south, i, 4));
  assert.ok(spots.every(([a]) => a < 0));
  close(spots[0][1], -spots[3][1]);
});

test("the aim control: the meter rises and falls; half power stops on the centre", () => {
  close(meterPower(1, 0.25), 0.5); close(meterPower(1, 0.5), 1); close(meterPower(1, 1.25), 0.5);
  const v = pullSpeed(table, south, 0.5);
  close((v * v) / (2 * table.deceleration), south.centre - south.foul, 1e-9);
  const view = seatView(table, south, 360, 640);
  const pawn = view.toScreen(...toWorld(south, south.foul, 0));
  const shot = aimShot(table, south, view, [south.foul, 0], pawn, [pawn[0], pawn[1] + 100], 0.5);
  close(shot.angle_rad, 0, 1e-9); close(shot.speed, v);
  assert.equal(aimShot(table, south, view, [south.foul, 0], pawn, [pawn[0], pawn[1] + 5], 0.5), null);
  assert.equal(aimShot(table, south, view, [south.foul, 0], pawn, [pawn[0], pawn[1] - 100], 0.5), null);
});

// a context that records what is drawn
function recorder() {
  const calls = [];
  return new Proxy({ calls }, {
    get(target, name) {
      if (name in target) return target[name];
      return (...args) => calls.push([name, ...args]);
    },
    set(target, name, value) { calls.push([`=${String(name)}`, value]); return true; },
  });
}

test("the board is drawn from the host's geometry: every ring, corner, label and foul line", () => {
  const ctx = recorder();
  const view = fitView([[-0.13, -0.13], [0.13, 0.13]], 520, 520, [0, 1], 0);
  close(view.scale, 2000);
  drawTable(ctx, table, view, 520, 520);
  const arcs = ctx.calls.filter((c) => c[0] === "arc").map((c) => c[3]);
  for (const ring of table.face.rings) assert.ok(arcs.some((r) => Math.abs(r - ring.radius * 2000) < 1e-6), `ring ${ring.points}`);
  assert.equal(arcs.filter((r) => Math.abs(r - table.face.sorry_radius * 2000) < 1e-6).length, 4);
  const words = ctx.calls.filter((c) => c[0] === "fillText").map((c) => c[1]);
  for (const label of table.face.labels) assert.ok(words.includes(label.words));
  const inks = ctx.calls.filter((c) => c[0] === "=strokeStyle").map((c) => c[1]);
  assert.ok(inks.includes(south.ink) && inks.includes(north.ink), "each seat's foul line in its ink");
  assert.equal(foulStripes(table, ["south"]).length, 1);
  assert.equal(foulStripes(table, ["south", "north"]).length, 8);
});

test("a pawn is drawn in its seat's colour where the world puts it", () => {
  const ctx = recorder();
  const view = new View(1000, [0, 0], [100, 100]);
  const [sx, sy, pr] = drawPawn(ctx, table, view, "north-2", 0.01, -0.02);
  close(sx, 110); close(sy, 120); close(pr, table.pawn_radius * 1000);
  assert.ok(ctx.calls.some((c) => c[0] === "=fillStyle" && c[1] === north.ink));
});
