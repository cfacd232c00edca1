// The judge kiosk (docs/pages.md): how many words, the words, one press to
// judge, one verdict filling the screen. It calls the event's judge endpoint
// only, which answers acceptable or not and never which word. It follows the
// event's stream (stream.js): the round it shows moves on as the table's rounds
// are stored, and a closed event is told at once.

import { ApiError, api, config, doubleCards, el, languageChosen, languageSwitch, localeOf, newestWins, onLanguage, setLocale, t } from "./common.js";
import { subscribe } from "./stream.js";

const LOCK_KEY = "wordsvc.judge";
const MAX_WORD = 256; // the longest word the judge endpoint takes (MAX_TEXT of wordsvc/schemas/common.py)
const timing = config.judge;
const $ = (id) => document.getElementById(id);
const STEPS = ["setup", "count", "words", "result"];
const ROUND_CHANGES = ["round.stored", "round.corrected"];

let lock = readLock(); // {token, event, table} once set up
let event = null; // GET /events/{event}
let feed = null; // the event's stream, while the kiosk is set up
let round = 1;
let count = 0;
let sent = false; // the first press of "judge" locks the input until the ruling is shown
let shownAt = 0;
let resultTimer = 0;
let idleTimer = 0;
let ruling = null;
const problems = {}; // element id -> [key, params] of the refusal it shows, drawn again when the language changes

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
  $("event-closed").hidden = !locked || event.status !== "closed";
  if (locked) {
    $("locked-to").textContent = t("judge.locked_to", { event: event.name || event.id, table: lock.table, round });
    $("lexicon").textContent = `${event.lexicon.id} ${event.lexicon.version}`;
  }
}

// A refusal in the page's words: which judge.* message an error of the service (or of the network) is told as.
// The service's own text (a field path, "see errors", a status) is never shown. `setup`: a token being set up,
// not the kiosk's own, is refused.
function refusal(error, setup = false) {
  const where = { table: lock ? lock.table : "", event: event ? event.name || event.id : lock ? lock.event : "" };
  if (!(error instanceof ApiError)) return ["judge.failed", {}];
  const entries = error.entries(); // chosen by code (docs/problems.md) and field path, never by the service's text
  const word = entries.map(({ path }) => /^words\.(\d+)$/.exec(path)).find(Boolean);
  if (error.status === 0) return ["judge.offline", {}];
  if (setup && [401, 403, 404].includes(error.status)) return ["judge.token_invalid", {}];
  if (error.status === 401) return ["judge.token_revoked", {}];
  if (error.status === 403) return ["judge.forbidden", where];
  if (error.status === 404 || entries.some(({ code }) => code === "table_not_found")) return ["judge.gone", where];
  if (error.status === 409) return ["judge.closed", {}];
  if (error.status === 422 && word) return ["judge.word_refused", { n: Number(word[1]) + 1 }];
  if (error.status === 429 || error.status === 503) return ["judge.busy", {}];
  return ["judge.failed", {}];
}

function tell(target, problem) {
  if (problem) problems[target] = problem;
  else delete problems[target];
  $(target).textContent = problem ? t(...problem) : "";
}

// --- set-up: a kiosk (or referee) token entered once locks the kiosk to its event and table -------------------

let pending = null; // {token, who} while a token open to every table waits for its table to be chosen

async function setUp() {
  tell("setup-error", null);
  const token = $("setup-token").value.trim();
  try {
    if (pending && pending.token === token) {
      await lockTo({ token, event: pending.who.event, table: $("setup-table").value });
      return;
    }
    const who = (await api("GET", "/whoami", { token })).body;
    if (!who.event || !["kiosk", "referee", "director"].includes(who.role)) {
      tell("setup-error", ["judge.token_role", {}]);
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
    tell("setup-error", refusal(error, true));
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
  followEvent();
  startOver();
}

// The round a ruling is recorded under: the table's next round to be stored, the last once all are. The event
// (read again: a director may have accepted a new lexicon) counts each table's rounds; no stored play is read.
const refreshRound = newestWins(async (current) => {
  const read = (await api("GET", `/events/${encodeURIComponent(lock.event)}`, { token: lock.token })).body;
  if (!current()) return; // a read begun later is shown already
  event = read;
  const game = event.games.find((g) => g.id === lock.table);
  round = Math.min((game ? game.rounds_played : 0) + 1, event.ruleset.rounds.length);
  speakTablesLanguage();
  renderHeader();
});

// The kiosk speaks its table's language, the event's (its lexicon's: `de` at a German event, `is` at an Icelandic
// one), unless someone chose another (common.js languageChosen: the switch, ?locale=, a browser set to a language
// the service speaks other than English). Until it is set up, the browser's.
function speakTablesLanguage() {
  const wanted = languageChosen() ? null : localeOf(event.lexicon.id);
  if (wanted && wanted !== document.documentElement.lang) setLocale(wanted); // draws the page in it
}

// The event's stream: the table's rounds and the event's closing read the event again (a failed read keeps
// what is shown: the next message, poll or press reads again).
function followEvent() {
  feed?.close();
  const reread = () => refreshRound().catch(() => {});
  const concerns = (type, change) => type === "ready" || type === "event.closed" || (ROUND_CHANGES.includes(type) && change.game === lock.table);
  feed = subscribe(lock.event, { token: lock.token, onPoll: reread, onMessage: (type, change) => concerns(type, change) && reread() });
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
  tell("judge-error", null);
  $("judge-button").disabled = false;
  $("judge-button").textContent = t("judge.judge");
  show("count");
  renderHeader();
  $("count-input").focus();
}

// The words step's prompt, with the hint for a double card of this event's deck (none when it has none).
function renderWordsPrompt() {
  const example = event ? doubleExample(event.ruleset.snapshot) : "";
  $("words-prompt").textContent = example ? t("judge.words_prompt", { example }) : t("judge.words_prompt_plain");
}

// How to type a double card, shown with a word of the event's deck: the first of its language's examples (the page's
// configuration, from each manifest's double_examples) whose double card the deck has; each is a word its lexicon
// accepts (tests/test_held_words.py). A deck whose doubles have no example shows its first double alone; none, no hint.
function doubleExample(snapshot) {
  const doubles = doubleCards(snapshot).map((face) => face.toLowerCase());
  if (!doubles.length) return "";
  // Each language's examples come from its manifest (wordlists/<folder>/manifest.yaml, double_examples), by its tags.
  const examples = config.double_examples[snapshot.language] || config.double_examples[String(snapshot.language).split("-")[0]] || [];
  return examples.find((word) => doubles.includes(/\((.+?)\)/.exec(word)[1])) || `(${doubles[0]})`;
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
        el("input", { id, type: "text", autocomplete: "off", autocapitalize: "none", spellcheck: "false", required: true, maxlength: MAX_WORD, class: "word" }),
      ),
    );
  }
  $("word-fields").replaceChildren(...fields);
  renderWordsPrompt();
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
  tell("judge-error", null);
  for (const input of inputs) input.removeAttribute("aria-invalid");
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
    const problem = refusal(error);
    tell("judge-error", problem);
    if (problem[0] === "judge.word_refused") {
      const input = inputs[problem[1].n - 1];
      input.setAttribute("aria-invalid", "true");
      input.focus();
    }
  }
}

function showRuling() {
  renderRuling();
  show("result");
  fitWords(); // measured once the ruling is on the screen
  document.body.dataset.verdict = ruling.acceptable ? "acceptable" : "unacceptable";
  shownAt = performance.now();
  resultTimer = setTimeout(startOver, timing.result_seconds * 1000);
}

function renderRuling() {
  if (!ruling) return;
  $("result-symbol").textContent = ruling.acceptable ? "✓" : "✗";
  $("result-text").textContent = t(ruling.acceptable ? "judge.acceptable" : "judge.unacceptable");
  $("result-words").replaceChildren(...ruling.words.map((word) => el("li", { lang: event.lexicon.id }, word)));
  // The style sheet sizes the words to fit the longest on the screen's width; all alike, so none stands out.
  $("result-words").style.setProperty("--letters", String(Math.max(...ruling.words.map((word) => [...word].length))));
  fitWords();
  $("result-lexicon").textContent = `${t("page.lexicon")}: ${ruling.lexicon.id} ${ruling.lexicon.version}`;
}

// A word is never broken (a letter split from its card, or a word across two lines, reads as two words): when the
// longest does not fit the screen's width at the size the style sheet gives it, every word shrinks alike until it
// does (--fit, measured, so wide letters count as wide).
function fitWords() {
  const list = $("result-words");
  list.style.removeProperty("--fit");
  const room = list.clientWidth;
  const widest = Math.max(0, ...[...list.children].map((word) => word.scrollWidth));
  if (room > 0 && widest > room) list.style.setProperty("--fit", String(Math.floor((room / widest) * 1000) / 1000));
}
addEventListener("resize", () => {
  if (!$("result").hidden) fitWords();
});

// Unfinished input clears itself after a while without a key.
function touch() {
  clearTimeout(idleTimer);
  const unfinished = step() === "words" || (step() === "count" && $("count-input").value !== "");
  if (unfinished && !sent) idleTimer = setTimeout(startOver, timing.idle_seconds * 1000);
}

// --- leaving needs a director's token of the event ---------------------------------------------------

async function leave() {
  tell("leave-error", null);
  const token = $("leave-token").value.trim();
  try {
    const who = (await api("GET", "/whoami", { token })).body;
    if (!(who.role === "admin" || (who.role === "director" && who.event === lock.event))) {
      tell("leave-error", ["judge.not_director", {}]);
      return;
    }
  } catch (error) {
    tell("leave-error", error instanceof ApiError && error.status === 401 ? ["judge.not_director", {}] : refusal(error));
    return;
  }
  $("leave-dialog").close();
  $("leave-token").value = "";
  localStorage.removeItem(LOCK_KEY);
  feed?.close();
  lock = feed = event = null;
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
  tell("leave-error", null);
  $("leave-dialog").showModal();
  $("leave-token").focus();
});
$("leave-form").addEventListener("submit", (e) => {
  e.preventDefault();
  leave();
});
$("leave-cancel").addEventListener("click", () => $("leave-dialog").close());

// A key or a tap on a ruling clears it, once WORDSVC_JUDGE_KEY_DELAY has passed since it was shown (a key still
// held, or a finger still on the glass, from the press that judged does not).
function dismiss(e) {
  e.preventDefault();
  if (performance.now() - shownAt >= timing.key_delay * 1000) startOver();
}

// The ruling covers the whole screen, so a tap anywhere lands on it. A click (which a tap makes, after the finger
// is lifted) rather than pointerdown: what the finger lifts over next is the ruling, never the form behind it.
$("result").addEventListener("click", (e) => {
  if (step() === "result") dismiss(e);
});
document.addEventListener("pointerdown", () => {
  if (step() !== "result") touch(); // a tap in unfinished input keeps it, as a key does
});

document.addEventListener(
  "keydown",
  (e) => {
    if ($("leave-dialog").open) return;
    if (step() === "result") {
      dismiss(e);
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
  for (const [target, problem] of Object.entries(problems)) $(target).textContent = t(...problem);
  renderWordsPrompt();
});

// A kiosk's sign-in link (/judge#event=…&token=…, from the director's dashboard): the token comes in the fragment,
// which no browser sends, and is taken out of the address at once; a kiosk not yet set up is set up with it (one
// already locked to a table stays so: leaving needs a director's token).
function takeKioskLink() {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ""));
  if (!fragment.has("token")) return null;
  history.replaceState(history.state, "", location.pathname + location.search);
  return (fragment.get("token") || "").trim();
}

async function start() {
  const linked = takeKioskLink();
  if (!lock && linked) {
    show("setup");
    $("setup-token").value = linked;
    await setUp();
    return;
  }
  if (!lock) {
    show("setup");
    $("setup-token").focus();
    return;
  }
  try {
    await refreshRound();
    followEvent();
    startOver();
  } catch (error) {
    show("setup");
    tell("setup-error", refusal(error));
  }
}

start();
document.body.dataset.ready = "true";
