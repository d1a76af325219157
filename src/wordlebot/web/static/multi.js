// The multi-board page (Dordle, Quordle, Octordle): the page keeps the game (rows and settings)
// and asks /api/multi/suggest for everything else, sending the whole game each time, so undo
// and setting changes are "send it again".  Only the latest request counts (a number each; an
// older answer is dropped), and a refused row leaves the game as it was, the entry kept.
"use strict";

const COLOURS = ["absent", "present", "correct"]; // tile data-state per feedback digit 0/1/2
const NAMES = ["gray", "yellow", "green"];
const KEY_ROWS = [["q", "w", "e", "r", "t", "y", "u", "i", "o", "p"],
  ["|", "a", "s", "d", "f", "g", "h", "j", "k", "l", "|"],
  ["Enter", "z", "x", "c", "v", "b", "n", "m", "Backspace"]];
const VARIANTS = {2: "Dordle", 4: "Quordle", 8: "Octordle"};
const BUSY_TRIES = 3;
const SHOWN_WORDS = 8; // candidates listed under a board

const state = {
  config: null,
  length: 5,
  // what was asked last; `date`: the day asked for as typed (null: today)
  game: {boards: 4, words: null, hard: false, objective: "score", rows: [], date: null},
  applied: null, // the game of the last answer
  doc: null,
  typed: "", // the word being entered
  pending: [], // its colour digits on each board (an array of digits per board)
  cursor: 0, // the next tile a typed digit colours, counted over the open boards' tiles
  seq: 0,
  controller: null,
};

// --- talking to the server ---------------------------------------------------------------

// One request, waiting out 503s: a word set being prepared (its step shown) or a busy server
// (a few tries); anything else is the caller's to show.
async function askMulti(body, seq, signal) {
  let busy = 0;
  for (;;) {
    try {
      return await api("/api/multi/suggest", body, signal);
    } catch (err) {
      if (err.name === "AbortError" || seq !== state.seq || err.status !== 503) throw err;
      const p = err.doc.preparing;
      if (p && p.state === "failed") throw new ApiError(`The word set ${p.words} could not be prepared: ${p.error}.`, 500);
      if (!p && ++busy > BUSY_TRIES) {
        throw new ApiError("The server is busy with other players' games. Wait a moment, then try again.", 503);
      }
      setStatus(p ? `Preparing ${p.words}: ${p.step || "waiting for its turn"}…`
        : `The server is busy; trying again (${busy} of ${BUSY_TRIES})…`);
      await sleep(Math.min(Math.max(err.retryAfter ?? 2, 0.5), 30), signal);
    }
  }
}

function copyGame(g) {
  return {...g, rows: g.rows.map((r) => ({guess: r.guess, feedback: [...r.feedback]}))};
}

// Ask for `next` and show it; resolves to true when its answer was applied.  On an error the
// page goes back to the last answer and says what was wrong.
async function request(next) {
  const seq = ++state.seq;
  if (state.controller) state.controller.abort();
  const controller = new AbortController();
  state.controller = controller;
  state.game = copyGame(next);
  syncSettings();
  say("");
  setBusy(true, state.applied ? "thinking…" : "loading the word set…");
  let doc;
  try {
    doc = await askMulti({boards: next.boards, words: next.words, hard: next.hard, objective: next.objective,
      history: next.rows, top: 5, candidates: SHOWN_WORDS, date: next.date || null}, seq, controller.signal);
  } catch (err) {
    if (err.name === "AbortError" || seq !== state.seq) return false;
    if (state.applied) state.game = copyGame(state.applied);
    syncSettings();
    say(err.message, "error");
    if (err.status === 400 && (next.date || null) !== ((state.applied && state.applied.date) || null)) {
      $("#day-error").textContent = err.message;
    }
    setBusy(false);
    return false;
  }
  if (seq !== state.seq) return false;
  if (doc.words !== next.words || doc.boards !== next.boards || doc.hard !== next.hard ||
      doc.objective !== next.objective) {
    say("The server answered for other settings; try again.", "error");
    setBusy(false);
    return false;
  }
  state.applied = {boards: doc.boards, words: doc.words, hard: doc.hard, objective: doc.objective, rows: doc.rows,
    date: next.date || null};
  $("#day-error").textContent = "";
  rememberDay(state.applied.date);
  state.game = copyGame(state.applied);
  state.doc = doc;
  state.length = doc.length;
  resetPending();
  render();
  setBusy(false);
  if (doc.over) say(endText(doc), doc.solved ? "info" : "error");
  return true;
}

function endText(doc) {
  const lost = doc.board_states.filter((b) => b.solved_at === null).map((b) => b.board);
  if (!lost.length) {
    return `All ${doc.boards} boards solved in ${doc.guesses_to_finish}: score ${doc.score} ` +
      `(boards solved at ${doc.board_states.map((b) => b.solved_at).join(", ")}).`;
  }
  return `Out of guesses: board${lost.length > 1 ? "s" : ""} ${lost.join(", ")} not solved; score ${doc.score}.`;
}

// --- the entry ---------------------------------------------------------------------------

function openBoards() {
  return state.doc ? state.doc.board_states.filter((b) => b.solved_at === null).map((b) => b.board - 1) : [];
}

function resetPending() {
  state.pending = Array.from({length: state.game.boards}, () => new Array(state.length).fill(0));
  state.cursor = 0;
}

function typeLetter(ch) {
  if (!state.doc || state.doc.over || state.typed.length >= state.length) return;
  state.typed += ch;
  renderEntry();
}

function backspace() {
  if (state.cursor > 0) { // colours typed: take back the last one
    state.cursor -= 1;
    const open = openBoards();
    state.pending[open[Math.floor(state.cursor / state.length)]][state.cursor % state.length] = 0;
  } else if (state.typed) {
    state.typed = state.typed.slice(0, -1);
  }
  renderEntry();
}

function typeColour(d) {
  const open = openBoards();
  if (state.typed.length !== state.length || state.cursor >= open.length * state.length) return;
  state.pending[open[Math.floor(state.cursor / state.length)]][state.cursor % state.length] = d;
  state.cursor += 1;
  renderEntry();
}

function cycleTile(b, i) {
  if (state.typed.length !== state.length) {
    say(`Type the ${state.length}-letter word you played first.`, "error");
    return;
  }
  state.pending[b][i] = (state.pending[b][i] + 1) % 3;
  renderEntry();
}

function useWord(word) {
  if (!state.doc || state.doc.over) return;
  state.typed = word;
  resetPending();
  say("");
  renderEntry();
}

async function submit() {
  if (!state.doc || state.doc.over) return;
  if (state.typed.length !== state.length) {
    say(`Type the ${state.length}-letter word you played first (or tap Play).`, "error");
    return;
  }
  const open = new Set(openBoards());
  const row = {guess: state.typed, feedback: state.pending.map((p, b) => (open.has(b) ? p.join("") : null))};
  const typed = state.typed;
  const pending = state.pending.map((p) => [...p]);
  const cursor = state.cursor;
  const ok = await request({...state.game, rows: [...state.game.rows, row]});
  if (ok) {
    state.typed = "";
    resetPending();
  } else { // refused: the entry stays as it was, to correct
    state.typed = typed;
    state.pending = pending;
    state.cursor = cursor;
  }
  renderEntry();
}

// Undo clears the word being entered; with none, the last row comes back into the entry with its
// colours, to correct and send again.
async function undo() {
  if (state.typed) { state.typed = ""; resetPending(); renderEntry(); return; }
  if (!state.game.rows.length) return;
  const last = state.game.rows[state.game.rows.length - 1];
  if (await request({...state.game, rows: state.game.rows.slice(0, -1)})) {
    state.typed = last.guess;
    last.feedback.forEach((f, b) => { if (f !== null) state.pending[b] = [...f].map(Number); });
    renderEntry();
    renderPick();
  }
}

function newGame(changes) {
  state.typed = "";
  request({...state.game, ...changes, rows: []});
}

// --- rendering ---------------------------------------------------------------------------

function setBusy(on, text) {
  document.body.dataset.state = on ? "busy" : "ready";
  setStatus(on ? text : "");
  document.querySelectorAll("button.use").forEach((b) => { b.disabled = on; });
  renderPick();
}

function setStatus(text) { $("#status").textContent = text || ""; }

function say(text, kind) {
  const m = $("#message");
  m.textContent = text || "";
  m.dataset.kind = kind || "error";
}

function syncSettings() {
  $("#boards").value = String(state.game.boards);
  $("#words").value = state.game.words;
  $("#hard").checked = state.game.hard;
  $("#objective").value = state.game.objective;
  if (document.activeElement !== $("#day")) $("#day").value = state.game.date || "";
  const name = VARIANTS[state.game.boards] || `${state.game.boards} boards`;
  $("#variant").textContent = name;
  document.title = `wordlebot · ${name}`;
}

function tile(letter, digit, cls) {
  const t = document.createElement("span");
  t.className = `tile ${cls || ""}`;
  t.textContent = letter || "";
  t.dataset.state = digit === null || digit === undefined ? "empty" : COLOURS[digit];
  return t;
}

function render() {
  const doc = state.doc;
  $("#advice").hidden = !doc.suggestions.length;
  const grid = $("#boards-grid");
  grid.dataset.boards = String(doc.boards);
  grid.replaceChildren(...doc.board_states.map((b) => boardPanel(doc, b)));
  renderSuggestions(doc);
  renderPick();
  renderEntry();
  $("#set-info").textContent = [doc.description, ...(doc.notes || [])].filter(Boolean).join(" — ");
  renderDay(doc, state.config && state.config.today);
  $("#cost-text").textContent = doc.cost_text || "";
  $("#typing-help").hidden = doc.over;
  $("#result").hidden = !doc.share;
  $("#share-text").value = doc.share || "";
}

function boardPanel(doc, b) {
  const k = b.board - 1;
  const panel = document.createElement("section");
  panel.className = "mboard";
  panel.dataset.board = String(b.board);
  panel.dataset.solved = b.solved_at === null ? "no" : "yes";
  const title = document.createElement("h2");
  title.textContent = b.solved_at !== null ? `${b.board} · solved in ${b.solved_at}`
    : doc.over ? `${b.board} · not solved` : `${b.board} · ${b.candidates.toLocaleString("en")} left`;
  panel.appendChild(title);
  for (const r of doc.rows) {
    if (r.feedback[k] === null) break;
    const row = document.createElement("div");
    row.className = "row";
    row.setAttribute("aria-label", `${r.guess.toUpperCase()}: ${[...r.feedback[k]].map((d) => NAMES[d]).join(" ")}`);
    [...r.guess].forEach((ch, i) => row.appendChild(tile(ch, Number(r.feedback[k][i]))));
    panel.appendChild(row);
  }
  if (b.solved_at === null && !doc.over) {
    const row = document.createElement("div");
    row.className = "row current";
    for (let i = 0; i < doc.length; i++) {
      const t = document.createElement("button");
      t.type = "button";
      t.className = "tile";
      t.dataset.board = String(k);
      t.dataset.pos = String(i);
      t.addEventListener("click", () => cycleTile(k, i));
      row.appendChild(t);
    }
    panel.appendChild(row);
    const words = document.createElement("p");
    words.className = "mwords";
    const shown = b.candidate_words.map((c) => c.word.toUpperCase());
    words.textContent = shown.join(" ") + (b.candidates > shown.length ? " …" : "");
    panel.appendChild(words);
  }
  return panel;
}

function renderEntry() {
  const doc = state.doc;
  const entry = $("#entry");
  entry.replaceChildren();
  for (let i = 0; i < state.length; i++) entry.appendChild(tile(state.typed[i] || "", null, state.typed[i] ? "typed" : ""));
  const open = openBoards();
  for (const t of document.querySelectorAll(".mboard .row.current .tile")) {
    const b = Number(t.dataset.board);
    const i = Number(t.dataset.pos);
    const letter = state.typed[i] || "";
    t.textContent = letter;
    const typedAll = state.typed.length === state.length;
    t.dataset.state = typedAll ? COLOURS[state.pending[b][i]] : "empty";
    t.disabled = !typedAll;
    const at = open.indexOf(b) * state.length + i;
    t.classList.toggle("colour-next", typedAll && at === state.cursor && state.cursor > 0);
    t.setAttribute("aria-label", `board ${b + 1}, letter ${i + 1}${letter ? ` ${letter.toUpperCase()}` : ""}: ` +
      (typedAll ? NAMES[state.pending[b][i]] : "type the word first"));
  }
  $("#entry").hidden = !doc || doc.over;
  if (doc && !doc.over) {
    const top = doc.suggestions[0];
    $("#pick-note").textContent = `guess ${doc.rows.length + 1} of ${doc.max_guesses} · ` +
      `${doc.guesses_left} left for ${open.length} open board${open.length === 1 ? "" : "s"}` +
      (top ? ` · ${top.word.toUpperCase()} ${top.why}` : "") + (doc.game_note ? ` · ${doc.game_note}` : "");
  } else {
    $("#pick-note").textContent = "";
  }
}

function renderPick() {
  const top = state.doc && !state.doc.over && state.doc.suggestions[0];
  $("#pick").disabled = !top || document.body.dataset.state === "busy";
  $("#pick-word").textContent = top ? top.word : "·····";
  $("#pick-avg").textContent = top ? `cost ${Number(top.cost).toFixed(2)}` : "";
  $("#pick").title = top && state.doc.cost_text ? state.doc.cost_text : "";
  $("#undo").disabled = !state.game.rows.length && !state.typed;
}

function renderSuggestions(doc) {
  const tbody = $("#suggestions tbody");
  tbody.replaceChildren();
  doc.suggestions.forEach((s, i) => {
    const tr = document.createElement("tr");
    const cells = [String(i + 1), null, Number(s.cost).toFixed(2), s.why];
    cells.forEach((text, c) => {
      const td = document.createElement("td");
      if (c === 1) {
        const use = document.createElement("button");
        use.type = "button";
        use.className = "use";
        use.textContent = s.word;
        use.title = `enter ${s.word.toUpperCase()}`;
        use.addEventListener("click", () => useWord(s.word));
        td.appendChild(use);
      } else {
        td.textContent = text;
      }
      if (c === 3) td.className = "why-col";
      tr.appendChild(td);
    });
    tbody.appendChild(tr);
  });
}

function buildKeyboard() {
  const kb = $("#keyboard");
  for (const keys of KEY_ROWS) {
    const row = document.createElement("div");
    row.className = "keys";
    for (const k of keys) {
      if (k === "|") {
        row.appendChild(Object.assign(document.createElement("span"), {className: "spacer"}));
        continue;
      }
      const b = document.createElement("button");
      b.type = "button";
      b.className = k.length > 1 ? "key wide" : "key";
      b.dataset.key = k;
      b.textContent = k === "Backspace" ? "⌫" : k;
      b.setAttribute("aria-label", k === "Backspace" ? "delete" : k.toLowerCase());
      b.addEventListener("click", () => pressKey(k));
      row.appendChild(b);
    }
    kb.appendChild(row);
  }
}

function pressKey(k) {
  if (k === "Enter") submit();
  else if (k === "Backspace") backspace();
  else typeLetter(k);
}

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  // (a select or text field keeps its keys; a ticked checkbox keeps the focus but wants none of
  // them: typing after ticking Hard mode once went nowhere)
  if (e.target.closest && e.target.closest("select, textarea, input:not([type=checkbox])")) return;
  if (/^[a-z]$/i.test(e.key)) { e.preventDefault(); typeLetter(e.key.toLowerCase()); }
  else if (/^[012]$/.test(e.key)) { e.preventDefault(); typeColour(Number(e.key)); }
  else if (e.key === "Backspace") { e.preventDefault(); backspace(); }
  else if (e.key === "Enter" && !e.target.closest("button")) { e.preventDefault(); submit(); }
}

function toggleSettings(open) {
  const header = $("#top");
  if (open === undefined) open = !header.classList.contains("open");
  header.classList.toggle("open", open);
  $("#settings-toggle").setAttribute("aria-expanded", String(open));
}

// --- start -----------------------------------------------------------------------------------

async function start() {
  const saved = storedTheme();
  setTheme(THEMES.includes(saved) ? saved : null, false);
  try {
    state.config = await api("/api/config");
  } catch (err) {
    say(err.message, "error");
    return;
  }
  const asked = Number(new URLSearchParams(location.search).get("boards"));
  if (VARIANTS[asked]) state.game.boards = asked;
  if (new URLSearchParams(location.search).get("objective") === "guesses") state.game.objective = "guesses";
  const params = new URLSearchParams(location.search); // ?date=2026-05-19 or ?puzzle=1795
  state.game.date = params.get("date") || params.get("puzzle") || null;
  state.game.words = state.config.default_words;
  fillSelect($("#words"), state.config.word_sets, state.game.words);
  buildKeyboard();
  resetPending();
  document.addEventListener("keydown", onKey);
  document.addEventListener("mousedown", (e) => { if (e.target.closest("button")) e.preventDefault(); });
  $("#pick").addEventListener("click", () => { const top = state.doc && state.doc.suggestions[0]; if (top) useWord(top.word); });
  $("#undo").addEventListener("click", undo);
  $("#new").addEventListener("click", () => { toggleSettings(false); newGame({}); });
  $("#settings-toggle").addEventListener("click", () => toggleSettings());
  document.addEventListener("click", (e) => { if (!e.target.closest("#top")) toggleSettings(false); });
  $("#settings").addEventListener("submit", (e) => e.preventDefault());
  $("#boards").addEventListener("change", (e) => { toggleSettings(false); newGame({boards: Number(e.target.value)}); });
  $("#words").addEventListener("change", (e) => { toggleSettings(false); newGame({words: e.target.value}); });
  $("#hard").addEventListener("change", (e) => request({...state.game, hard: e.target.checked}));
  $("#objective").addEventListener("change", (e) => request({...state.game, objective: e.target.value}));
  $("#theme").addEventListener("change", (e) => setTheme(e.target.value, true));
  const setDay = (text) => {
    const date = text.trim() || null;
    if (date !== (state.game.date || null)) request({...state.game, date});
  };
  $("#day-chip").addEventListener("click", () => { toggleSettings(true); $("#day").focus(); });
  $("#day").addEventListener("change", (e) => setDay(e.target.value));
  $("#day").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); setDay(e.target.value); } });
  $("#day-today").addEventListener("click", () => { $("#day").value = ""; setDay(""); });
  $("#share").addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText($("#share-text").value);
      say("Copied to the clipboard.", "info");
    } catch (err) {
      $("#share-text").select();
      say("Select the text and copy it.", "info");
    }
  });
  if (!(await request(state.game)) && !state.applied && state.game.date) {
    // a day from the address that cannot be played: said, and today's advice instead
    const why = $("#message").textContent;
    state.game.date = null;
    rememberDay(null);
    if (await request(state.game)) say(`${why} The page shows today's advice instead.`, "error");
  }
}

document.addEventListener("DOMContentLoaded", start);
