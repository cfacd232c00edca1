// The judge kiosk (docs/pages.md): how many words, the words, one press to
// judge, one verdict filling the screen. It calls the event's judge endpoint
// only, which answers acceptable or not and never which word.

import { ApiError, api, config, el, languageSwitch, onLanguage, t } from "./common.js";

const LOCK_KEY = "wordsvc.judge";
const timing = config.judge;
const $ = (id) => document.getElementById(id);
const STEPS = ["setup", "count", "words", "result"];

let lock = readLock(); // {token, event, table} once set up
let event = null; // GET /events/{event}
let round = 1;
let count = 0;
let sent = false; // the first press of "judge" locks the input until the ruling is shown
let shownAt = 0;
let resultTimer = 0;
let idleTimer = 0;
let ruling = null;

function readLock() {
  try {
    const kept = JSON.parse(localStorage.getItem(LOCK_KEY));
    return kept && kept.token && kept.event && kept.table ? kept : null;
  } catch {
    return null;
  }
}

function show(step) {
  for (const name of STEPS) $(name).hidden = name !== step;
  $("leave").hidden = step === "setup";
  document.body.dataset.step = step;
  if (step !== "result") document.body.removeAttribute("data-verdict");
}

function step() {
  return document.body.dataset.step;
}

function renderHeader() {
  const locked = lock && event;
  $("locked-to").hidden = $("lexicon-line").hidden = !locked;
  if (locked) {
    $("locked-to").textContent = t("judge.locked_to", { event: event.name || event.id, table: lock.table, round });
    $("lexicon").textContent = `${event.lexicon.id} ${event.lexicon.version}`;
  }
}

function message(target, error) {
  $(target).textContent = error instanceof ApiError && error.status === 401 ? t("page.token_invalid") : t("page.error", { detail: error.message });
}

// --- set-up: a referee token entered once locks the kiosk to its event and table -------------------

let pending = null; // {token, who} while a token open to every table waits for its table to be chosen

async function setUp() {
  $("setup-error").textContent = "";
  const token = $("setup-token").value.trim();
  try {
    if (pending && pending.token === token) {
      await lockTo({ token, event: pending.who.event, table: $("setup-table").value });
      return;
    }
    const who = (await api("GET", "/whoami", { token })).body;
    if (!who.event || !["referee", "director"].includes(who.role)) {
      $("setup-error").textContent = t("page.token_invalid");
      return;
    }
    if (who.table) {
      await lockTo({ token, event: who.event, table: who.table });
      return;
    }
    const games = (await api("GET", `/events/${encodeURIComponent(who.event)}`, { token })).body.games;
    pending = { token, who };
    $("setup-table").replaceChildren(...games.map((game) => el("option", { value: game.id, text: game.id })));
    $("setup-table-field").hidden = false;
    $("setup-table").focus();
  } catch (error) {
    message("setup-error", error);
  }
}

async function lockTo(next) {
  lock = next;
  try {
    await refreshRound();
  } catch (error) {
    lock = null;
    throw error;
  }
  localStorage.setItem(LOCK_KEY, JSON.stringify(lock));
  pending = null;
  $("setup-token").value = "";
  $("setup-table-field").hidden = true;
  startOver();
}

// The round a ruling is recorded under: the table's next round to be stored, the last once all are. The event
// (read again: a director may have accepted a new lexicon) counts each table's rounds; no stored play is read.
async function refreshRound() {
  event = (await api("GET", `/events/${encodeURIComponent(lock.event)}`, { token: lock.token })).body;
  const game = event.games.find((g) => g.id === lock.table);
  round = Math.min((game ? game.rounds_played : 0) + 1, event.ruleset.rounds.length);
  renderHeader();
}

// --- the challenge: count, words, one press ---------------------------------------------------------

// Back to "how many words", with nothing typed. The round is read again when the next play is judged.
function startOver() {
  clearTimeout(resultTimer);
  clearTimeout(idleTimer);
  sent = false;
  ruling = null;
  count = 0;
  $("count-input").value = "";
  $("word-fields").replaceChildren();
  $("judge-error").textContent = "";
  $("judge-button").disabled = false;
  $("judge-button").textContent = t("judge.judge");
  show("count");
  renderHeader();
  $("count-input").focus();
}

function askWords(n) {
  count = n;
  const fields = [];
  for (let i = 1; i <= n; i += 1) {
    const id = `word-${i}`;
    fields.push(
      el(
        "div",
        { class: "field" },
        el("label", { for: id, "data-word": i }, t("judge.word_label", { n: i, count: n })),
        el("input", { id, type: "text", autocomplete: "off", autocapitalize: "none", spellcheck: "false", required: true, class: "word" }),
      ),
    );
  }
  $("word-fields").replaceChildren(...fields);
  show("words");
  wordInputs()[0].focus();
  touch();
}

function wordInputs() {
  return [...$("word-fields").querySelectorAll("input")];
}

async function judgePlay() {
  if (sent) return; // the first press counts; later ones do nothing
  const inputs = wordInputs();
  const words = inputs.map((input) => input.value.trim());
  const empty = inputs.find((input) => !input.value.trim());
  if (empty) {
    empty.focus();
    return;
  }
  sent = true;
  clearTimeout(idleTimer);
  for (const input of inputs) input.readOnly = true;
  $("judge-button").disabled = true;
  $("judge-button").textContent = t("judge.judging");
  $("judge-error").textContent = "";
  try {
    await refreshRound();
    const answer = await api("POST", `/events/${encodeURIComponent(lock.event)}/judge`, { token: lock.token, body: { table: lock.table, round, words } });
    ruling = { acceptable: answer.body.acceptable, words, lexicon: answer.body.lexicon };
    showRuling();
  } catch (error) {
    sent = false;
    for (const input of inputs) input.readOnly = false;
    $("judge-button").disabled = false;
    $("judge-button").textContent = t("judge.judge");
    message("judge-error", error);
  }
}

function showRuling() {
  renderRuling();
  show("result");
  document.body.dataset.verdict = ruling.acceptable ? "acceptable" : "unacceptable";
  shownAt = performance.now();
  resultTimer = setTimeout(startOver, timing.result_seconds * 1000);
}

function renderRuling() {
  if (!ruling) return;
  $("result-symbol").textContent = ruling.acceptable ? "✓" : "✗";
  $("result-text").textContent = t(ruling.acceptable ? "judge.acceptable" : "judge.unacceptable");
  $("result-words").replaceChildren(...ruling.words.map((word) => el("li", { lang: event.lexicon.id }, word)));
  $("result-lexicon").textContent = `${t("page.lexicon")}: ${ruling.lexicon.id} ${ruling.lexicon.version}`;
}

// Unfinished input clears itself after a while without a key.
function touch() {
  clearTimeout(idleTimer);
  const unfinished = step() === "words" || (step() === "count" && $("count-input").value !== "");
  if (unfinished && !sent) idleTimer = setTimeout(startOver, timing.idle_seconds * 1000);
}

// --- leaving needs a director's token of the event ---------------------------------------------------

async function leave() {
  $("leave-error").textContent = "";
  const token = $("leave-token").value.trim();
  try {
    const who = (await api("GET", "/whoami", { token })).body;
    if (!(who.role === "admin" || (who.role === "director" && who.event === lock.event))) {
      $("leave-error").textContent = t("judge.not_director");
      return;
    }
  } catch (error) {
    $("leave-error").textContent = error instanceof ApiError && error.status === 401 ? t("judge.not_director") : t("page.error", { detail: error.message });
    return;
  }
  $("leave-dialog").close();
  $("leave-token").value = "";
  localStorage.removeItem(LOCK_KEY);
  lock = null;
  event = null;
  clearTimeout(resultTimer);
  clearTimeout(idleTimer);
  show("setup");
  renderHeader();
  $("setup-token").focus();
}

// --- wiring -------------------------------------------------------------------------------------------

$("setup-form").addEventListener("submit", (e) => {
  e.preventDefault();
  document.documentElement.requestFullscreen?.().catch(() => {}); // a kiosk fills the screen; a browser may refuse, and that is all
  setUp();
});
$("count-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const n = Number($("count-input").value);
  if (Number.isInteger(n) && n >= 1 && n <= 8) askWords(n);
});
$("words-form").addEventListener("submit", (e) => {
  e.preventDefault();
  judgePlay();
});
$("word-fields").addEventListener("keydown", (e) => {
  if (e.key !== "Enter" || !(e.target instanceof HTMLInputElement)) return;
  const inputs = wordInputs();
  const next = inputs.indexOf(e.target) + 1;
  if (next < inputs.length) {
    e.preventDefault();
    inputs[next].focus();
  } else {
    e.preventDefault();
    $("judge-button").focus(); // the opponent's press: Enter or a click on the button
  }
});
$("start-over").addEventListener("click", startOver);
$("leave").addEventListener("click", () => {
  $("leave-error").textContent = "";
  $("leave-dialog").showModal();
  $("leave-token").focus();
});
$("leave-form").addEventListener("submit", (e) => {
  e.preventDefault();
  leave();
});
$("leave-cancel").addEventListener("click", () => $("leave-dialog").close());

document.addEventListener(
  "keydown",
  (e) => {
    if ($("leave-dialog").open) return;
    if (step() === "result") {
      e.preventDefault();
      if (performance.now() - shownAt >= timing.key_delay * 1000) startOver();
      return;
    }
    const typing = document.activeElement instanceof HTMLInputElement || document.activeElement instanceof HTMLSelectElement;
    if (step() === "count" && /^[1-8]$/.test(e.key) && $("count-input").value === "" && (!typing || document.activeElement === $("count-input"))) {
      e.preventDefault();
      askWords(Number(e.key));
      return;
    }
    setTimeout(touch); // after the key has changed the input
  },
  true,
);
document.addEventListener("input", () => touch());

languageSwitch($("language"));
onLanguage(() => {
  renderHeader();
  renderRuling();
  if (step() === "words") {
    for (const label of $("word-fields").querySelectorAll("label")) label.textContent = t("judge.word_label", { n: label.dataset.word, count });
  }
  if (!sent) $("judge-button").textContent = t("judge.judge");
});

async function start() {
  if (!lock) {
    show("setup");
    $("setup-token").focus();
    return;
  }
  try {
    await refreshRound();
    startOver();
  } catch (error) {
    show("setup");
    message("setup-error", error);
  }
}

start();
document.body.dataset.ready = "true";
