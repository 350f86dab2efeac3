// The page: a remote window on a room of `sliders host`. It speaks docs/protocol.md (with
// "draw": true, so the host sends the table, each shot's motion and each step's position), draws
// the table from them, reads a person's hand (flick.js) and sends the seat's intended shot. The
// host decides everything; this page only shows it. /play#room=R&code=C is a seat, /table#room=R
// the whole table for a shared screen (or a spectator).
import { Hand } from "./flick.js";
import { Motion, Redraw } from "./motion.js";
import { drawTable, drawPawn } from "./board.js";
import {
  METERS, CANCEL_PULL, clampHold, flickShot, aimShot, fromWorld, handSpot, meterPower, seatOf,
  seatView, tableView, toWorld, vectorFromWorld,
} from "./geometry.js";

const AIM_EVERY = 100; // ms between two `aim` messages (the host allows 40 messages a second)
const SQUARES = ["START", "1", "2", "3", "4", "5", "HOME"];
const LETTERS = ["A", "B", "C", "D"];

const params = new URLSearchParams(location.hash.slice(1));
const mode = location.pathname.startsWith("/table") ? "table" : "play";
const room = params.get("room") || "1";
const code = params.get("code"); // a seat's code, or on the table the room's watch code

const $ = (id) => document.getElementById(id);
const canvas = $("table");
const ctx = canvas.getContext("2d");
document.body.classList.add(mode);

// everything the page knows, for the tests too (window.sliders)
const S = {
  mode, room, seat: null, table: null, state: null, seats: [], turn: null, step: 0, over: null,
  motion: null, motionAt: 0, pendingState: null, sent: [], log: [], held: null, others: {},
  control: localStorage.getItem("sliders-control") || "flick", meter: "normal", news: [],
  frames: 0, draws: 0, ask: null, connected: false, view: null, width: 0, height: 0,
};
window.sliders = S;
// where a point of this seat's lane (along, across) is in the page, and the i-th pawn in hand
S.screen = (along, across) => {
  const rect = canvas.getBoundingClientRect();
  const [x, y] = S.view.toScreen(...toWorld(mySeat(), along, across));
  return [rect.left + x, rect.top + y];
};
S.handLane = (i) => handSpot(S.table, mySeat(), i, inHand(S.seat).length);
S.handAt = (i) => S.screen(...S.handLane(i));
const now = () => performance.timeOrigin + performance.now();
const redraw = new Redraw(); // the canvas draws only when its picture changes

// -- the connection ---------------------------------------------------------------------------

let ws = null;
let closedForGood = false;

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  ws = new WebSocket(`${scheme}://${location.host}/`);
  ws.onopen = () => {
    const hello = { v: 1, type: "hello", room, draw: true };
    if (code) hello.code = code;
    if (mode === "table" || !code) hello.watch = true;
    const name = localStorage.getItem("sliders-name");
    if (name) hello.name = name;
    ws.send(JSON.stringify(hello));
  };
  ws.onmessage = (e) => receive(JSON.parse(e.data));
  ws.onclose = () => {
    S.connected = false;
    if (!closedForGood) { say("connection lost: joining again…"); setTimeout(connect, 1000); }
    hud();
  };
}

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ v: 1, ...message }));
}

function receive(m) {
  redraw.mark();
  S.log.push({ type: m.type, step: m.step ?? m.n, at: now() });
  if (S.log.length > 500) S.log.splice(0, 100);
  switch (m.type) {
    case "welcome":
      S.connected = true;
      S.seat = m.seat; S.table = m.table; S.seats = m.seats; S.turn = m.turn; S.step = m.step;
      S.state = m.state; S.motion = null; S.pendingState = null; S.held = null;
      layout();
      break;
    case "seats": S.seats = m.seats; break;
    case "turn": S.turn = m.seat; S.step = m.step; S.clockEnd = m.clock ? now() + 1000 * m.clock : null; break;
    case "shot": S.turn = null; S.others = {}; S.rolling = m.slide; break;
    case "motion":
      S.motion = new Motion(m); S.motionAt = performance.now();
      S.log.push({ type: "animate", step: m.step, at: now() });
      sound("go");
      break;
    case "state":
      if (S.motion) S.pendingState = m; else applyState(m);
      break;
    case "aim": S.others[m.seat] = [m.along, m.across]; break;
    case "ask": S.ask = m; showAsk(); break;
    case "news": for (const line of m.lines) say(line); break;
    case "refused": say(`not taken: ${m.reason}`); break;
    case "over":
      S.over = m; closedForGood = true; say(m.winner ? `${m.winner} wins!` : "a draw"); sound("end");
      break;
    case "bye": closedForGood = true; say(`the host closed this page's connection: ${m.reason}`); break;
    default: break;
  }
  hud();
}

function applyState(m) {
  S.state = m; S.step = m.step; S.pendingState = null;
  if (m.turn !== undefined && m.phase !== "shooting") S.turn = null;
}

// -- the hand ---------------------------------------------------------------------------------

const hand = new Hand();
let pointerId = null;
let lastAim = 0;

function myTurn() {
  return S.seat && S.turn === S.seat && !S.motion && !S.over && S.state && S.state.phase === "shooting";
}
function mySeat() { return S.table && S.seat ? seatOf(S.table, S.seat) : null; }
function inHand(seat) {
  const p = S.state && S.state.players.find((q) => q.seat === seat);
  return p ? p.in_hand : [];
}
function point(e) {
  const rect = canvas.getBoundingClientRect();
  return [e.clientX - rect.left, e.clientY - rect.top];
}
function lanePoint(seat, xy) {
  const [x, y] = S.view.toWorld(xy[0], xy[1]);
  return fromWorld(seat, x, y);
}

canvas.addEventListener("pointerdown", (e) => {
  if (!myTurn() || pointerId !== null || S.held) return;
  const seat = mySeat();
  const xy = point(e);
  const [along, across] = lanePoint(seat, xy);
  const waiting = inHand(seat.seat);
  const r = S.table.pawn_radius;
  const t = e.timeStamp / 1000;
  if (S.control === "aim") {
    if (!(along >= -0.035 - 2 * r && along <= seat.foul + r && Math.abs(across) <= seat.width / 2 + r)) return;
    if (!waiting.length) return;
    S.held = { pid: waiting[0], hold: clampHold(seat, seat.foul, across), pressed: t, pointer: xy, aim: true };
  } else {
    const reach = Math.max(1.6 * r, 22 / S.view.scale); // a finger is wider than a pointer
    let found = null;
    waiting.forEach((pid, i) => {
      const [a, c] = handSpot(S.table, seat, i, waiting.length);
      const d = Math.hypot(along - a, across - c);
      if (d <= reach && (!found || d < found.d)) found = { pid, d };
    });
    if (!found) return;
    S.held = { pid: found.pid, hold: clampHold(seat, along, across), pointer: xy };
    hand.begin(t, xy[0], xy[1]);
  }
  pointerId = e.pointerId;
  redraw.mark();
  canvas.setPointerCapture(e.pointerId);
  e.preventDefault();
});

canvas.addEventListener("pointermove", (e) => {
  if (e.pointerId !== pointerId || !S.held) return;
  const seat = mySeat();
  const events = e.getCoalescedEvents ? e.getCoalescedEvents() : [];
  for (const c of events.length ? events : [e]) {
    const xy = point(c);
    S.held.pointer = xy;
    if (S.held.aim) continue;
    hand.add(c.timeStamp / 1000, xy[0], xy[1]);
    const [along, across] = lanePoint(seat, xy);
    if (along > seat.foul) { foul(); return; }
    S.held.hold = clampHold(seat, along, across);
  }
  if (e.timeStamp - lastAim > AIM_EVERY) {
    lastAim = e.timeStamp;
    send({ type: "aim", along: S.held.hold[0], across: S.held.hold[1] });
  }
});

function foul() {
  const held = S.held;
  release();
  shoot({ speed: 0, angle_rad: 0, offset: held.hold[1], release: null, foul: true });
  say("over the foul line: the pawn is out for the round");
}

function release() {
  redraw.mark();
  if (pointerId !== null && canvas.hasPointerCapture(pointerId)) canvas.releasePointerCapture(pointerId);
  pointerId = null;
  S.held = null;
}

function shoot(shot) {
  const message = { type: "shot", step: S.step, ...shot };
  S.sent.push({ ...message, at: now() });
  send(message);
}

canvas.addEventListener("pointerup", (e) => {
  if (e.pointerId !== pointerId || !S.held) return;
  const seat = mySeat();
  const held = S.held;
  const xy = point(e);
  const t = e.timeStamp / 1000;
  if (held.aim) {
    release();
    const power = meterPower(METERS[S.meter], t - held.pressed);
    const pawnAt = S.view.toScreen(...toWorld(seat, held.hold[0], held.hold[1]));
    const shot = aimShot(S.table, seat, S.view, held.hold, pawnAt, xy, power);
    if (!shot) { say("pull back, away from the board, then let go"); return; }
    shoot(shot);
    return;
  }
  const [along] = lanePoint(seat, xy);
  if (along > seat.foul) { foul(); return; }
  const [vx, vy] = hand.release(t, xy[0], xy[1]);
  const [wx, wy] = S.view.worldVelocity(vx, vy);
  const [va, vc] = vectorFromWorld(seat, wx, wy);
  release();
  const shot = flickShot(seat, held.hold, va, vc);
  if (!shot) { say("flick the pawn toward the board to slide it"); return; }
  shoot(shot);
});
canvas.addEventListener("pointercancel", (e) => { if (e.pointerId === pointerId) release(); });

// -- drawing ----------------------------------------------------------------------------------

function layout() {
  redraw.mark();
  const box = canvas.parentElement.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  S.width = box.width; S.height = box.height;
  canvas.width = Math.round(box.width * dpr);
  canvas.height = Math.round(box.height * dpr);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  if (!S.table) return;
  const seat = mode === "play" && S.seat ? seatOf(S.table, S.seat) : null;
  S.view = seat ? seatView(S.table, seat, box.width, box.height) : tableView(S.table, box.width, box.height);
}
new ResizeObserver(layout).observe(canvas.parentElement);

// where each pawn is drawn now: the slide's motion while it runs, else the host's position
function positions() {
  const out = {};
  for (const p of (S.state ? S.state.table : [])) out[p.id] = [p.x, p.y];
  if (S.motion) {
    const t = (performance.now() - S.motionAt) / 1000;
    const at = S.motion.at(t);
    for (const [pid, xy] of Object.entries(at)) {
      if (xy === null) delete out[pid]; else out[pid] = xy;
    }
    if (S.motion.done(t)) {
      S.motion = null;
      redraw.mark(); // the next frame draws the rest as the host's position has it
      if (S.pendingState) applyState(S.pendingState);
      S.log.push({ type: "rested", step: S.step, at: now() });
      hud();
    }
  }
  return out;
}

function frame() {
  S.frames++;
  if (S.table && S.view && redraw.due(!!S.motion || !!S.held)) {
    S.draws++;
    drawTable(ctx, S.table, S.view, S.width, S.height);
    const rolling = S.motion ? new Set(S.motion.pawns) : new Set();
    const shown = positions();
    for (const seat of S.table.seats) {
      const waiting = inHand(seat.seat).filter((pid) => !rolling.has(pid) && !(pid in shown));
      waiting.forEach((pid, i) => {
        if (S.held && S.held.pid === pid) return;
        const [a, c] = handSpot(S.table, seat, i, waiting.length);
        const held = S.others[seat.seat];
        if (held && i === 0 && seat.seat !== S.seat && S.turn === seat.seat) {
          drawPawn(ctx, S.table, S.view, pid, ...toWorld(seat, held[0], held[1]), "#fff");
          return;
        }
        drawPawn(ctx, S.table, S.view, pid, ...toWorld(seat, a, c));
      });
    }
    for (const [pid, [x, y]] of Object.entries(shown)) drawPawn(ctx, S.table, S.view, pid, x, y);
    if (S.held) drawHeld();
  }
  requestAnimationFrame(frame);
}

function drawHeld() {
  const seat = mySeat();
  const [x, y] = toWorld(seat, S.held.hold[0], S.held.hold[1]);
  const [sx, sy] = drawPawn(ctx, S.table, S.view, S.held.pid, x, y, "#ffe066");
  if (!S.held.aim) return;
  const [px, py] = S.held.pointer;
  ctx.beginPath(); ctx.moveTo(sx, sy); ctx.lineTo(px, py);
  ctx.lineWidth = 2; ctx.strokeStyle = "#fac83c"; ctx.stroke();
  const len = Math.hypot(sx - px, sy - py);
  if (len >= CANCEL_PULL) {
    const far = S.view.scale * (seat.centre + S.table.board_side / 2 - S.held.hold[0]);
    ctx.setLineDash([8, 8]);
    ctx.beginPath(); ctx.moveTo(sx, sy);
    ctx.lineTo(sx + (sx - px) / len * far, sy + (sy - py) / len * far);
    ctx.strokeStyle = "#fff"; ctx.stroke(); ctx.setLineDash([]);
  }
  const power = meterPower(METERS[S.meter], performance.now() / 1000 - S.held.pressed);
  $("meter-fill").style.width = `${Math.round(100 * power)}%`;
}

// -- words ------------------------------------------------------------------------------------

function say(line) {
  S.news.push(line);
  if (S.news.length > 3) S.news.shift();
  $("news").textContent = S.news.join("\n");
}

function colourName(seat) {
  const s = S.table && seatOf(S.table, seat);
  return s && s.colour ? `${s.colour[0].toUpperCase()}${s.colour.slice(1)}` : seat;
}

function hud() {
  const banner = $("banner");
  if (S.over) banner.textContent = S.over.winner ? `${colourName(S.over.winner)} (${S.over.winner}) wins` : "A draw";
  else if (!S.connected) banner.textContent = "connecting…";
  else if (S.motion) banner.textContent = "sliding…";
  else if (S.turn && S.turn === S.seat) banner.textContent = S.control === "aim"
    ? "Your turn: press in your lane, pull back, let go on the meter"
    : "Your turn: swing a pawn up your lane and let go";
  else if (S.turn) banner.textContent = `${colourName(S.turn)} (${S.turn}) to slide`;
  else if (S.state && S.state.phase !== "shooting") banner.textContent = `Round ${S.state.round}: scoring`;
  else banner.textContent = S.seat ? `You are ${colourName(S.seat)} (${S.seat})` : "Watching";
  const rows = [];
  for (const p of (S.state ? S.state.players : [])) {
    const here = S.seats.find((q) => q.seat === p.seat);
    const who = here ? (here.kind === "cpu" ? "computer" : here.connected ? (here.name || "here") : "away") : "";
    const cells = p.board.map((sq, i) => `<span class="sq s${sq}" title="${LETTERS[i]}: ${SQUARES[sq]}">${sq === 6 ? "★" : sq}</span>`).join("");
    const s = seatOf(S.table, p.seat);
    rows.push(`<div class="row${S.turn === p.seat ? " turn" : ""}"><i style="background:${s ? s.ink : "#888"}"></i>`
      + `<b>${p.seat}</b><em>${who}</em>${cells}</div>`);
  }
  $("scores").innerHTML = rows.join("");
  $("round").textContent = S.state ? `round ${S.state.round}` : "";
  $("meter").hidden = !(S.held && S.held.aim);
  $("control").textContent = S.control === "aim" ? "aim ⇄" : "flick ⇄";
  $("control").hidden = mode !== "play" || !S.seat;
}

function showAsk() {
  const m = S.ask;
  const box = $("ask");
  box.innerHTML = "";
  const title = document.createElement("p");
  const buttons = [];
  if (m.choice === "home") {
    title.textContent = `${m.pawn} is in the hole: which scoring pawn goes HOME?`;
    for (const k of m.options) buttons.push([`${LETTERS[k]} (on ${SQUARES[m.board[k]]})`, { type: "home", step: m.step, pawn: m.pawn, scoring: k }, k === m.default]);
  } else {
    title.textContent = `Round ${m.round} is over: how do your points move your scoring pawns?`;
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    for (const option of m.options) {
      const board = [...m.board];
      for (const mv of option) board[mv.scoring] += mv.points;
      const words = board.map((sq, i) => `${LETTERS[i]} ${SQUARES[Math.min(sq, 6)]}`).join(" · ");
      buttons.push([words, { type: "score", step: m.step, moves: option }, same(option, m.default)]);
    }
  }
  box.append(title);
  for (const [words, answer, suggested] of buttons) {
    const b = document.createElement("button");
    b.textContent = suggested ? `${words} (suggested)` : words;
    if (suggested) b.className = "suggested";
    b.onclick = () => { send(answer); S.ask = null; box.hidden = true; };
    box.append(b);
  }
  box.hidden = false;
}

// -- sound (the table screen) -----------------------------------------------------------------

let audio = null;
function sound(kind) {
  if (mode !== "table" || !audio) return;
  const o = audio.createOscillator(), g = audio.createGain();
  o.frequency.value = kind === "go" ? 520 : 780;
  g.gain.setValueAtTime(0.15, audio.currentTime);
  g.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + (kind === "go" ? 0.15 : 0.6));
  o.connect(g).connect(audio.destination);
  o.start(); o.stop(audio.currentTime + 0.6);
}
document.addEventListener("pointerdown", () => {
  if (!audio && window.AudioContext) audio = new AudioContext();
}, { once: true });

$("control").addEventListener("click", () => {
  S.control = S.control === "aim" ? "flick" : "aim";
  localStorage.setItem("sliders-control", S.control);
  hud();
});

layout();
hud();
if (mode === "play" && !code) { say("this link has no seat's code: watching"); }
connect();
requestAnimationFrame(frame);
