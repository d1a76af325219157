// The page keeps the game (rows and settings) and asks the server for everything else: the
// API is stateless, so undo, edits and setting changes are all "send the whole game again".
//
// Only the latest request counts: each one takes a number, and an answer whose number is no
// longer the latest is dropped (the request is also aborted), so a slow answer for an earlier
// word set can never replace the board of the set now chosen.  The board and the settings show
// what was asked last (`state.shown`); on an error both go back to the last answer (`state.applied`).
"use strict";
// ApiError, api, sleep, $, fillSelect and the themes come from common.js (loaded first).

const COLOURS = ["absent", "present", "correct"]; // tile data-state per feedback digit 0/1/2
const NAMES = ["gray", "yellow", "green"]; // the same, as players say them
const RANK = {absent: 1, present: 2, correct: 3}; // a key shows the best state its letter has had
const KEY_ROWS = [["q", "w", "e", "r", "t", "y", "u", "i", "o", "p"],
  ["|", "a", "s", "d", "f", "g", "h", "j", "k", "l", "|"],
  ["Enter", "z", "x", "c", "v", "b", "n", "m", "Backspace"]];
const BUSY_TRIES = 3; // retries of a "server busy" 503 before the player is asked to try again
const PREPARING_LIMIT = 600; // seconds the page waits for a word set being prepared
const LIST_SHOWN = 20; // candidates shown before the fold
const HINTS_KEY = "wordlebot-hide-hints"; // "1": the hints wait to be asked for, at each row

const state = {
  config: null,
  maxGuesses: 6,
  length: 5,
  // what the page shows (asked last); `date`: the day asked for as typed (a date or a puzzle
  // number; null: today), `answersOnly`: suggest only words that can still be the answer,
  // `goal`: what the search plays for (streak: the fewest losses first; average)
  shown: {words: null, strategy: "search", goal: "streak", hard: false, rows: [], date: null, answersOnly: false},
  applied: null, // the same for the last answer applied
  doc: null, // that answer
  finished: false,
  typed: "", // letters of the row being entered
  pending: [], // their colour digits
  colourAt: 0, // the tile the next typed digit colours
  colourTyped: false, // digits were typed for this row (shows the colour cursor)
  seq: 0, // number of the latest request
  controller: null, // aborts the latest request (and its retry waits)
  ticker: null, // updates the "preparing (12 s)" text each second
  hideHints: false, // the hints wait to be asked for (a setting, remembered)
  hintsFor: null, // the rows (as text) whose hints were asked for
};

// --- talking to the server ---------------------------------------------------------------

// A request that waits out 503s: "preparing" (the word set is being built: progress shown,
// retried for as long as the server makes progress) and "busy" (a full queue: a few retries).
async function ask(path, body, seq, signal) {
  let busy = 0;
  const since = performance.now();
  for (;;) {
    try {
      const doc = await api(path, body, signal);
      stopTicker();
      return doc;
    } catch (err) {
      if (err.name === "AbortError" || seq !== state.seq) throw err;
      if (err.status !== 503) throw err;
      const wait = Math.min(Math.max(err.retryAfter ?? 2, 0.5), 30);
      const p = err.doc.preparing;
      if (p && p.state === "failed") {
        throw new ApiError(`The word set ${p.words} could not be prepared: ${p.error || "unknown error"}.`, 500);
      }
      if (p && performance.now() - since > PREPARING_LIMIT * 1000) {
        throw new ApiError(`The word set ${p.words} is taking long to prepare; try again later or choose another.`, 503);
      }
      if (p) {
        showPreparing(p);
        await waitPreparing(wait, p, signal);
      } else if (busy < BUSY_TRIES) {
        busy += 1;
        stopTicker();
        setStatus(`The server is busy; trying again in ${Math.ceil(wait)} s (${busy} of ${BUSY_TRIES})…`);
        await sleep(wait, signal);
      } else {
        throw new ApiError("The server is busy with other players' games. Wait a moment, then try again.", 503,
          err.doc, err.retryAfter);
      }
    }
  }
}

function showPreparing(p) {
  const since = performance.now() - 1000 * (p.seconds || 0);
  const text = () => {
    const secs = Math.round((performance.now() - since) / 1000);
    // the day only when it is not today's (a past game being analysed)
    const day = p.day && state.config && p.day !== state.config.today ? ` for ${p.day}` : "";
    return `Preparing ${p.words}${day}: ${p.step || "waiting for its turn"} (${secs} s)…`;
  };
  stopTicker();
  setStatus(text());
  state.ticker = setInterval(() => setStatus(text()), 1000);
}

// Wait `seconds`, asking /api/health every 2 s meanwhile for the step (a long Retry-After
// should not freeze the progress text) and for a failure, which ends the wait with its error.
async function waitPreparing(seconds, p, signal) {
  const end = performance.now() + seconds * 1000;
  while (performance.now() < end) {
    await sleep(Math.min(2, (end - performance.now()) / 1000), signal);
    if (performance.now() >= end) break;
    let health = null;
    try { health = await api("/api/health", undefined, signal); } catch (err) {
      if (err.name === "AbortError") throw err;
    }
    const set = health && health.sets && health.sets[p.words];
    if (!set) continue;
    if (set.state === "failed") {
      stopTicker();
      throw new ApiError(`The word set ${p.words} could not be prepared: ${set.error || "unknown error"}.`, 503);
    }
    if (set.state === "ready") break;
    if (set.step && set.step !== p.step) {
      p = {...p, step: set.step, seconds: set.seconds ?? p.seconds};
      showPreparing(p);
    }
  }
}

function stopTicker() {
  if (state.ticker) clearInterval(state.ticker);
  state.ticker = null;
}

function gameBody(g) {
  return {history: g.rows, words: g.words, hard: g.hard, max_guesses: state.maxGuesses, date: g.date || null};
}

function copyShown(g) {
  return {...g, rows: g.rows.map((r) => ({...r}))};
}

// The settings an answer echoes must be the ones asked for.
function sameSettings(doc, next) {
  return doc.words === next.words && doc.strategy === next.strategy && doc.hard === next.hard &&
    doc.goal === next.goal && doc.guess_space === (next.answersOnly ? "candidates" : "all");
}

// Show `next` (settings and rows) at once and ask for its suggestions.  `onError` runs when
// the server refuses it, after the page went back to the last answer.  Resolves to true when
// this answer was applied, false when it was refused or replaced by a later request.
async function request(next, onError) {
  const seq = ++state.seq;
  const entry = {typed: state.typed, pending: state.pending.join("")}; // as the caller left it
  const retry = () => {
    setEntry(entry.typed, entry.pending);
    request(next, onError);
  };
  if (state.controller) state.controller.abort();
  const controller = new AbortController();
  state.controller = controller;
  state.shown = copyShown(next);
  state.finished = false;
  syncSettings();
  renderBoard();
  if (state.applied && state.applied.words !== next.words) $("#set-info").textContent = "";
  say("");
  setBusy(true, state.applied ? "thinking…" : "loading the word set…");
  let doc;
  try {
    doc = await ask("/api/suggest", {...gameBody(next), strategy: next.strategy, goal: next.goal, top: 10,
      candidates: 300, guess_space: next.answersOnly ? "candidates" : "all"}, seq, controller.signal);
  } catch (err) {
    if (err.name === "AbortError" || seq !== state.seq) return false;
    stopTicker();
    restoreApplied();
    if (onError) onError(err);
    say(err.message, "error", err.status === 503 || err.status === 0 ? retry : null);
    setBusy(false);
    return false;
  }
  if (seq !== state.seq) return false;
  // The number says it is the latest; the settings it echoes must be the ones asked for as well.
  if (!sameSettings(doc, next)) {
    restoreApplied();
    say("The server answered for other settings; try again.", "error", retry);
    setBusy(false);
    return false;
  }
  state.applied = {words: doc.words, strategy: doc.strategy, goal: doc.goal, hard: doc.hard, rows: doc.rows,
    date: next.date || null, answersOnly: doc.guess_space === "candidates"};
  state.shown = copyShown(state.applied);
  $("#day-error").textContent = "";
  rememberDay(state.applied.date);
  state.doc = doc;
  state.length = doc.length;
  state.finished = doc.solved || doc.over;
  render(doc);
  if (state.finished) await analyse(seq, controller.signal);
  if (seq === state.seq) {
    setBusy(false);
    dayLine(doc); // after the busy line has gone
  }
  return true;
}

function restoreApplied() {
  if (state.applied) state.shown = copyShown(state.applied);
  state.finished = !!(state.doc && (state.doc.solved || state.doc.over));
  syncSettings();
  renderBoard();
  if (state.doc) renderFooter(state.doc);
}

function renderFooter(doc) {
  const notes = (doc.notes || []).join(" ");
  $("#set-info").textContent = [doc.description, doc.note, notes].filter(Boolean).join(" — ");
  renderDay(doc, state.config && state.config.today);
}

// The share text's number: the day's puzzle on an official word set (the game played elsewhere).
function sharePuzzle() {
  const official = (state.config.official_sets || []).includes(state.shown.words);
  return official && state.doc ? state.doc.puzzle : null;
}

async function analyse(seq, signal) {
  setBusy(true, "analysing the game…");
  try {
    const doc = await ask("/api/analyze", {...gameBody(state.shown), style: shareStyle(), goal: state.shown.goal,
      puzzle: sharePuzzle()}, seq, signal);
    if (seq !== state.seq) return;
    renderAnalysis(doc.summary, doc.rows, doc.review, doc.day_note, doc.goal);
    $("#share-text").value = doc.share;
    $("#analysis").hidden = false;
    if (state.doc.solved) {
      say(`Solved in ${state.shown.rows.length}! Skill ${doc.skill}, luck ${doc.luck}.`, "info");
      if (state.doc.replay_day) offerReplay(state.doc.replay_day); // the analysis says why
    }
  } catch (err) {
    if (err.name === "AbortError" || seq !== state.seq) return;
    const again = {...state.shown, rows: state.shown.rows.map((r) => ({...r}))};
    say(err.message, "error", err.status === 503 || err.status === 0 ? () => request(again) : null);
  }
}

// An analysis (of the game played here, or of a pasted grid whose words are known): the
// summary, one row a guess, each guess in words (the library's sentences), the day's note.
function renderAnalysis(summary, rows, review, note, goal) {
  $("#summary").textContent = summary;
  $("#day-note").textContent = note || "";
  $("#grid-lines").replaceChildren();
  const tbody = $("#analysis-rows tbody");
  tbody.replaceChildren();
  for (const r of rows) {
    tbody.appendChild(tableRow([r.index, r.guess.toUpperCase(),
      `${r.candidates_before.toLocaleString("en")} → ${r.candidates_after.toLocaleString("en")}`,
      r.best.toUpperCase(), outcome(r.best_expected, r.best_lose, r.estimated, 2),
      outcome(r.player_expected, r.player_lose, r.estimated, 2), r.skill, r.luck],
    [null, null, null, null, "extra", "extra", null, null]));
  }
  $("#analysis-rows").hidden = !rows.length;
  const risky = rows.some((r) => r.best_lose > 0 || r.player_lose > 0);
  $("#analysis-caption").textContent = !rows.length ? "" : "avg: the guesses to finish from that row when solved"
    + (risky ? "; n%: the chance to solve the game, where below 100 %" : "") + ` · ${GOAL_TEXT[goal || "streak"]}.`;
  $("#review").replaceChildren(...(review || []).map((line) => {
    const li = document.createElement("li");
    li.textContent = line.replace(/^\d+\.\s*/, ""); // the list numbers them
    return li;
  }));
}

function shareStyle() {
  const t = currentTheme();
  return t === "contrast" ? "contrast" : t;
}

// --- rendering ---------------------------------------------------------------------------

function setBusy(on, text) {
  document.body.dataset.state = on ? "busy" : "ready";
  $("#advice").setAttribute("aria-busy", on ? "true" : "false");
  if (!on) stopTicker();
  setStatus(on ? text || "thinking…" : "");
  document.querySelectorAll("button.use").forEach((b) => { b.disabled = on; });
  renderPick();
}

function setStatus(text) { $("#status").textContent = text || ""; }

// Errors and news share one line; data-kind tells them apart (red for errors).  `retry`, when
// given, adds a button that repeats what failed.
function say(text, kind, retry) {
  const m = $("#message");
  m.replaceChildren(document.createTextNode(text || ""));
  m.dataset.kind = kind || "error";
  if (retry) {
    const b = document.createElement("button");
    b.type = "button";
    b.id = "retry";
    b.textContent = "Try again";
    b.addEventListener("click", retry);
    m.appendChild(b);
  }
}

function buildBoard() {
  const board = $("#board");
  board.replaceChildren();
  for (let r = 0; r < state.maxGuesses; r++) {
    const row = document.createElement("div");
    row.className = "row";
    row.setAttribute("role", "group");
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

function buildKeyboard() {
  const kb = $("#keyboard");
  kb.replaceChildren();
  for (const keys of KEY_ROWS) {
    const row = document.createElement("div");
    row.className = "keys";
    for (const k of keys) {
      if (k === "|") {
        const s = document.createElement("span");
        s.className = "spacer";
        row.appendChild(s);
        continue;
      }
      const b = document.createElement("button");
      b.type = "button";
      b.className = k.length > 1 ? "key wide" : "key";
      b.dataset.key = k;
      b.tabIndex = -1; // keyboard users have a real one; Tab goes from the board to the advice
      b.textContent = k === "Backspace" ? "⌫" : k;
      if (k === "Backspace") b.setAttribute("aria-label", "Backspace");
      b.addEventListener("click", () => pressKey(k));
      row.appendChild(b);
    }
    kb.appendChild(row);
  }
}

function canEnter() {
  const rows = state.shown.rows;
  const solvedShown = rows.length > 0 && /^2+$/.test(rows[rows.length - 1].feedback);
  return !state.finished && !solvedShown && rows.length < state.maxGuesses;
}

function renderBoard() {
  if (document.querySelectorAll("#board .tile").length !== state.maxGuesses * state.length) buildBoard();
  const rows = state.shown.rows;
  const current = canEnter() ? rows.length : -1;
  document.querySelectorAll("#board .row").forEach((row, r) => row.classList.toggle("current", r === current));
  document.querySelectorAll("#board .tile").forEach((tile) => {
    const r = Number(tile.dataset.row), c = Number(tile.dataset.col);
    let letter = "", st = "empty";
    if (r < rows.length) {
      letter = rows[r].guess[c];
      st = COLOURS[Number(rows[r].feedback[c])];
    } else if (r === current && c < state.typed.length) {
      letter = state.typed[c];
      st = COLOURS[state.pending[c] || 0];
    }
    tile.textContent = letter ? letter.toUpperCase() : "";
    tile.dataset.state = st;
    tile.disabled = !letter;
    tile.classList.toggle("next", r === current && c === state.typed.length);
    tile.classList.toggle("colour-next", r === current && state.colourTyped && c === state.colourAt
      && c < state.typed.length);
    tile.setAttribute("aria-label", letter
      ? `${letter.toUpperCase()}, ${NAMES[COLOURS.indexOf(st)]}, row ${r + 1}, letter ${c + 1}`
      : `empty, row ${r + 1}, letter ${c + 1}`);
  });
  renderKeys();
  $("#undo").disabled = rows.length === 0;
  const entry = state.typed
    ? `Row ${rows.length + 1}: ${state.typed.toUpperCase().split("").join(" ")}` : "";
  if ($("#entry-text").textContent !== entry) $("#entry-text").textContent = entry;
}

function renderKeys() {
  const best = {};
  for (const r of state.shown.rows) {
    [...r.guess].forEach((ch, i) => {
      const st = COLOURS[Number(r.feedback[i])];
      if (!best[ch] || RANK[st] > RANK[best[ch]]) best[ch] = st;
    });
  }
  document.querySelectorAll("#keyboard .key").forEach((k) => {
    const ch = k.dataset.key;
    if (ch.length > 1) return;
    const st = best[ch];
    if (st) k.dataset.state = st; else delete k.dataset.state;
    k.setAttribute("aria-label", st ? `${ch.toUpperCase()}, ${{absent: "not in the word", present: "in the word",
      correct: "in place"}[st]}` : ch.toUpperCase());
  });
}

// The hints (the suggestions, the words left and their count) wait to be asked for at each row
// when the player chose so: "Show hints" in place of the top suggestion.
function rowsKey(rows) { return JSON.stringify(rows.map((r) => [r.guess, r.feedback])); }
function hintsHidden() {
  return state.hideHints && !state.finished && state.hintsFor !== rowsKey(state.shown.rows);
}
function showHints() {
  state.hintsFor = rowsKey(state.shown.rows);
  if (state.doc) render(state.doc);
}

// The top suggestion, shown above the board: tapping it puts it in the row being entered.
function renderPick() {
  const doc = state.doc;
  const busy = document.body.dataset.state === "busy";
  // Suggestions of other settings than those shown are not offered, not even for a moment.
  const a = state.applied, s = state.shown;
  const other = !a || a.words !== s.words || a.strategy !== s.strategy || a.hard !== s.hard ||
    a.goal !== s.goal || a.answersOnly !== s.answersOnly || (a.date || null) !== (s.date || null);
  const hidden = hintsHidden();
  const top = !other && !hidden && doc && doc.suggestions && doc.suggestions[0];
  const pick = $("#pick");
  const solved = !other && doc && doc.solved;
  const lost = !other && doc && doc.over && !doc.solved;
  pick.classList.toggle("reveal", hidden && !other && !!doc);
  if (hidden && !other && doc && !state.finished) {
    pick.disabled = busy;
    pick.querySelector(".pick-label").textContent = "Hints";
    $("#pick-word").textContent = "show";
    $("#pick-avg").textContent = "hidden until asked";
    pick.setAttribute("aria-label", "Show the hints for this row: the suggestions and the words left");
    $("#left").textContent = "";
    return;
  }
  pick.disabled = busy || !top || !canEnter();
  $(".pick-label").textContent = solved ? "Solved" : lost ? "Lost" : "Play";
  $("#pick-word").textContent = top ? top.word : solved ? doc.rows[doc.rows.length - 1].guess
    : lost ? `X/${doc.max_guesses}` : "·····";
  const avg = $("#pick-avg");
  if (top && top.expected !== null) {
    const unit = document.createElement("small");
    unit.textContent = "guesses to go";
    avg.replaceChildren(`${top.basis === "estimate" ? "≈" : ""}${fmt(top.expected, 2)} `, unit);
    if (top.lose > 0) avg.append(` · ${solveText(top.lose)} solve`);
  } else {
    avg.textContent = solved ? `in ${doc.rows.length}` : lost ? "out of rows" : "";
  }
  pick.setAttribute("aria-label", top
    ? `Play ${top.word.toUpperCase()}: ${fmt(top.expected, 2)} guesses to go on average when solved, this one included`
      + (top.lose > 0 ? `; ${solveText(top.lose)} chance to solve` : "")
    : solved ? `Solved in ${doc.rows.length}` : lost ? "Out of rows" : "no suggestion");
  $("#left").textContent = other || !doc ? "" : leftText(doc);
}

function render(doc) {
  renderBoard();
  renderPick();
  renderSuggestions(doc);
  renderWhy(doc.why);
  renderCandidates(doc);
  // a finished game has nothing left to advise (the analysis takes its place); hidden hints wait
  $("#advice").hidden = doc.solved || doc.over || hintsHidden();
  $("#typing-help").hidden = doc.solved || doc.over;
  renderFooter(doc);
  $("#analysis").hidden = true;
  $("#share-text").value = "";
  const note = doc.day_note ? ` ${doc.day_note}.` : "";
  if (doc.solved) say(`Solved in ${doc.rows.length}!${note}`, "info");
  else if (doc.over) say(`Out of rows. Undo to change a row, or start a new game.${note}`, "info");
  if ((doc.solved || doc.over) && doc.replay_day) offerReplay(doc.replay_day);
}

// The replay rule's way out: a new game on the day whose answer this one was.
function offerReplay(day) {
  const b = document.createElement("button");
  b.type = "button";
  b.id = "replay";
  b.textContent = `Replay ${day}`;
  b.addEventListener("click", () => {
    clearEntry();
    state.hintsFor = null;
    request({...state.shown, date: day, rows: []});
  });
  $("#message").appendChild(b);
}

// At the start of a game on today's odds: which day is assumed, and how to replay another.
function dayLine(doc) {
  if (!doc.rows.length && doc.day && doc.day_source === "today" && !$("#status").textContent) {
    setStatus(`${cap(doc.day_text)}. Replaying an earlier day? Tap the day above to set it.`);
  }
}

function cap(text) { return text ? text[0].toUpperCase() + text.slice(1) : ""; }

function weighted(doc) {
  if (typeof doc.likely === "number") return doc.likely < doc.candidates * 0.999;
  const ps = (doc.candidate_words || []).map((c) => c.p || 0);
  return ps.length > 1 && Math.max(...ps) - Math.min(...ps) > 1e-9 * Math.max(...ps);
}

function leftText(doc) {
  if (doc.solved) return "";
  const n = doc.candidates.toLocaleString("en");
  const likely = weighted(doc) && doc.likely_text ? ` · ${doc.likely_text} likely` : "";
  return `${n} left${likely}`;
}

function renderSuggestions(doc) {
  const tbody = $("#suggestions tbody");
  tbody.replaceChildren();
  doc.suggestions.forEach((s, i) => {
    const use = document.createElement("button");
    use.type = "button";
    use.className = "use";
    use.textContent = s.word;
    use.title = "use this guess";
    use.setAttribute("aria-label", `use ${s.word.toUpperCase()}`);
    use.addEventListener("click", () => useWord(s.word));
    // "≈": estimated past a one-guess look-ahead (the full search did not fit the budget)
    const avg = outcome(s.expected, s.lose, s.basis === "estimate", 3);
    const tr = tableRow([String(i + 1), use, avg, fmt(s.bits, 3), fmt(s.expected_left, 2),
      String(s.largest), String(s.parts), pct(s.p_answer), s.hard_legal ? "yes" : "no"],
    [null, null, null, "extra", null, "extra", "extra", null, "extra"]);
    if (s.can_be_answer) tr.classList.add("answer");
    if (s.basis) {
      tr.title = {optimal: "average guesses: proven optimal", searched: "average guesses: searched to the end",
        estimate: `average guesses: estimated after searching ${s.lookahead} guess ahead`}[s.basis] || "";
    }
    tbody.appendChild(tr);
  });
  const risky = doc.suggestions.some((s) => s.lose > 0);
  const searched = doc.suggestions.length && doc.suggestions[0].basis;
  $("#suggestions-caption").textContent = !searched ? "" : "avg: guesses to finish when solved"
    + (risky ? "; n%: the chance to solve, where below 100 %" : "") + ` · ${GOAL_TEXT[doc.goal]}.`;
}

// What the goal (the API's "goal") plays for, as the captions say it.
const GOAL_TEXT = {streak: "playing for the streak: the smallest chance of losing first, then the fewest guesses",
  average: "playing for the average: the fewest guesses (a lost game counted as ten more)"};

// The guesses when solved and, where below 100 %, the chance to solve: "1.458 95.2%"; a guess
// that cannot solve: "0%".  The chance of losing is never folded into the guesses.
function outcome(expected, lose, estimated, digits) {
  if (expected === null || expected === undefined) return lose >= 1 ? "0%" : "–";
  const text = (estimated ? "≈" : "") + fmt(expected, digits);
  return lose > 0 ? `${text} ${solveText(lose)}` : text;
}

// As render.format_solve: ">99.9%" and "<0.1%" near the ends, "0%" for none.
function solveText(lose) {
  if (lose < 0.0005) return ">99.9%";
  if (lose >= 1) return "0%";
  return lose > 0.9995 ? "<0.1%" : `${(100 * (1 - lose)).toFixed(1)}%`;
}

function tableRow(cells, classes) {
  const tr = document.createElement("tr");
  cells.forEach((v, i) => {
    const td = document.createElement("td");
    if (v instanceof Node) td.appendChild(v); else td.textContent = String(v);
    if (classes && classes[i]) td.className = classes[i];
    tr.appendChild(td);
  });
  return tr;
}

function renderWhy(why) {
  $("#why").hidden = !why;
  if (!why) return;
  $("#why-word").textContent = why.word;
  $("#why-text").textContent = why.text.join(" ");
  const list = $("#why-groups");
  list.replaceChildren();
  for (const g of why.top_groups) {
    const li = document.createElement("li");
    const mini = document.createElement("span");
    mini.className = "mini";
    mini.setAttribute("role", "img");
    mini.setAttribute("aria-label", [...g.digits].map((d) => NAMES[Number(d)]).join(" "));
    for (const d of g.digits) {
      const t = document.createElement("span");
      t.dataset.d = d;
      mini.appendChild(t);
    }
    const won = /^2+$/.test(g.digits);
    const left = won ? "solved" : `${g.size.toLocaleString("en")} ${g.size === 1 ? "word" : "words"} left`;
    li.append(mini, span(left, "g-size"), span(pct(g.p, true), "g-p"));
    list.appendChild(li);
  }
  const rest = why.groups - why.top_groups.length;
  $("#why-caption").textContent = why.groups > 1 ? "Its likeliest colours:" : "Its colours:";
  if (rest > 0) {
    const li = document.createElement("li");
    li.className = "more";
    li.textContent = `… and ${rest.toLocaleString("en")} other colour pattern${rest === 1 ? "" : "s"}`;
    list.appendChild(li);
  }
}

function span(text, cls) {
  const s = document.createElement("span");
  s.className = cls;
  s.textContent = text;
  return s;
}

function renderCandidates(doc) {
  const showP = weighted(doc);
  $("#cand-count").textContent = `(${doc.solved ? "solved" : leftText(doc)})`;
  const words = doc.candidate_words || [];
  // the day's groups (the nyt set's answer model): each one's share of the day, and each
  // candidate's group, so a word's odds say where they come from
  const groups = doc.prior_groups || null;
  $("#cand-groups").hidden = !groups;
  for (const ol of [$("#candidates"), $("#cand-tail")]) ol.classList.toggle("grouped", !!groups);
  if (groups) {
    $("#cand-groups ul").replaceChildren(...groups.filter((g) => g.words && g.share >= 0.001).map((g) => {
      const li = document.createElement("li");
      li.textContent = `${cap(g.label)}: ${g.text}.`;
      return li;
    }));
  }
  const item = (c) => {
    const li = document.createElement("li");
    li.append(span(c.word, "cw"));
    if (showP && c.p !== null) li.append(" ", span(pct(c.p, true), "cp"));
    if (c.group) {
      li.append(" ", span(c.group, "cg"));
      li.title = `${c.word.toUpperCase()}: ${c.group}`;
    }
    return li;
  };
  $("#candidates").replaceChildren(...words.slice(0, LIST_SHOWN).map(item));
  const tail = words.slice(LIST_SHOWN);
  const more = doc.candidates - Math.min(words.length, LIST_SHOWN);
  const fold = $("#cand-more");
  fold.hidden = more <= 0;
  fold.open = false;
  fold.querySelector("summary").textContent = `… ${more.toLocaleString("en")} more${showP ? ", less likely" : ""}`;
  const ol = $("#cand-tail");
  ol.start = LIST_SHOWN + 1;
  ol.replaceChildren(...tail.map(item));
  if (doc.candidates > words.length) {
    const li = document.createElement("li");
    li.className = "more";
    li.textContent = `… and ${(doc.candidates - words.length).toLocaleString("en")} not listed`;
    ol.appendChild(li);
  }
}

function fmt(x, digits) { return x === null || x === undefined ? "–" : Number(x).toFixed(digits); }
// Percentages as explain.py writes them: whole above 10%, one decimal down to 0.1%.
function pct(p, short) {
  if (p === null || p === undefined) return "";
  if (!p) return short ? "0%" : "";
  if (!short) return p >= 1e-4 ? `${(100 * p).toFixed(2)}%` : "<0.01%";
  if (p >= 0.995) return p >= 1 - 1e-12 ? "100%" : ">99%";
  if (p >= 0.1) return `${Math.round(100 * p)}%`;
  if (p >= 0.001) return `${(100 * p).toFixed(1)}%`;
  return "<0.1%";
}

// --- entering a row ------------------------------------------------------------------------

function typeLetter(ch) {
  if (!canEnter() || state.typed.length >= state.length) return;
  state.typed += ch;
  state.pending[state.typed.length - 1] = 0;
  renderBoard();
}

function backspace() {
  if (!state.typed) return;
  state.typed = state.typed.slice(0, -1);
  state.pending.length = state.typed.length;
  if (state.colourAt > state.typed.length) state.colourAt = state.typed.length;
  if (!state.typed) clearEntry();
  renderBoard();
}

// A typed digit colours the tile under the colour cursor, which then moves on (and wraps).
function typeColour(d) {
  if (!canEnter() || !state.typed) return;
  if (state.colourAt >= state.typed.length) state.colourAt = 0;
  state.pending[state.colourAt] = d;
  state.colourAt = (state.colourAt + 1) % state.length;
  state.colourTyped = true;
  renderBoard();
}

function moveColourCursor(step) {
  if (!state.typed) return;
  state.colourAt = (state.colourAt + step + state.typed.length) % state.typed.length;
  state.colourTyped = true;
  renderBoard();
}

function clearEntry() {
  state.typed = "";
  state.pending = [];
  state.colourAt = 0;
  state.colourTyped = false;
}

function setEntry(word, digits) {
  clearEntry();
  state.typed = word.slice(0, state.length);
  state.pending = digits ? [...digits].map(Number) : Array(state.typed.length).fill(0);
}

function useWord(word) {
  if (!canEnter()) return;
  setEntry(word);
  renderBoard();
}

function pressKey(k) {
  if (k === "Enter") submit();
  else if (k === "Backspace") backspace();
  else typeLetter(k);
}

async function cycleTile(r, c) {
  const rows = state.shown.rows;
  if (r === rows.length) { // the row being entered: just the colour
    if (c >= state.typed.length) return;
    state.pending[c] = ((state.pending[c] || 0) + 1) % 3;
    renderBoard();
    return;
  }
  if (r < rows.length) { // an earlier row: correct it, if the server agrees
    const next = rows.map((x) => ({...x}));
    const digits = next[r].feedback.split("");
    digits[c] = String((Number(digits[c]) + 1) % 3);
    next[r].feedback = digits.join("");
    await request({...state.shown, rows: next});
  }
}

async function submit() {
  if (!canEnter()) {
    if (state.finished) say("The game is over: undo a row or start a new game.");
    return;
  }
  if (state.typed.length !== state.length) {
    say(`Type a ${state.length}-letter word first.`);
    return;
  }
  const row = {guess: state.typed, feedback: state.pending.map((d) => String(d || 0)).join("")};
  clearEntry();
  // The row goes on the board at once; refused, it comes back into the entry to be mended.
  await request({...state.shown, rows: [...state.shown.rows, row]}, () => {
    setEntry(row.guess, row.feedback);
    renderBoard();
  });
}

async function undo() {
  const rows = state.shown.rows;
  if (rows.length === 0) return;
  const last = rows[rows.length - 1];
  setEntry(last.guess, last.feedback); // so a mistyped row can be fixed and entered again
  await request({...state.shown, rows: rows.slice(0, -1)}, () => { clearEntry(); renderBoard(); });
}

async function newGame() {
  clearEntry();
  state.hintsFor = null;
  await request({...state.shown, rows: []});
}

// --- a pasted share grid -----------------------------------------------------------------------

// The server reads the grid: its puzzle number is its day (the page takes that day, so the
// advice and the analysis use its odds), its answer comes from the history, and the words are
// the ones typed or, when their colours are the grid's, this board's rows.
async function analyseGrid() {
  const text = $("#grid-text").value.trim();
  if (!text) {
    say("Paste the share grid first (the text the game's Share button copies).");
    $("#grid-text").focus();
    return;
  }
  const played = $("#grid-played").value.trim();
  const seq = ++state.seq;
  if (state.controller) state.controller.abort();
  const controller = new AbortController();
  state.controller = controller;
  say("");
  setBusy(true, "reading the share grid…");
  let doc;
  try {
    doc = await ask("/api/grid", {grid: text, words: state.shown.words, history: state.shown.rows,
      style: shareStyle(), ...(played ? {played} : {})}, seq, controller.signal);
  } catch (err) {
    if (err.name === "AbortError" || seq !== state.seq) return;
    setBusy(false);
    say(err.message, "error");
    return;
  }
  if (seq !== state.seq) return;
  const dayText = doc.day || String(doc.puzzle);
  const current = state.doc && state.doc.puzzle;
  if (doc.puzzle !== current && !(await request({...state.shown, date: dayText}))) return;
  setBusy(false);
  renderGrid(doc, text);
}

function renderGrid(doc, text) {
  if (doc.rated) {
    const a = doc.analysis;
    renderAnalysis(`${doc.headline} ${a.summary}`, a.rows, a.review, null);
  } else {
    renderAnalysis(doc.headline, [], [], null);
    $("#grid-lines").replaceChildren(...doc.lines.map((line) => {
      const li = document.createElement("li");
      li.textContent = line;
      return li;
    }));
  }
  $("#share-text").value = text;
  $("#analysis").hidden = false;
  $("#analysis").scrollIntoView({block: "nearest"});
  say(`Share grid of Wordle #${Number(doc.puzzle).toLocaleString("en")} (${doc.day || "its day"}): the day is set ` +
    "to it.", "info");
}

// --- the day ---------------------------------------------------------------------------------

// A day typed in the settings (a date or a puzzle number; empty: today): the game goes on
// with that day's odds, its rows kept.  A day the server refuses is said beside the field.
async function setDay(text) {
  const date = text.trim() || null;
  if ((date || null) === (state.shown.date || null)) return;
  clearEntry();
  await request({...state.shown, date}, (err) => {
    if (err && err.status === 400) $("#day-error").textContent = err.message;
    syncSettings();
  });
}

// One handler for the physical keyboard, wherever the focus is, except in a control that
// takes typing itself; Enter and Space on a focused button keep their usual meaning.
function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey || e.isComposing) return;
  const t = e.target;
  if (e.key === "Escape") {
    toggleSettings(false);
    $("#board").focus({preventScroll: true});
    return;
  }
  if (t.closest && t.closest("select, textarea, input:not([type=checkbox])")) return;
  const onControl = t.closest && t.closest("button, summary, a");
  if (e.key === "Enter") {
    if (onControl) return;
    e.preventDefault();
    submit();
  } else if (e.key === "Backspace") {
    e.preventDefault();
    backspace();
  } else if (/^[a-z]$/i.test(e.key)) {
    e.preventDefault();
    typeLetter(e.key.toLowerCase());
  } else if (/^[012]$/.test(e.key)) {
    e.preventDefault();
    typeColour(Number(e.key));
  } else if ((e.key === "ArrowLeft" || e.key === "ArrowRight") && !onControl && state.typed) {
    e.preventDefault();
    moveColourCursor(e.key === "ArrowLeft" ? -1 : 1);
  }
}

// --- settings and themes ---------------------------------------------------------------------

function syncSettings() {
  $("#words").value = state.shown.words;
  $("#strategy").value = state.shown.strategy;
  $("#goal").value = state.shown.goal;
  $("#hard").checked = state.shown.hard;
  $("#answers-only").checked = state.shown.answersOnly;
  $("#hide-hints").checked = state.hideHints;
  if (document.activeElement !== $("#day")) $("#day").value = state.shown.date || "";
}

// Opened from the keyboard (a click with no pointer), the focus moves into the panel.
function toggleSettings(open, fromKeyboard) {
  const header = $("#top");
  const isOpen = header.classList.contains("open");
  if (open === undefined) open = !isOpen;
  if (open === isOpen) return;
  header.classList.toggle("open", open);
  $("#settings-toggle").setAttribute("aria-expanded", String(open));
  if (open && fromKeyboard) $("#words").focus();
}

async function refreshShare() {
  if (!state.finished || !state.shown.rows.length || $("#analysis").hidden) return;
  try {
    const doc = await api("/api/share", {...gameBody(state.shown), style: shareStyle(), puzzle: sharePuzzle()});
    $("#share-text").value = doc.text;
  } catch (err) { /* the old grid stays */ }
}

// --- start -----------------------------------------------------------------------------------

async function start() {
  // No choice stored: the system's scheme, followed as it changes (the stylesheet does the same).
  const saved = storedTheme();
  setTheme(THEMES.includes(saved) ? saved : null, false);
  matchMedia("(prefers-color-scheme: dark)").addEventListener("change", () => setTheme(null, false));
  try {
    state.config = await api("/api/config");
  } catch (err) {
    say(err.message, "error", () => location.reload());
    document.body.dataset.state = "error";
    return;
  }
  state.maxGuesses = state.config.max_guesses;
  state.shown.words = state.config.default_words;
  const params = new URLSearchParams(location.search); // ?date=2026-05-19 or ?puzzle=1795
  state.shown.date = params.get("date") || params.get("puzzle") || null;
  try { state.hideHints = localStorage.getItem(HINTS_KEY) === "1"; } catch (err) { /* not remembered */ }
  fillSelect($("#words"), state.config.word_sets, state.shown.words);
  fillSelect($("#strategy"), state.config.strategies, state.shown.strategy);
  buildBoard();
  buildKeyboard();
  renderBoard();
  document.addEventListener("keydown", onKey);
  // A button pressed with the mouse does not take the focus, so Enter still means "send the
  // row" (and not "press New game again"); from the keyboard, buttons take it as usual.
  document.addEventListener("mousedown", (e) => { if (e.target.closest("button")) e.preventDefault(); });
  $("#pick").addEventListener("click", () => {
    if (hintsHidden()) { showHints(); return; }
    const top = state.doc && state.doc.suggestions[0];
    if (top) useWord(top.word);
  });
  $("#undo").addEventListener("click", undo);
  $("#new").addEventListener("click", () => { toggleSettings(false); newGame(); });
  $("#settings-toggle").addEventListener("click", (e) => toggleSettings(undefined, e.detail === 0));
  $("#day-chip").addEventListener("click", () => {
    toggleSettings(true);
    $("#day").focus();
  });
  $("#day").addEventListener("change", (e) => setDay(e.target.value));
  $("#day").addEventListener("keydown", (e) => {
    if (e.key === "Enter") { e.preventDefault(); setDay(e.target.value); }
  });
  $("#day-today").addEventListener("click", () => { $("#day").value = ""; setDay(""); });
  $("#answers-only").addEventListener("change", (e) => request({...state.shown, answersOnly: e.target.checked}));
  $("#hide-hints").addEventListener("change", (e) => {
    state.hideHints = e.target.checked;
    state.hintsFor = null;
    try { localStorage.setItem(HINTS_KEY, state.hideHints ? "1" : "0"); } catch (err) { /* not remembered */ }
    if (state.doc) render(state.doc);
  });
  $("#grid-go").addEventListener("click", analyseGrid);
  document.addEventListener("click", (e) => {
    if (!e.target.closest("#top")) toggleSettings(false);
  });
  $("#settings").addEventListener("submit", (e) => e.preventDefault());
  // A select changed with the mouse gives the focus back to the board, so typing goes to the
  // row (not to the select's type-ahead); changed from the keyboard, it keeps the focus.
  for (const sel of document.querySelectorAll("#settings select")) {
    sel.addEventListener("pointerdown", () => { sel.dataset.pointer = "1"; });
    sel.addEventListener("keydown", () => { delete sel.dataset.pointer; });
    sel.addEventListener("change", () => {
      if (sel.dataset.pointer) { delete sel.dataset.pointer; $("#board").focus({preventScroll: true}); }
    });
  }
  $("#words").addEventListener("change", (e) => {
    clearEntry();
    toggleSettings(false);
    request({...state.shown, words: e.target.value, rows: []});
  });
  $("#strategy").addEventListener("change", (e) => request({...state.shown, strategy: e.target.value}));
  $("#goal").addEventListener("change", (e) => request({...state.shown, goal: e.target.value}));
  $("#hard").addEventListener("change", (e) => request({...state.shown, hard: e.target.checked}));
  $("#theme").addEventListener("change", (e) => { setTheme(e.target.value, true); refreshShare(); });
  $("#share").addEventListener("click", async () => {
    const text = $("#share-text").value;
    try {
      await navigator.clipboard.writeText(text);
      say("Copied to the clipboard.", "info");
    } catch (err) {
      $("#share-text").select();
      say("Select the text and copy it.", "info");
    }
  });
  if (!(await request({...state.shown})) && !state.applied && state.shown.date) {
    // a day from the address that cannot be played: said, and today's advice instead
    const why = $("#message").textContent.replace(/Try again$/, "").trim();
    state.shown.date = null;
    rememberDay(null);
    if (await request({...state.shown})) {
      say(`${why} The page shows today's advice instead.`);
      $("#day-error").textContent = why;
    }
  }
}

document.addEventListener("DOMContentLoaded", start);
