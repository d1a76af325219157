// The page keeps the game (rows and settings) and asks the server for everything else: the
// API is stateless, so undo, edits and setting changes are all "send the rows again".
"use strict";

const COLOURS = ["absent", "present", "correct"]; // tile data-state per feedback digit 0/1/2
const $ = (sel) => document.querySelector(sel);

const state = {
  config: null,
  words: null,
  strategy: "search",
  hard: false,
  maxGuesses: 6,
  length: 5,
  rows: [], // [{guess, feedback}] accepted by the server
  pending: [], // colour digits of the row being entered
  busy: false,
  finished: false,
};

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body),
  };
  let res;
  try {
    res = await fetch(path, opts);
  } catch (err) {
    throw new Error("cannot reach the wordlebot server (is it still running?)");
  }
  let doc = null;
  try { doc = await res.json(); } catch (err) { /* not JSON: reported below */ }
  if (!res.ok) throw new Error((doc && doc.detail) || `the server answered ${res.status}`);
  return doc;
}

function setBusy(on, text) {
  state.busy = on;
  document.body.dataset.state = on ? "busy" : "ready";
  $("#status").textContent = on ? text || "thinking…" : "";
  for (const el of [$("#enter"), $("#undo"), $("#guess")]) el.disabled = on;
}

// Errors and news share one line; data-kind tells them apart (red for errors).
function say(text, kind) {
  const m = $("#message");
  m.textContent = text || "";
  m.dataset.kind = kind || "error";
}

function gameBody(rows) {
  return {history: rows, words: state.words, hard: state.hard, max_guesses: state.maxGuesses};
}

// --- board ---------------------------------------------------------------------------------

function buildBoard() {
  const board = $("#board");
  board.replaceChildren();
  for (let r = 0; r < state.maxGuesses; r++) {
    const row = document.createElement("div");
    row.className = "row";
    row.setAttribute("role", "row");
    row.setAttribute("aria-label", `Row ${r + 1}`);
    for (let c = 0; c < state.length; c++) {
      const tile = document.createElement("button");
      tile.type = "button";
      tile.className = "tile";
      tile.dataset.row = r;
      tile.dataset.col = c;
      tile.dataset.state = "empty";
      tile.addEventListener("click", () => cycleTile(r, c));
      row.appendChild(tile);
    }
    board.appendChild(row);
  }
}

function renderBoard() {
  const typed = $("#guess").value.trim().toLowerCase();
  const tiles = document.querySelectorAll("#board .tile");
  tiles.forEach((tile) => {
    const r = Number(tile.dataset.row), c = Number(tile.dataset.col);
    let letter = "", st = "empty";
    if (r < state.rows.length) {
      letter = state.rows[r].guess[c];
      st = COLOURS[Number(state.rows[r].feedback[c])];
    } else if (r === state.rows.length && !state.finished && c < typed.length) {
      letter = typed[c];
      st = COLOURS[state.pending[c] || 0];
    }
    tile.textContent = letter ? letter.toUpperCase() : "";
    tile.dataset.state = st;
    tile.disabled = !letter;
    tile.setAttribute("aria-label", letter ? `${letter.toUpperCase()}, ${st}, row ${r + 1}, letter ${c + 1}` : "empty");
  });
}

async function cycleTile(r, c) {
  if (state.busy) return;
  if (r === state.rows.length) { // the row being entered: just the colour
    state.pending[c] = ((state.pending[c] || 0) + 1) % 3;
    renderBoard();
    return;
  }
  if (r < state.rows.length) { // an earlier row: correct it, if the server agrees
    const rows = state.rows.map((x) => ({...x}));
    const digits = rows[r].feedback.split("");
    digits[c] = String((Number(digits[c]) + 1) % 3);
    rows[r].feedback = digits.join("");
    await update(rows);
  }
}

// --- talking to the server -----------------------------------------------------------------

// Ask for suggestions for `rows`; on success they become the game, else the game stays as it was.
async function update(rows, settings) {
  setBusy(true, rows.length === 0 && !state.everSuggested
    ? "thinking… (the first suggestion for a word set can take a while)" : "thinking…");
  const saved = {words: state.words, strategy: state.strategy, hard: state.hard};
  Object.assign(state, settings || {});
  try {
    const doc = await api("/api/suggest", {...gameBody(rows), strategy: state.strategy, top: 10, candidates: 100});
    state.rows = doc.rows;
    state.length = doc.length;
    state.finished = doc.solved || doc.over;
    state.everSuggested = true;
    say("");
    render(doc);
    if (state.finished) await analyse();
    return true;
  } catch (err) {
    Object.assign(state, saved);
    syncSettings();
    say(err.message);
    renderBoard();
    return false;
  } finally {
    setBusy(false);
  }
}

function render(doc) {
  if (document.querySelectorAll("#board .tile").length !== state.maxGuesses * state.length) buildBoard();
  renderBoard();
  const tbody = $("#suggestions tbody");
  tbody.replaceChildren();
  doc.suggestions.forEach((s, i) => {
    const tr = document.createElement("tr");
    const use = document.createElement("button");
    use.type = "button";
    use.className = "use";
    use.textContent = s.word.toUpperCase();
    use.title = "use this guess";
    use.addEventListener("click", () => { $("#guess").value = s.word; onTyped(); $("#guess").focus(); });
    // "≈": estimated past a one-guess look-ahead (the full search did not fit the budget)
    const avg = (s.basis === "estimate" ? "≈" : "") + fmt(s.expected, 3);
    const cells = [String(i + 1), use, avg, fmt(s.bits, 3), fmt(s.expected_left, 2),
      String(s.largest), String(s.parts), pct(s.p_answer), s.hard_legal ? "yes" : "no"];
    for (const v of cells) {
      const td = document.createElement("td");
      if (v instanceof Node) td.appendChild(v); else td.textContent = v;
      tr.appendChild(td);
    }
    if (s.can_be_answer) tr.classList.add("answer");
    if (s.basis) tr.title = {optimal: "average guesses: proven optimal", searched: "average guesses: searched to the end",
      estimate: `average guesses: estimated after searching ${s.lookahead} guess ahead`}[s.basis] || "";
    tbody.appendChild(tr);
  });
  $("#cand-count").textContent = `(${doc.candidates.toLocaleString("en")} left)`;
  const list = $("#candidates");
  list.replaceChildren();
  for (const c of doc.candidate_words) {
    const li = document.createElement("li");
    li.textContent = c.word.toUpperCase();
    if (c.p !== null) li.title = `P = ${pct(c.p) || "<0.01%"}`;
    list.appendChild(li);
  }
  if (doc.candidates > doc.candidate_words.length) {
    const li = document.createElement("li");
    li.className = "more";
    li.textContent = `… and ${(doc.candidates - doc.candidate_words.length).toLocaleString("en")} more`;
    list.appendChild(li);
  }
  const notes = (doc.notes || []).join(" ");
  $("#set-info").textContent = doc.description + (doc.note ? ` — ${doc.note}` : "") + (notes ? ` — ${notes}` : "");
  $("#analysis").hidden = !state.finished;
  if (!state.finished) $("#share-text").value = "";
  if (doc.solved) say(`Solved in ${doc.rows.length}!`, "info");
  else if (doc.over) say("Out of rows. Undo to change a row, or start a new game.", "info");
}

async function analyse() {
  setBusy(true, "analysing the game…");
  const official = (state.config.official_sets || []).includes(state.words);
  try {
    const doc = await api("/api/analyze", {...gameBody(state.rows), puzzle: official ? state.config.today_puzzle : null});
    $("#summary").textContent = doc.summary;
    const tbody = $("#analysis-rows tbody");
    tbody.replaceChildren();
    for (const r of doc.rows) {
      const tr = document.createElement("tr");
      for (const v of [r.index, r.guess.toUpperCase(), `${r.candidates_before} → ${r.candidates_after}`,
        r.best.toUpperCase(), fmt(r.best_expected, 2), fmt(r.player_expected, 2), r.skill, r.luck]) {
        const td = document.createElement("td");
        td.textContent = String(v);
        tr.appendChild(td);
      }
      tbody.appendChild(tr);
    }
    $("#share-text").value = doc.share;
    $("#analysis").hidden = false;
  } catch (err) {
    say(err.message);
  } finally {
    setBusy(false);
  }
}

function fmt(x, digits) { return x === null || x === undefined ? "–" : Number(x).toFixed(digits); }
function pct(p) {
  if (!p) return "";
  return p >= 1e-4 ? `${(100 * p).toFixed(2)}%` : "<0.01%";
}

// --- controls ------------------------------------------------------------------------------

function onTyped() {
  const input = $("#guess");
  const clean = input.value.toLowerCase().replace(/[^a-z]/g, "").slice(0, state.length);
  if (clean !== input.value) input.value = clean;
  renderBoard();
}

async function onEnter(ev) {
  ev.preventDefault();
  if (state.busy) return;
  const word = $("#guess").value.trim().toLowerCase();
  if (state.finished) { say("The game is over: undo a row or start a new game."); return; }
  if (word.length !== state.length) { say(`Type a ${state.length}-letter word first.`); return; }
  const feedback = Array.from({length: state.length}, (_, i) => String(state.pending[i] || 0)).join("");
  const ok = await update([...state.rows, {guess: word, feedback}]);
  if (ok) {
    $("#guess").value = "";
    state.pending = [];
    renderBoard();
  }
  $("#guess").focus();
}

async function onUndo() {
  if (state.busy || state.rows.length === 0) return;
  const last = state.rows[state.rows.length - 1];
  if (await update(state.rows.slice(0, -1))) {
    $("#guess").value = last.guess; // so a mistyped row can be fixed and entered again
    state.pending = last.feedback.split("").map(Number);
    onTyped();
  }
}

async function onNew() {
  if (state.busy) return;
  $("#guess").value = "";
  state.pending = [];
  await update([]);
}

function syncSettings() {
  $("#words").value = state.words;
  $("#strategy").value = state.strategy;
  $("#hard").checked = state.hard;
}

function fillSelect(sel, values, current) {
  sel.replaceChildren();
  for (const v of values) {
    const o = document.createElement("option");
    o.value = v;
    o.textContent = v;
    sel.appendChild(o);
  }
  sel.value = current;
}

async function start() {
  try {
    state.config = await api("/api/config");
  } catch (err) {
    say(err.message);
    document.body.dataset.state = "error";
    return;
  }
  state.words = state.config.default_words;
  state.maxGuesses = state.config.max_guesses;
  fillSelect($("#words"), state.config.word_sets, state.words);
  fillSelect($("#strategy"), state.config.strategies, state.strategy);
  buildBoard();
  $("#entry").addEventListener("submit", onEnter);
  $("#guess").addEventListener("input", onTyped);
  $("#undo").addEventListener("click", onUndo);
  $("#new").addEventListener("click", onNew);
  $("#words").addEventListener("change", (e) => update([], {words: e.target.value}));
  $("#strategy").addEventListener("change", (e) => update(state.rows, {strategy: e.target.value}));
  $("#hard").addEventListener("change", (e) => update(state.rows, {hard: e.target.checked}));
  $("#share").addEventListener("click", async () => {
    const text = $("#share-text").value;
    try {
      await navigator.clipboard.writeText(text);
      say("Copied to the clipboard.", "info");
    } catch (err) {
      $("#share-text").select();
      say("Select the text below and copy it.", "info");
    }
  });
  await update([]);
  $("#guess").focus();
}

document.addEventListener("DOMContentLoaded", start);
