// A slide's motion as the page draws it (sliders/net/web/motion.js).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Motion, Redraw } from "../../sliders/net/web/motion.js";

const DEC = 0.5; // m/s², a pawn's rolling deceleration

function rolling(v0, dt) {
  // a lone pawn from y = -0.3 at v0 up the y axis, decelerating to rest
  const stop = v0 / DEC;
  const at = (t) => { const u = Math.min(t, stop); return [0, -0.3 + v0 * u - 0.5 * DEC * u * u, 0, Math.max(v0 - DEC * u, 0)]; };
  const frames = [];
  for (let k = 0; k * dt < stop + dt; k++) frames.push([at(k * dt)]);
  return { motion: new Motion({ step: 3, dt, end: stop, pawns: ["south-1"], frames }), at };
}

test("between samples the cubic is the path wherever no contact falls", () => {
  const { motion, at } = rolling(0.6, 1 / 30);
  for (const t of [0.01, 0.2, 0.517, 1.0]) {
    const [x, y] = motion.at(t)["south-1"];
    assert.ok(Math.abs(y - at(t)[1]) < 1e-12 && x === 0, `${t}: ${y} vs ${at(t)[1]}`);
  }
});

test("the last sample is where the pawn rests, from then on", () => {
  const { motion } = rolling(0.6, 1 / 30);
  const last = motion.frames[motion.frames.length - 1][0];
  assert.deepEqual(motion.at(motion.duration + 5)["south-1"], [last[0], last[1]]);
  assert.ok(motion.done(motion.duration));
});

test("a pawn that leaves the table is gone from its last sample on", () => {
  const motion = new Motion({ step: 0, dt: 0.1, end: 0.2, pawns: ["a-1"], frames: [[[0, 0, 1, 0]], [[0.1, 0, 1, 0]], [null]] });
  assert.deepEqual(motion.at(0.1)["a-1"], [0.1, 0]);
  assert.equal(motion.at(0.19)["a-1"], null);
  assert.equal(motion.at(0.3)["a-1"], null);
});

test("an idle page draws nothing: a frame draws after a change, or while the picture moves", () => {
  const redraw = new Redraw();
  assert.equal(redraw.due(false), true); // the first frame
  assert.equal(redraw.due(false), false);
  assert.equal(redraw.due(false), false);
  redraw.mark(); // a message, the hand, the size
  redraw.mark();
  assert.equal(redraw.due(false), true);
  assert.equal(redraw.due(false), false);
  assert.equal(redraw.due(true), true); // a slide, a held pawn
  assert.equal(redraw.due(true), true);
  assert.equal(redraw.due(false), false);
});
