// The play page: renders /barrage/api/sessions/<id>, polls the camera, sends one request per step.
"use strict";
const app = document.getElementById("app");
const SID = app.dataset.session;
const API = `/barrage/api/sessions/${SID}`;
const SVGNS = "http://www.w3.org/2000/svg";
const PIECES = {headstream: ["empty"], dam: ["empty", "base", "base+1", "base+2"],
                conduit: ["empty", "conduit"], powerhouse: ["empty", "powerhouse"]};
let view = null;        // the last session view from the server
let layout = null;      // slot boxes of the canonical frame
let busy = false;       // a step request is in flight: buttons wait for it

const $ = (id) => document.getElementById(id);
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v);
  }
  for (const c of children.flat()) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return node;
}
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
// The companies' colours and the tile's columns, named in the page's language.
const COLOURS = {red: _("red"), black: _("black"), green: _("green"), white: _("white"), orange: _("orange")};
const colourName = (colour) => COLOURS[colour] || colour;
const COLUMN = {dam: _("Dam (from {start})"), conduit: _("Conduit (from {start})"), powerhouse: _("Powerhouse (from {start})")};
const LEVELS = {easy: _("easy"), medium: _("medium"), hard: _("hard"), "very-hard": _("very hard")};
const drops = (n) => (n === 1 ? _("1 drop") : _("{n} drops", {n}));
function swatch(hex, big) { return el("span", {class: big ? "swatch big" : "swatch", style: `background:${hex}`}); }
function showError(text) { const m = $("message"); m.textContent = text; m.hidden = !text; }

async function call(method, url, body) {
  const res = await fetch(url, {method, headers: {"Content-Type": "application/json"},
                                body: body ? JSON.stringify(body) : undefined});
  const data = await res.json().catch(() => ({error: `HTTP ${res.status}`}));
  if (!res.ok) throw new Error((data.problems || [data.error]).join("; "));
  return data;
}

async function step(action, extra = {}) {
  if (busy) return;
  busy = true;
  document.querySelectorAll("#now button").forEach((b) => (b.disabled = true));
  try {
    render(await call("POST", `${API}/${action}`, {seq: view.seq, ...extra}));
    showError("");
  } catch (e) {
    showError(e.message);
    await reload();
  } finally { busy = false; }
}

async function reload() { render(await call("GET", API)); }

// -- the "now" panel ------------------------------------------------------------------
function company(cid) { return view.companies.find((c) => c.company === cid); }

function renderNow() {
  const now = $("now");
  now.replaceChildren();
  if (view.phase === "over") {
    const ranked = [...view.companies].sort((a, b) => b.vp - a.vp);
    now.append(el("div", {class: "who"}, _("Game over: final scores")),
      el("ol", {class: "moves"}, ranked.map((c) => el("li", {}, swatch(c.hex), " " + _("{company}: {vp} VP", {company: c.company, vp: c.vp})))));
    return;
  }
  if (view.phase === "round_end") {
    now.append(el("div", {class: "who"}, _("Round {n} is over", {n: view.round})),
      el("p", {class: "instruction"}, view.round < 5
        ? _("Everyone has passed. Run the round end: water flows, energy and bonus scoring, then the next round's income and headstream water.")
        : _("Everyone has passed. Run the round end: water flows, energy and bonus scoring, then final scoring.")),
      el("button", {class: "big", id: "round-end", onclick: () => step("round-end")}, _("Run round end")));
    return;
  }
  const c = view.next_view;
  if (c.automa) {
    const d = view.decision;
    now.append(el("div", {class: "who"}, swatch(c.hex, true), " " + cap(_("{colour} Automa ({company}) plays", {colour: colourName(c.colour), company: c.company}))),
      el("p", {class: "instruction", id: "instruction"}, d.summary || d.instruction),
      // where on the map, as a player says it (the code a hint): with Done, on a phone's first screen
      view.targets.length ? el("ul", {class: "targets", id: "targets", "aria-label": _("On the map")},
        view.targets.map((t) => el("li", {}, t))) : "",
      view.targets.length ? el("div", {class: "target-map", id: "target-map", title: _("Show the whole map"),
        onclick: () => showTab("map")}) : "",
      el("button", {class: "big", id: "automa-done", onclick: () => step("automa-done")}, _("Done: next turn")),
      el("p", {class: "muted", id: "auto-note"}, autoNote(false)),
      el("div", {id: "waiting"}, waitingText()),
      el("ol", {class: "moves", id: "moves"}, d.moves.map((m) => el("li", {}, m))),
      el("details", {id: "why"}, el("summary", {}, _("Why? (the Automa's full reasoning)")),
        el("pre", {}, d.trace.join("\n"))));
  } else {
    now.append(el("div", {class: "who"}, swatch(c.hex, true), " " + cap(_("{colour} player ({company}): your turn", {colour: colourName(c.colour), company: c.company}))),
      // Mahiri Sekibo (Very Hard): an Automa tile decides the human's first action of the round
      view.decision ? el("div", {class: "sekibo", id: "sekibo"},
        el("div", {class: "muted"}, _("Mahiri Sekibo: an Automa tile decides your first action this round")),
        el("p", {class: "instruction"}, view.decision.instruction)) : "",
      el("div", {class: "detected", id: "detected"}, detectedText()),
      el("p", {class: "muted"}, _("The map shows the moves seen ringed in dashed blue. Anything wrong? Click the slot on the map to correct it before confirming.")),
      el("button", {class: "big", id: "human-done", onclick: () => step("human-done")}, _("Confirm turn")),
      el("button", {class: "big secondary", id: "pass", onclick: () => step("pass")}, _("Pass for the rest of the round")),
      // the camera lost, frozen or not yet steady: the turn as the map shows it, corrected by hand
      view.recognitionAvailable ? el("button", {class: "secondary", id: "human-done-by-hand",
        onclick: () => step("human-done", {use_camera: false})}, _("Confirm without the camera")) : "");
  }
}

let detected = [], refused = [], refusedAgain = [], unread = [], seen = [], unsure = [], waiting = [];
// the legal moves that best explain the camera's reading (best first, each with its chance), and
// the slots read changed that the best move does not explain (flagged, never applied)
let ranked = [], unexplained = [];
// Why an Automa's turn waits for Done: no camera, a turn off the map (the camera cannot see it
// done), or a turn just undone (the table may still show it: the camera does not play it again).
function autoNote(undone) {
  if (!view.recognitionAvailable) return _("Carry it out on the table, then press Done.");
  if (!view.changes_map) return _("Nothing on the map changes: the camera cannot see this turn done. Carry it out, then press Done.");
  if (undone) return _("Undone: the camera does not play this turn again by itself. Press Done to play it.");
  return _("The page moves on by itself when the camera sees this done.");
}
// On an Automa's turn, what the camera does not see done yet: the players see why the page waits.
function waitingText() {
  if (!view.recognitionAvailable || !waiting.length) return "";
  return el("div", {class: "muted"}, _("Not seen done yet:"), el("ul", {}, waiting.map((w) => el("li", {}, w))));
}
function detectedText() {
  if (!view.recognitionAvailable) return _("Recognition unavailable: play your turn, correct the map if needed, then confirm.");
  // Changes the rules never make (a piece gone, lowered, another owner) are misreadings: the map keeps what it knew.
  const notTaken = refused.length ? [el("p", {class: "muted", id: "refused"}, _("Not taken (each with its reason):")),
    el("ul", {}, refused.map((m) => el("li", {}, m)))] : [];
  // the same misreadings as on the last turn: counted, not listed again every turn
  if (refusedAgain.length) notTaken.push(el("p", {class: "muted", id: "refused-again"},
    _("Also not taken, as on the last turn: {n}", {n: refusedAgain.length})));
  // The picture changed where the camera reads no move: the players look there and correct the map.
  const check = unread.length ? [el("p", {id: "unread"}, _("The picture changed on {slots} but the camera reads no move there: check those slots and correct the map if needed.", {slots: unread.join(", ")}))] : [];
  // Slots read unsure, breaking a rule, or hidden: a move there may be read wrong or missed.
  const ask = unsure.length ? [el("p", {class: "muted", id: "unsure"}, _("The camera is unsure here (ringed in dotted purple on the map): look at the table and correct the map if needed:")),
    el("ul", {}, unsure.map((u) => el("li", {}, `${u.name}: ${u.why}`)))] : [];
  const [moves, flagged] = rankedMoves();
  if (!detected.length) return el("div", {}, ...moves, _("No moves seen yet. Play your turn; the moves appear here."), ...flagged, ...check, ...ask, ...notTaken);
  return el("div", {}, ...moves, el("ul", {}, detected.map((m) => el("li", {}, m))), ...flagged, ...ask, ...notTaken);
}
// The best legal move, one tap to confirm; the runner-ups one tap away; what no move explains, flagged.
function rankedMoves() {
  if (!ranked.length) return [[], []];
  const pct = (r) => Math.round(100 * r.confidence);
  const choose = (r) => () => step("human-done", {move: r.key});
  const out = [el("button", {class: "big", id: "confirm-best", "data-move": ranked[0].key, onclick: choose(ranked[0])},
    _("Confirm: {move} ({p} %)", {move: ranked[0].text, p: pct(ranked[0])}))];
  if (ranked.length > 1) out.push(el("p", {class: "muted"}, _("Or one of these:")),
    el("div", {id: "runner-ups"}, ranked.slice(1).map((r) => el("button", {class: "secondary", "data-move": r.key, onclick: choose(r)},
      _("{move} ({p} %)", {move: r.text, p: pct(r)})))));
  const flagged = [];
  if (unexplained.length) flagged.push(el("p", {id: "unexplained"}, _("Read on the map but explained by no legal move with the best one (not applied: look at the table):")),
    el("ul", {}, unexplained.map((u) => el("li", {}, `${u.name}: ${u.why}`))));
  return [out, flagged];
}

// -- tiles, boards, history ---------------------------------------------------------------
function renderTiles() {
  const t = view.tiles;
  const actions = el("div", {class: "tile", id: "tile-actions"}, el("h3", {}, _("Actions side (tile {n})", {n: t.actions.tile})),
    el("ol", {}, t.actions.actions.map((a) => el("li", {class: (a.dashed ? "dashed " : "") + (a.expansion ? "expansion" : "")},
      a.text))));
  let criteria = el("div", {class: "tile", id: "tile-criteria"}, el("h3", {}, _("Criteria side")), el("p", {class: "muted"}, _("No tile flipped yet.")));
  if (t.criteria) {
    const cr = t.criteria.criteria;
    criteria = el("div", {class: "tile", id: "tile-criteria"}, el("h3", {}, _("Criteria side (tile {n})", {n: t.criteria.tile})),
      ["dam", "conduit", "powerhouse"].map((col) => el("div", {class: "col"},
        el("b", {}, _(COLUMN[col], {start: cr[col].start}) + ": "), cr[col].criteria.join(" > "))),
      el("div", {class: "col"}, el("b", {}, _("Headstreams") + ": "), t.criteria.headstreams.join(" > ")));
  }
  $("tiles").replaceChildren(el("div", {class: "tilepair"}, actions, criteria),
    el("p", {class: "muted small"}, _("{pile} tiles in the draw pile, {discard} discarded. Dashed: the turn goes on.", {pile: t.draw_pile, discard: t.discard})));
}

function renderBoards() {
  $("boards").replaceChildren(...view.companies.map((c) => {
    const wheel = el("div", {class: "wheel", title: _("construction wheel, entry segment first")},
      c.wheel.map((s, i) => el("span", {class: i === 0 ? "entry" : ""},
        [...s.tiles.map((t) => t.replace("_", " ")), s.excavators ? `${s.excavators}E` : "", s.mixers ? `${s.mixers}M` : ""]
          .filter(Boolean).join(" ") || "-")));
    return el("div", {class: "board", style: `border-left-color:${c.hex}`},
      el("div", {}, swatch(c.hex), el("b", {}, ` ${c.company}`), " " + (c.automa ? _("Automa ({difficulty})", {difficulty: LEVELS[c.difficulty] || c.difficulty})
        + (c.officer ? ", " + c.officer : "") : _("human"))),
      el("div", {class: "stats"}, el("span", {}, el("b", {}, c.vp), " ", _("VP")), el("span", {}, el("b", {}, c.engineers), " ", _("engineers")),
        el("span", {}, _("{n} excavators", {n: c.excavators})), el("span", {}, _("{n} mixers", {n: c.mixers})),
        el("span", {}, _("energy {n}", {n: c.energy}))),
      c.automa ? wheel : "",
      c.automa ? el("div", {class: "small muted"}, _("technology: {tiles}", {tiles: c.tiles.join(", ").replaceAll("_", " ")})) : "");
  }));
}

function renderHistory() {
  $("history").replaceChildren(...view.history.map((h) => el("li", {},
    el("span", {}, h.label),
    h.seq < view.seq ? el("button", {class: "secondary", title: _("undo every later step"),
      onclick: () => { if (confirm(_("Go back to step {n}? Later steps are removed.", {n: h.seq}))) undo(h.seq); }}, _("back to here")) : "")));
  $("history").scrollTop = 1e6;
}

async function undo(to) {
  // the step shown goes with "undo": a second click is refused instead of undoing a step more
  try { render(await call("POST", `${API}/undo`, to === undefined ? {seq: view.seq} : {to})); showError(""); }
  catch (e) { showError(e.message); }
}

// -- the map ---------------------------------------------------------------------------
async function setupMap() {
  const [svgText, lay] = await Promise.all([fetch("/barrage/api/reference.svg").then((r) => r.text()),
                                            call("GET", `/barrage/api/layout?profile=${encodeURIComponent(view.settings.profile || "")}`)]);
  layout = lay;
  $("map").innerHTML = svgText;
  const svg = $("map").querySelector("svg");
  svg.removeAttribute("width"); svg.removeAttribute("height");
  for (const id of ["pieces", "targets", "checks", "hits"]) { const g = document.createElementNS(SVGNS, "g"); g.id = `map-${id}`; svg.append(g); }
  for (const s of layout.slots) {
    const r = svgEl("rect", {x: s.x - 4, y: s.y - 4, width: s.w + 8, height: s.h + 8, class: "slot-hit", "data-slot": s.id});
    r.addEventListener("click", () => openSlot(s));
    $("map-hits").append(r);
  }
}
function svgEl(tag, attrs) { const n = document.createElementNS(SVGNS, tag); for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v); return n; }

function renderMap() {
  if (!layout) return;
  const boxes = Object.fromEntries(layout.slots.map((s) => [s.id, s]));
  const pieces = $("map-pieces"); pieces.replaceChildren();
  // On a human's turn the slots the camera sees moved are drawn as confirming would leave them, ringed dashed.
  const moved = new Set(seen.map((p) => p.slot));
  for (const p of [...view.pieces.filter((p) => !moved.has(p.slot)), ...seen]) {
    const b = boxes[p.slot]; if (!b) continue;
    const cx = b.x + b.w / 2, cy = b.y + b.h / 2;
    if (moved.has(p.slot)) {
      pieces.append(svgEl("rect", {x: b.x - 7, y: b.y - 7, width: b.w + 14, height: b.h + 14, rx: 9, class: "seen", "data-seen": p.slot}));
    }
    if (p.piece === "headstream") {
      if (p.drops) pieces.append(svgText(cx, b.y + b.h - 16, drops(p.drops), 26, "#0b4f8a"));
      continue;
    }
    const fill = view.colours[p.owner] || "#888";
    const dark = ["#f4f4f4", "#ffd400"].includes(fill) ? "#222" : "#fff";
    pieces.append(svgEl("rect", {x: b.x + 3, y: b.y + 3, width: b.w - 6, height: b.h - 6, rx: p.piece === "conduit" ? b.h / 2 : 6,
                                 fill, stroke: "#000", "stroke-width": 2, "data-piece": p.slot}));
    const label = p.piece.startsWith("base") ? `${1 + Number(p.piece.split("+")[1] || 0)}` : p.piece === "conduit" ? "C" : "P";
    pieces.append(svgText(cx, cy, label, Math.min(b.h * 0.6, 30), dark));
    if (p.drops) pieces.append(svgText(cx, b.y - 14, drops(p.drops), 18, "#0b4f8a"));
  }
  const targets = $("map-targets"); targets.replaceChildren();
  for (const id of view.highlight) {
    const b = boxes[id]; if (!b) continue;
    targets.append(svgEl("rect", {x: b.x - 10, y: b.y - 10, width: b.w + 20, height: b.h + 20, rx: 10, class: "target", "data-target": id}));
  }
  renderTargetMap(boxes);
}
// The Automa's target on the turn itself: the part of the map around it, so that a phone shows
// the instruction, where it goes and Done together; a tap opens the whole map.
function renderTargetMap(boxes) {
  const holder = $("target-map"); if (!holder) return;
  const slots = view.highlight.map((id) => boxes[id]).filter(Boolean);
  if (!slots.length) { holder.replaceChildren(); return; }
  const x0 = Math.min(...slots.map((b) => b.x)), y0 = Math.min(...slots.map((b) => b.y));
  const x1 = Math.max(...slots.map((b) => b.x + b.w)), y1 = Math.max(...slots.map((b) => b.y + b.h));
  const w = Math.max(x1 - x0 + 240, 520), h = w / 3.4;             // the neighbours in view, in a low strip
  const cx = (x0 + x1) / 2, cy = (y0 + y1) / 2;
  const copy = $("map").querySelector("svg").cloneNode(true);
  copy.querySelectorAll("[id]").forEach((n) => n.removeAttribute("id"));
  copy.querySelectorAll(".slot-hit").forEach((n) => n.remove());
  copy.setAttribute("viewBox", `${cx - w / 2} ${cy - h / 2} ${w} ${h}`);
  copy.setAttribute("role", "img");
  copy.setAttribute("aria-label", view.targets.join("; "));
  holder.replaceChildren(copy);
}
// The slots whose picture changed where the camera reads no move: ringed for the players to check.
function renderChecks() {
  const checks = $("map-checks"); if (!layout || !checks) return;
  checks.replaceChildren();
  for (const s of layout.slots.filter((s) => unread.includes(s.id))) {
    checks.append(svgEl("rect", {x: s.x - 8, y: s.y - 8, width: s.w + 16, height: s.h + 16, rx: 8, class: "check", "data-check": s.id}));
  }
  const asked = new Set(unsure.map((u) => u.slot));
  for (const s of layout.slots.filter((s) => asked.has(s.id))) {
    checks.append(svgEl("rect", {x: s.x - 12, y: s.y - 12, width: s.w + 24, height: s.h + 24, rx: 10, class: "unsure", "data-unsure": s.id}));
  }
}
function svgText(x, y, text, size, fill) {
  const t = svgEl("text", {x, y, "font-size": size, fill, "text-anchor": "middle", "dominant-baseline": "central", "font-weight": 700});
  t.textContent = text; return t;
}

function openSlot(slot) {
  const form = $("slot-form");
  // what the map shows there: the camera's move where it sees one, else the game's piece
  const current = seen.find((p) => p.slot === slot.id) || view.pieces.find((p) => p.slot === slot.id)
    || {piece: "empty", owner: null, drops: 0};
  $("slot-id").textContent = `${slot.id} (${slot.kind})`;
  form.slot.value = slot.id;
  form.piece.replaceChildren(...PIECES[slot.kind].map((p) => el("option", {value: p}, p)));
  form.piece.value = slot.kind === "headstream" ? "empty" : current.piece;
  const owners = [...view.companies.map((c) => c.company), ...(slot.kind === "dam" ? ["neutral"] : [])];
  form.owner.replaceChildren(el("option", {value: ""}, "-"), ...owners.map((o) => el("option", {value: o}, o)));
  form.owner.value = current.owner || "";
  form.drops.value = current.drops || 0;
  $("slot-error").textContent = "";
  $("slot-dialog").showModal();
}

$("slot-form").addEventListener("submit", async (ev) => {
  if (ev.submitter && ev.submitter.value !== "save") return;
  ev.preventDefault();
  const f = ev.target;
  try {
    render(await call("POST", `${API}/correct`, {seq: view.seq, slot: f.slot.value, piece: f.piece.value,
                                                  owner: f.owner.value, drops: f.drops.value}));
    $("slot-dialog").close();
  } catch (e) { $("slot-error").textContent = e.message; }
});

// -- camera and live status --------------------------------------------------------------
function refreshCamera() {
  const img = $("camera");
  img.onload = img.onerror = () => setTimeout(refreshCamera, 1000);
  img.src = `${API}/camera.jpg?t=${Date.now()}`;
}

async function poll() {
  try {
    const live = await call("GET", `${API}/live`);
    const reg = $("registration");
    // Why the board is not found (or found only where it last was), when recognition says.
    const board = live.flags.find((f) => f.startsWith("board: "));
    reg.textContent = live.camera_problem || (board && board.slice(7)) || `board: ${live.registration}`;
    reg.className = "pill " + (["aruco", "features", "manual", "cached", "held"].includes(live.registration) ? "ok" : "bad");
    const chance = $("board-chance");   // how likely the camera read the whole board right
    chance.hidden = live.board_chance == null;
    chance.textContent = live.board_chance == null ? "" : _("whole board read right: {p} likely", {p: `${Math.round(100 * live.board_chance)} %`});
    const note = $("camera-note");      // frames come, but too small to read well
    note.textContent = live.camera_note || "";
    note.hidden = !live.camera_note;
    // a lost, frozen or board-less camera: said at once, with what to do (nothing is taken from it meanwhile)
    const health = $("camera-health");
    health.textContent = live.camera && !live.camera.ok ? live.camera.message : "";
    health.hidden = !health.textContent;
    const auto = $("auto-note"); if (auto) auto.textContent = autoNote(live.undone);
    const before = JSON.stringify(seen);
    if (live.advanced || live.seq !== view.seq) { unread = []; seen = []; unsure = []; waiting = []; await reload(); }
    else if (view.next_view && view.next_view.automa) {
      waiting = live.waiting || [];
      const w = $("waiting"); if (w) w.replaceChildren(waitingText());
    } else if (view.next_view && !view.next_view.automa) {
      detected = live.moves; refused = live.refused; refusedAgain = live.refused_again || []; unread = live.unread || []; seen = live.seen || [];
      unsure = live.unsure || []; ranked = live.ranked || []; unexplained = live.unexplained || [];
      const d = $("detected"); if (d) d.replaceChildren(detectedText());
    }
    if (!view.next_view || view.next_view.automa) { unread = []; seen = []; unsure = []; }     // only a human's turn asks
    if (JSON.stringify(seen) !== before) renderMap();
    renderChecks();
  } catch (e) { /* a missed poll is retried a second later */ }
  setTimeout(poll, 1000);
}

function render(v) {
  // a new player's turn (or the round's end) is shown at once, whichever tab a phone was on
  if (view && (view.next !== v.next || view.phase !== v.phase)) showTab("turn");
  // what the camera saw belongs to the step it was read on: a new step shows none until the next poll
  if (view && view.seq !== v.seq) { detected = []; refused = []; refusedAgain = []; unread = []; seen = []; unsure = []; waiting = []; ranked = []; unexplained = []; }
  view = v;
  view.recognitionAvailable = !$("recognition");
  $("round").textContent = view.phase === "over" ? _("game over") : _("Round {n}", {n: view.round});
  $("undo").disabled = view.seq === 0;
  renderNow(); renderTiles(); renderBoards(); renderHistory(); renderMap();
}

// On a phone the page is four tabs (the turn, the camera, the map, the game); wider, all shows.
function showTab(name) {
  for (const pane of document.querySelectorAll("[data-pane]")) pane.classList.toggle("off-tab", pane.dataset.pane !== name);
  for (const tab of document.querySelectorAll("#tabs [data-tab]")) tab.setAttribute("aria-selected", String(tab.dataset.tab === name));
}
for (const tab of document.querySelectorAll("#tabs [data-tab]")) tab.addEventListener("click", () => showTab(tab.dataset.tab));
showTab("turn");

$("undo").addEventListener("click", () => undo());
(async () => {
  await reload();
  await setupMap();
  renderMap();
  refreshCamera();
  poll();
})();
