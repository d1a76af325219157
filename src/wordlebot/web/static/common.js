// What both pages use (the one-board page, app.js, and the multi-board page, multi.js): talking
// to the server, the theme, small DOM helpers.  Loaded first, as a classic script.
"use strict";

const THEMES = ["light", "dark", "contrast"];
const THEME_KEY = "wordlebot-theme"; // one choice for both pages
const $ = (sel) => document.querySelector(sel);

// --- talking to the server ---------------------------------------------------------------

class ApiError extends Error {
  constructor(message, status, doc, retryAfter) {
    super(message);
    this.status = status;
    this.doc = doc || {};
    this.retryAfter = retryAfter;
  }
}

async function api(path, body, signal) {
  const opts = body === undefined ? {signal} : {
    method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body), signal,
  };
  let res;
  try {
    res = await fetch(path, opts);
  } catch (err) {
    if (err.name === "AbortError") throw err;
    throw new ApiError("Cannot reach the wordlebot server (is it still running?).", 0);
  }
  let doc = null;
  try { doc = await res.json(); } catch (err) {
    if (err.name === "AbortError") throw err; // not JSON: reported below
  }
  if (!res.ok) {
    const raw = res.headers.get("retry-after");
    const after = raw === null || raw.trim() === "" ? null : Number(raw);
    throw new ApiError((doc && doc.detail) || `the server answered ${res.status}`, res.status, doc,
      Number.isFinite(after) ? after : null);
  }
  return doc;
}

function sleep(seconds, signal) {
  return new Promise((resolve, reject) => {
    if (signal.aborted) { reject(new DOMException("aborted", "AbortError")); return; }
    const t = setTimeout(resolve, seconds * 1000);
    signal.addEventListener("abort", () => { clearTimeout(t); reject(new DOMException("aborted", "AbortError")); },
      {once: true});
  });
}

// --- settings and themes -------------------------------------------------------------------

function fillSelect(sel, values, current) {
  sel.replaceChildren(...values.map((v) => {
    const o = document.createElement("option");
    o.value = v;
    o.textContent = v;
    return o;
  }));
  sel.value = current;
}

function storedTheme() {
  try { return localStorage.getItem(THEME_KEY); } catch (err) { return null; }
}

function currentTheme() {
  const t = document.documentElement.dataset.theme;
  if (THEMES.includes(t)) return t;
  return matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

function setTheme(theme, remember) {
  if (theme) document.documentElement.dataset.theme = theme;
  $("#theme").value = currentTheme();
  if (remember) {
    try { localStorage.setItem(THEME_KEY, theme); } catch (err) { /* private mode: not remembered */ }
  }
}

// --- the day -----------------------------------------------------------------------------------

// The day whose prior the advice uses, always in sight (the header); the server says it.
function renderDay(doc, today) {
  const number = `#${Number(doc.puzzle).toLocaleString("en")}`;
  const chip = $("#day-text");
  if (!doc.day) {
    chip.textContent = `${number} · no day odds`;
  } else if (doc.day === today) {
    chip.textContent = `today · ${number}`;
  } else { // the year goes on narrow screens: 05-19 · #1,795
    const year = document.createElement("span");
    year.className = "day-year";
    year.textContent = doc.day.slice(0, 5);
    chip.replaceChildren(year, `${doc.day.slice(5)} · ${number}`);
  }
  $("#day-chip").title = doc.day_text
    ? `The advice uses the ${doc.day_text.replace(/^today's prior/, "prior of today")}: the answer odds of that morning`
    : `The word set ${doc.words} has the same odds every day`;
  $("#day").placeholder = `today (${today})`;
}

// The day asked for goes in the address (?date= or ?puzzle=), so a reload or a shared link
// keeps it; today's is the plain address.
function rememberDay(d) {
  const url = new URL(location.href);
  url.searchParams.delete("date");
  url.searchParams.delete("puzzle");
  if (d) url.searchParams.set(/^\s*#?[\d,\s]+$/.test(d) ? "puzzle" : "date", d.replace(/^\s*#/, "").trim());
  if (url.href !== location.href) history.replaceState(null, "", url.href);
}

