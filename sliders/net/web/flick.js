// The hand, measured: the flick read from pointer samples with the time each happened, as the
// window reads it (sliders/scenes/hand.py: fit_velocity and Hand.release), the numbers the same
// (tests/net/test_web.py checks them against the window's). A browser stamps every pointer
// sample itself, coalesced ones too, so the times are the hand's, never the frame's.

export const FLICK_GAIN = 0.001; // m/s of release speed for each CSS pixel a second (1000 px/s: 1 m/s)
export const WINDOW = 0.06; // seconds of motion the release velocity is fitted over
export const MIN_SAMPLES = 3; // fewer in the window: widen it to the last this many
export const OUTLIER = 3.0; // a last sample this many RMS residuals off the line (and 2 px) is dropped
export const MIN_FLICK = 0.02; // m/s toward the board, less puts the pawn back in the hand
export const STILL = 0.5; // px: a release this close to the last sample tells only when

// (vx, vy, x0, y0, t0): slopes and values at the mean time of a least-squares line
function line(samples) {
  const n = samples.length;
  let t0 = 0, x0 = 0, y0 = 0;
  for (const [t, x, y] of samples) { t0 += t; x0 += x; y0 += y; }
  t0 /= n; x0 /= n; y0 /= n;
  let stt = 0, stx = 0, sty = 0;
  for (const [t, x, y] of samples) {
    stt += (t - t0) ** 2; stx += (t - t0) * (x - x0); sty += (t - t0) * (y - y0);
  }
  if (stt <= 1e-12) return null;
  return [stx / stt, sty / stt, x0, y0, t0];
}

function stray(samples, fit) {
  const [vx, vy, x0, y0, t0] = fit;
  const off = ([t, x, y]) => Math.hypot(x - (x0 + vx * (t - t0)), y - (y0 + vy * (t - t0)));
  const before = samples.slice(0, -1).map(off);
  const rms = Math.sqrt(before.reduce((a, d) => a + d * d, 0) / before.length);
  const last = off(samples[samples.length - 1]);
  return last > 2.0 && last > OUTLIER * Math.max(rms, 0.5);
}

// The velocity at the last of `samples` ([t s, x, y] each): the slope of a least-squares line
// over the last `window` seconds (at least MIN_SAMPLES samples), without a last sample far off.
export function fitVelocity(samples, window = WINDOW) {
  if (samples.length < 2) return [0, 0];
  const tEnd = samples[samples.length - 1][0];
  let chosen = samples.filter((s) => tEnd - s[0] <= window + 1e-9);
  if (chosen.length < MIN_SAMPLES) chosen = samples.slice(-MIN_SAMPLES);
  const fit = line(chosen);
  if (fit === null) return [0, 0];
  if (chosen.length >= MIN_SAMPLES + 1) {
    const rest = line(chosen.slice(0, -1));
    if (rest !== null && stray(chosen, rest)) return [rest[0], rest[1]];
  }
  return [fit[0], fit[1]];
}

// The pointer's path since a pawn was taken: add() every sample (coalesced ones too), in
// seconds; release() the velocity it let go with (px/s).
export class Hand {
  constructor(window = WINDOW) { this.window = window; this.samples = []; }
  begin(t, x, y) { this.samples = [[t, x, y]]; }
  add(t, x, y) {
    const last = this.samples[this.samples.length - 1];
    if (last && t < last[0]) return; // a sample told twice, or out of order
    if (last && t === last[0]) { this.samples[this.samples.length - 1] = [t, x, y]; return; }
    this.samples.push([t, x, y]);
    if (this.samples.length > 1024) this.samples.splice(0, this.samples.length - 1024);
  }
  velocity() { return fitVelocity(this.samples, this.window); }
  // A release where the pointer last was only tells when the hand let go: more than `window`
  // after the last motion, the hand had stopped (0); else the motion's velocity stands. A
  // release elsewhere is one more sample.
  release(t, x, y) {
    const n = this.samples.length;
    if (n === 0) return [0, 0];
    const [lt, lx, ly] = this.samples[n - 1];
    if (Math.hypot(x - lx, y - ly) < STILL) {
      if (n < 2 || Math.max(t, lt) - lt > this.window) return [0, 0];
      return fitVelocity(this.samples, this.window);
    }
    this.add(t, x, y);
    return fitVelocity(this.samples, this.window);
  }
}
