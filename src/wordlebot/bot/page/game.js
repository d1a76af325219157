// Local replica of the Wordle page: the same DOM hooks as the NYT page (see index.html), the
// NYT scoring rule, a word list it checks guesses against, and tiles that flip one by one, so
// a bot must wait for the colours as it would on the real page.
"use strict";

const params = new URLSearchParams(location.search);
const ANSWER = (params.get("answer") || "").trim().toLowerCase();
const WORDS_URL = params.get("words") || "words.txt";
const DELAY = Math.max(0, Number(params.get("delay") ?? 150) || 0);
const ROWS = Math.min(10, Math.max(1, Number(params.get("rows") || 6)));
const WELCOME = params.get("welcome") !== "0";
const ENTER = "↵", BACK = "←";
const PRAISE = ["Genius", "Magnificent", "Impressive", "Splendid", "Great", "Phew"];

const game = {words: null, row: 0, typed: "", busy: false, over: false};
const $ = (sel) => document.querySelector(sel);

function score(guess, answer) {
  // Greens first, then yellows left to right while unmatched copies of the letter remain.
  const res = Array(guess.length).fill("absent");
  const left = {};
  for (let i = 0; i < guess.length; i++) {
    if (guess[i] === answer[i]) res[i] = "correct";
    else left[answer[i]] = (left[answer[i]] || 0) + 1;
  }
  for (let i = 0; i < guess.length; i++) {
    if (res[i] !== "correct" && left[guess[i]] > 0) { res[i] = "present"; left[guess[i]]--; }
  }
  return res;
}

function toast(text, ms) {
  const t = document.createElement("div");
  t.className = "toast";
  t.setAttribute("data-testid", "toast");
  t.textContent = text;
  $("#toasts").appendChild(t);
  if (ms) setTimeout(() => t.remove(), ms);
}

function tilesOf(row) { return document.querySelectorAll(`#board [role="group"]:nth-child(${row + 1}) [data-testid="tile"]`); }

function ordinal(n) { return ({1: "1st", 2: "2nd", 3: "3rd"})[n] || `${n}th`; }

function build(length) {
  const board = $("#board");
  for (let r = 0; r < ROWS; r++) {
    const row = document.createElement("div");
    row.className = "row";
    row.setAttribute("role", "group");
    row.setAttribute("aria-label", `Row ${r + 1}`);
    for (let c = 0; c < length; c++) {
      const tile = document.createElement("div");
      tile.className = "tile";
      tile.setAttribute("data-testid", "tile");
      tile.dataset.state = "empty";
      tile.setAttribute("aria-label", `${ordinal(c + 1)} letter, empty`);
      row.appendChild(tile);
    }
    board.appendChild(row);
  }
  const layout = ["qwertyuiop", "asdfghjkl", ENTER + "zxcvbnm" + BACK];
  for (const line of layout) {
    const krow = document.createElement("div");
    krow.className = "krow";
    for (const k of line) {
      const b = document.createElement("button");
      b.type = "button";
      b.dataset.key = k;
      b.textContent = k === ENTER ? "enter" : k === BACK ? "⌫" : k;
      b.setAttribute("aria-label", k === ENTER ? "enter" : k === BACK ? "backspace" : `add ${k}`);
      if (k === ENTER || k === BACK) b.className = "wide";
      b.addEventListener("click", () => press(k));
      krow.appendChild(b);
    }
    $("#keyboard").appendChild(krow);
  }
}

function showTyped() {
  tilesOf(game.row).forEach((tile, i) => {
    const ch = game.typed[i] || "";
    tile.textContent = ch;
    tile.dataset.state = ch ? "tbd" : "empty";
    tile.setAttribute("aria-label", `${ordinal(i + 1)} letter, ${ch ? ch.toUpperCase() : "empty"}`);
  });
}

function press(key) {
  if (game.busy || game.over || !game.words || !$("#welcome").hidden || !$("#help").hidden) return;
  if (key === ENTER) return submit();
  if (key === BACK) { game.typed = game.typed.slice(0, -1); return showTyped(); }
  if (/^[a-z]$/.test(key) && game.typed.length < ANSWER.length) { game.typed += key; showTyped(); }
}

function submit() {
  const word = game.typed;
  const row = document.querySelector(`#board [role="group"]:nth-child(${game.row + 1})`);
  if (word.length < ANSWER.length || !game.words.has(word)) {
    toast(word.length < ANSWER.length ? "Not enough letters" : "Not in word list", 1200);
    row.classList.remove("invalid");
    void row.offsetWidth; // restart the shake
    row.classList.add("invalid");
    return;
  }
  game.busy = true;
  const result = score(word, ANSWER);
  const tiles = tilesOf(game.row);
  result.forEach((st, i) => setTimeout(() => {
    tiles[i].dataset.state = st;
    tiles[i].setAttribute("aria-label", `${ordinal(i + 1)} letter, ${word[i].toUpperCase()}, ${st}`);
    if (i === result.length - 1) finish(word, result);
  }, DELAY * (i + 1)));
}

function finish(word, result) {
  const rank = {absent: 1, present: 2, correct: 3};
  result.forEach((st, i) => {
    const key = document.querySelector(`button[data-key="${word[i]}"]`);
    if (key && (rank[st] || 0) > (rank[key.dataset.state] || 0)) key.dataset.state = st;
  });
  game.row += 1;
  game.typed = "";
  game.busy = false;
  if (word === ANSWER) {
    game.over = true;
    toast(PRAISE[Math.min(game.row - 1, PRAISE.length - 1)]);
  } else if (game.row >= ROWS) {
    game.over = true;
    toast(ANSWER.toUpperCase());
  }
}

function configError(text) {
  const p = $("#config-error");
  p.textContent = text;
  p.hidden = false;
}

async function start() {
  $("[data-testid='Play']").addEventListener("click", () => { $("#welcome").hidden = true; $("#help").hidden = false; });
  $("#help .close").addEventListener("click", () => { $("#help").hidden = true; });
  if (!WELCOME) { $("#welcome").hidden = true; }
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape") { $("#help").hidden = true; return; }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Enter") press(ENTER);
    else if (e.key === "Backspace") press(BACK);
    else press(e.key.toLowerCase());
  });
  if (!/^[a-z]{4,11}$/.test(ANSWER)) return configError("no answer: open this page with ?answer=WORD");
  let text;
  try {
    const res = await fetch(WORDS_URL);
    if (!res.ok) throw new Error(`${res.status}`);
    text = await res.text();
  } catch (err) {
    return configError(`cannot read the word list ${WORDS_URL} (${err.message})`);
  }
  game.words = new Set(text.split(/\s+/).map((w) => w.trim().toLowerCase()).filter((w) => w.length === ANSWER.length));
  game.words.add(ANSWER);
  build(ANSWER.length);
}

document.addEventListener("DOMContentLoaded", start);
