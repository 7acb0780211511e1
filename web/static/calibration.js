// The calibration wizard: each button calls one step's endpoint and shows its answer.
"use strict";
const $ = (id) => document.getElementById(id);
const SVGNS = "http://www.w3.org/2000/svg";
let status = {};
let corners = null;          // clicked corners (frame px) while in corner mode

const name = () => encodeURIComponent($("profile-name").value.trim());
const api = (path = "") => `/calibration/api/${name()}${path}`;

function showError(text) { $("message").textContent = text; $("message").hidden = !text; }
function result(step, text, ok = true) { const r = $(`result-${step}`); r.textContent = text; r.className = `result ${ok ? "ok" : "bad"}`; }
function done(step) { $(`step-${step}`).classList.add("done"); }
// The board found on the picture before is forgotten by the server: say so at step 4.
function pictureChanged(why) {
  if (!$("step-4").classList.contains("done")) return;
  $("step-4").classList.remove("done");
  result(4, _("{why}: find the board on it again.", {why}), false);
}

async function send(method, path, body, isForm = false) {
  const opts = {method};
  if (body !== undefined) {
    opts.body = isForm ? body : JSON.stringify(body);
    if (!isForm) opts.headers = {"Content-Type": "application/json"};
  }
  const res = await fetch(api(path), opts);
  const data = await res.json().catch(() => ({error: `HTTP ${res.status}`}));
  if (!res.ok) throw new Error((data.problems || [data.error]).join("; "));
  showError("");
  return data;
}

function step(button, n, fn) {
  $(button).addEventListener("click", async () => {
    try { await fn(); } catch (e) { result(n, e.message, false); }
    refreshPreview();
  });
}

// Full size while the board's corners are being clicked (``zoomPreview``), else shrunk.
function refreshPreview() {
  const full = $("preview").parentElement.classList.contains("zoomed");
  $("preview").src = `${api("/preview.jpg")}?${full ? "full=1&" : ""}t=${Date.now()}`;
}
async function refreshStatus() { status = await send("GET", ""); return status; }

step("snapshot", 1, async () => {
  await send("POST", "/snapshot");
  await refreshStatus();
  result(1, _("Snapshot taken: the next steps work on it.")); done(1);
  pictureChanged(_("A new picture"));
  $("preview-note").textContent = _("the snapshot");
});
$("photo").addEventListener("change", async (ev) => {
  const form = new FormData(); form.append("photo", ev.target.files[0]);
  try {
    await send("POST", "/photo", form, true); await refreshStatus();
    result(1, _("Photo {name} loaded: the next steps work on it.", {name: ev.target.files[0].name})); done(1);
    pictureChanged(_("A new picture"));
    $("preview-note").textContent = _("the uploaded photo");
  } catch (e) { result(1, e.message, false); }
  refreshPreview();
});

step("lens", 2, async () => {
  const form = new FormData();
  for (const f of $("lens-photos").files) form.append("photos", f);
  const r = await send("POST", "/lens", form, true);
  result(2, _("Lens calibrated from {views} photos, error {rms} px", {views: r.views, rms: r.rms})
    + (r.rejected.length ? " " + _("(not used: {photos})", {photos: r.rejected.join("; ")}) : ""), r.rms < 1.5);
  done(2);
  pictureChanged(_("The lens now straightens the picture otherwise"));
});

step("check-markers", 3, async () => {
  const r = await send("POST", "/markers");
  const list = $("result-3");
  list.replaceChildren(...r.messages.map((m) => Object.assign(document.createElement("li"), {textContent: m})));
  list.className = `result ${r.ok ? "ok" : "bad"}`;
  if (r.ok) done(3);
});

step("register-markers", 4, async () => {
  registered("markers", await send("POST", "/register", {method: "markers"}));
});
// Clicked corners are read at the picture's own size (a corner 4 px off reads about twice the
// slot errors): the preview is shown full size, to scroll, until the fourth corner.
function zoomPreview(on) {
  $("preview").parentElement.classList.toggle("zoomed", on);
  document.querySelectorAll(".corner-mark").forEach((m) => m.remove());
  refreshPreview();
}
// Each corner is marked where it was clicked, so that a slip shows before the next click.
function markCorner(img, x, y) {
  const mark = document.createElement("span");
  mark.className = "corner-mark";
  mark.style.left = `${img.offsetLeft + x}px`;
  mark.style.top = `${img.offsetTop + y}px`;
  img.parentElement.append(mark);
}
$("corners-mode").addEventListener("click", async () => {
  await refreshStatus();       // the picture's size, read once: a click must not wait on the network
  if (!status.frame_size) { result(4, _("take a snapshot or upload a photo first (step 1)"), false); return; }
  corners = []; $("corners-help").hidden = false; zoomPreview(true);
});
// Each click is taken at once, in the order made: quick clicks neither reorder nor drop corners.
$("preview").addEventListener("click", async (ev) => {
  if (corners === null) return;
  const img = ev.target, box = img.getBoundingClientRect();
  const scale = status.frame_size[0] / box.width;
  corners.push([(ev.clientX - box.left) * scale, (ev.clientY - box.top) * scale]);
  markCorner(img, ev.clientX - box.left, ev.clientY - box.top);
  result(4, _("corner {n} of 4", {n: corners.length}));
  if (corners.length === 4) {
    const points = corners; corners = null; $("corners-help").hidden = true;
    try { registered("corners", await send("POST", "/register", {method: "corners", points})); }
    catch (e) { result(4, e.message, false); }
    zoomPreview(false);
  }
});
function registered(method, r) {
  const how = method === "markers" ? _("markers") : _("corners");
  result(4, _("Board found ({method}).", {method: how}) + ` ${r.heights} ` + _("Below: the board seen from straight above."));
  done(4);
  $("rectified").src = `${api("/rectified.jpg")}?t=${Date.now()}`; $("rectified").hidden = false;
}

step("reference", 5, async () => {
  const r = await send("POST", "/reference");
  result(5, _("Reference image saved ({n} features to find the board by).", {n: r.reference_features})
    + ` ${r.empty_board_message}`, r.empty_board);
  done(5);
});

// -- slot layout editor: boxes in canonical units over the rectified board -------------------
let boxes = {};
step("show-layout", 6, showLayout);
async function showLayout() {
  const lay = await send("GET", "/layout");
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("viewBox", `0 0 ${lay.width} ${lay.height}`);
  const img = document.createElementNS(SVGNS, "image");
  img.setAttribute("href", `${api("/rectified.jpg")}?t=${Date.now()}`);
  img.setAttribute("width", lay.width); img.setAttribute("height", lay.height);
  svg.append(img);
  boxes = {};
  for (const s of lay.slots) {
    const r = document.createElementNS(SVGNS, "rect");
    for (const k of ["x", "y"]) r.setAttribute(k, s[k]);
    r.setAttribute("width", s.w); r.setAttribute("height", s.h);
    r.setAttribute("class", "slot"); r.dataset.slot = s.id;
    boxes[s.id] = {x: s.x, y: s.y, w: s.w, h: s.h};
    drag(svg, r, s.id);
    svg.append(r);
  }
  $("layout-editor").replaceChildren(svg);
  result(6, _("Drag any box that is off its space, then save."));
}
function drag(svg, rect, id) {
  rect.addEventListener("pointerdown", (ev) => {
    const pt = svg.createSVGPoint();
    const toSvg = (e) => { pt.x = e.clientX; pt.y = e.clientY; return pt.matrixTransform(svg.getScreenCTM().inverse()); };
    const start = toSvg(ev), b = boxes[id], x0 = b.x, y0 = b.y;
    rect.setPointerCapture(ev.pointerId);
    const move = (e) => {
      const p = toSvg(e);
      b.x = Math.round(x0 + p.x - start.x); b.y = Math.round(y0 + p.y - start.y);
      rect.setAttribute("x", b.x); rect.setAttribute("y", b.y); rect.classList.add("moved");
    };
    const up = () => { rect.removeEventListener("pointermove", move); rect.removeEventListener("pointerup", up); };
    rect.addEventListener("pointermove", move); rect.addEventListener("pointerup", up);
  });
}
step("save-layout", 6, async () => {
  if (!Object.keys(boxes).length) await showLayout();
  const r = await send("POST", "/layout", {slots: boxes});
  result(6, r.overrides ? _("Layout saved: {n} slots moved from the standard layout.", {n: r.overrides})
                         : _("Layout saved: the standard layout fits."));
  done(6);
});

step("recognition", 7, async () => {
  const r = await send("POST", "/recognition");
  result(7, r.message, r.available && r.ok);
  if (r.ok) done(7);
});

step("save", 8, async () => {
  const r = await send("POST", "/save");
  result(8, _("Profile \"{name}\" saved. Choose it when you start a game.", {name: r.name}));
  $("saved-profiles").textContent = r.profiles.join(", ");
  done(8);
});

// -- teach it my table: the pieces to set, each photo read slot by slot, corrected, then taught ---
let plan = null;                  // the server's plan for the companies ticked
const taken = {};                 // photo -> [{slot, select}] as read and corrected
const companies = () => [...document.querySelectorAll(".teach-company:checked")].map((c) => c.value).join(",");
const photoNumber = () => $("teach-photo").value;

async function showPlan() {
  plan = await send("GET", `/teach?companies=${companies()}`);
  const k = photoNumber();
  $("teach-picture").src = `${api(`/teach/${k}.jpg`)}?companies=${companies()}&t=${Date.now()}`;
  $("teach-picture").hidden = false;
  $("teach-list").replaceChildren(...plan.photos[k - 1].map((p) =>
    Object.assign(document.createElement("li"), {textContent: `${p.slot}: ${p.label}`})));
  result(9, _("Set these pieces on the board, the others off it, then take photo {k}.", {k}));
}
step("teach-plan", 9, showPlan);
$("teach-photo").addEventListener("change", () => { if (plan) showPlan().catch((e) => result(9, e.message, false)); });
document.querySelectorAll(".teach-company").forEach((c) => c.addEventListener("change", () => { plan = null; }));

function slotRow(k, row) {
  const select = document.createElement("select");
  for (const [value, label] of plan.choices[row.kind]) select.append(new Option(label, value, false, value === row.value));
  const tr = document.createElement("tr");
  if (row.read !== row.planned) tr.className = "differs";
  const read = row.read === null ? _("covered") : `${row.read_label} (${row.confidence})`;
  for (const text of [row.slot, read]) tr.append(Object.assign(document.createElement("td"), {textContent: text}));
  const cell = document.createElement("td"); cell.append(select); tr.append(cell);
  taken[k].push({slot: row.slot, select});
  return tr;
}
function showReading(k, rows) {
  taken[k] = [];
  const table = document.createElement("table");
  const head = document.createElement("tr");
  for (const h of [_("space"), _("read"), _("on the board")]) head.append(Object.assign(document.createElement("th"), {textContent: h}));
  table.append(head, ...rows.map((r) => slotRow(k, r)));
  // a piece set on a space neither read nor asked for: added to the list by hand
  const listed = new Set(rows.map((r) => r.slot));
  const more = document.createElement("select");
  more.append(new Option(_("another space..."), ""));
  for (const [slot, kind] of Object.entries(plan.slots)) if (!listed.has(slot)) more.append(new Option(slot, kind));
  more.addEventListener("change", () => {
    const slot = more.selectedOptions[0].text, kind = more.value;
    if (!kind) return;
    table.append(slotRow(k, {slot, kind, read: "", read_label: "-", confidence: "-", planned: "", value: plan.choices[kind][0][0]}));
    more.selectedOptions[0].remove();
  });
  $("teach-slots").replaceChildren(Object.assign(document.createElement("h3"), {textContent: _("Photo {k}", {k})}), table, more);
  const differs = rows.filter((r) => r.read !== r.planned).length;
  result(9, differs ? _("Photo {k} taken: {n} spaces read otherwise than asked (marked): set each to what stands there.", {k, n: differs})
                    : _("Photo {k} taken: every space read as asked.", {k}), !differs);
}
async function teachPhoto(body) {
  if (!plan) await showPlan();
  const k = photoNumber();
  const r = await send("POST", `/teach/${k}?companies=${companies()}`, body, body !== undefined);
  showReading(k, r.slots);
}
step("teach-snapshot", 9, () => teachPhoto());
$("teach-upload").addEventListener("change", async (ev) => {
  const form = new FormData(); form.append("photo", ev.target.files[0]);
  try { await teachPhoto(form); } catch (e) { result(9, e.message, false); }
});
step("teach", 9, async () => {
  const photos = Object.entries(taken).map(([k, rows]) =>
    ({photo: Number(k), slots: Object.fromEntries(rows.map((r) => [r.slot, r.select.value]))}));
  const r = await send("POST", "/teach", {companies: companies().split(",").filter(Boolean), photos});
  result(9, _("Taught from {photos} photos in {seconds} s: the game page reads with it from now on.",
              {photos: r.photos, seconds: r.seconds}));
  done(9);
});

$("profile-name").addEventListener("change", refreshPreview);
refreshPreview();
setInterval(() => { if (!status.photo) refreshPreview(); }, 2000);
