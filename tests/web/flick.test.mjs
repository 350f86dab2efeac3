// The page's flick reading (sliders/net/web/flick.js), as the window's (sliders/scenes/hand.py).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Hand, fitVelocity, WINDOW } from "../../sliders/net/web/flick.js";

// a steady swing: `speed` px/s upward, sampled every `interval` s, from t0
function swing(speed, interval, n, t0 = 10.0, jitter = () => 0) {
  const out = [];
  for (let k = 0; k < n; k++) out.push([t0 + k * interval + jitter(k), 200, 600 - speed * k * interval]);
  return out;
}

test("a steady swing's velocity is its own, at any report rate", () => {
  for (const rate of [60, 125, 250, 1000]) {
    const [vx, vy] = fitVelocity(swing(700, 1 / rate, 40));
    assert.ok(Math.abs(vx) < 1e-6);
    assert.ok(Math.abs(vy + 700) < 1e-6, `${rate} Hz: ${vy}`);
  }
});

test("every single flick of a swing read from stamped samples within 3 % whatever the frames", () => {
  // the samples are the browser's own (coalesced ones too): the frame rate never enters
  const hand = new Hand();
  for (const speed of [300, 600, 900, 1500]) {
    const path = swing(speed, 0.008, 30);
    hand.begin(...path[0]);
    for (const s of path.slice(1)) hand.add(...s);
    const [t, x, y] = path[path.length - 1];
    const [, vy] = hand.release(t + 0.004, x, y);
    assert.ok(Math.abs(-vy - speed) / speed < 0.03, `${speed}: ${vy}`);
  }
});

test("one stray last sample does not spoil the speed", () => {
  const path = swing(800, 0.008, 20);
  path.push([path[path.length - 1][0] + 0.008, 260, path[path.length - 1][2] - 6.4]);
  const [, vy] = fitVelocity(path);
  assert.ok(Math.abs(vy + 800) < 1, `${vy}`);
});

test("a hand that stopped before letting go slides nothing", () => {
  const hand = new Hand();
  const path = swing(800, 0.008, 20);
  hand.begin(...path[0]);
  for (const s of path.slice(1)) hand.add(...s);
  const [t, x, y] = path[path.length - 1];
  assert.deepEqual(hand.release(t + WINDOW + 0.01, x, y), [0, 0]);
});

test("a release elsewhere is one more sample; fewer than two samples is no motion", () => {
  const hand = new Hand();
  assert.deepEqual(hand.release(1, 0, 0), [0, 0]);
  hand.begin(1.0, 100, 500);
  const [, vy] = hand.release(1.01, 100, 490);
  assert.ok(Math.abs(vy + 1000) < 1e-6);
});

test("samples told twice or out of order are not taken twice", () => {
  const hand = new Hand();
  hand.begin(1.0, 0, 0);
  hand.add(1.008, 0, -8);
  hand.add(1.008, 0, -8);
  hand.add(1.004, 0, -4);
  hand.add(1.016, 0, -16);
  assert.equal(hand.samples.length, 3);
});
