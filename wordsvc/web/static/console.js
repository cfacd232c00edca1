// The referee console (docs/pages.md): sign in, open a table, enter a round
// from the slip with each word judged as it is typed and the whole round
// previewed under the event's snapshot, store it once, read the echo back,
// correct a round (directors), watch the standings; a director also runs the tournament (tournament.js).

import { ApiError, api, compact, config, doubleCards, el, languageSwitch, onLanguage, t } from "./common.js";
import { hideTournament, showTournament } from "./tournament.js";
import { hideDashboard, showDashboard, tableOpened } from "./dashboard.js";

const SESSION_KEY = "wordsvc.console";
const $ = (id) => document.getElementById(id);
const DEBOUNCE_MS = 250;

let token = null;
let who = null; // GET /whoami
let event = null; // GET /events/{event}
let table = null; // its id
let game = null; // GET /events/{event}/games/{table}
let roundNo = 1;
let correcting = null; // {round, etag} while a director corrects a stored round
let inFlight = false;
let standingsTimer = 0;
let standings = null;
let standingsAt = null;
let preview = null; // the last preview's answer, or {problems: [...]}
let notice = null; // {key, params} of the last stored round
let historyOf = null; // {round, revisions}
let previewTimer = 0;
const verdictTimers = new Map();
const verdicts = new Map(); // player index -> [{word, valid, points}] of the words now in its field

const eventPath = () => `/events/${encodeURIComponent(event.id)}`;
const gamePath = () => `${eventPath()}/games/${encodeURIComponent(table)}`;
const mayCorrect = () => who && (who.role === "admin" || who.role === "director");

function problemText(error) {
  if (error instanceof ApiError && error.status === 401) return t("page.token_invalid");
  const lines = error instanceof ApiError ? error.lines() : [];
  return t("page.error", { detail: [error.message, ...lines].join(" · ") });
}

// --- signing in ---------------------------------------------------------------------------------------

async function signIn(sentToken, eventId) {
  $("signin-error").textContent = "";
  try {
    const me = (await api("GET", "/whoami", { token: sentToken })).body;
    const id = me.event || eventId;
    if (!id) {
      $("signin-event-field").hidden = false; // an admin token: which event?
      $("signin-event").focus();
      return;
    }
    event = (await api("GET", `/events/${encodeURIComponent(id)}`, { token: sentToken })).body;
    token = sentToken;
    who = me;
    sessionStorage.setItem(SESSION_KEY, JSON.stringify({ token, event: event.id }));
    $("signin").hidden = true;
    $("signin-token").value = "";
    renderHeader();
    startStandings();
    showDashboard({ token, event, who, openTable: openFromTournament });
    if (mayCorrect()) showTournament({ token, event, openTable: openFromTournament, tablesChanged: reloadTables });
    if (me.table) {
      await openTable(me.table);
    } else {
      listTables();
      $("table-select").focus();
    }
  } catch (error) {
    $("signin-error").textContent = problemText(error);
  }
}

// The table picker: every table of the event (none yet: a tournament before its first session).
function listTables() {
  $("table-select").replaceChildren(...event.games.map((g) => el("option", { value: g.id, text: `${g.id} · ${g.players.join(", ")}` })));
  $("table-pick").hidden = event.games.length === 0;
}

// A session was seated or reseated: the event's tables again, for the picker.
async function reloadTables() {
  try {
    event = (await api("GET", eventPath(), { token })).body;
    listTables();
    const now = event.games.find((g) => g.id === table);
    if (game && now && now.players.join("\n") !== game.players.join("\n")) await openTable(table); // the open table was reseated before its first round
  } catch {
    // the picker keeps the tables it had; the tournament view links every new table itself
  }
}

// "Enter rounds" on a session's table: the table opens here, as from the picker.
async function openFromTournament(id) {
  try {
    correcting = notice = historyOf = null;
    await openTable(id);
    $("entry").scrollIntoView();
    $("words-0").focus();
  } catch (error) {
    $("signin-error").textContent = problemText(error);
  }
}

function signOut() {
  sessionStorage.removeItem(SESSION_KEY);
  clearInterval(standingsTimer);
  hideTournament();
  hideDashboard();
  token = who = event = table = game = correcting = preview = notice = historyOf = null;
  for (const id of ["table-pick", "entry", "stored", "standings", "signin-event-field"]) $(id).hidden = true;
  $("signin").hidden = false;
  renderHeader();
  $("signin-token").focus();
}

function renderHeader() {
  $("who").hidden = $("lexicon-line").hidden = $("sign-out").hidden = !who;
  if (!who) return;
  $("who").textContent = t("console.signed_in_as", { role: t(`page.role.${who.role}`), event: event.name || event.id });
  $("lexicon").textContent = `${event.lexicon.id} ${event.lexicon.version}`;
}

// --- a table ------------------------------------------------------------------------------------------

async function openTable(id) {
  table = id;
  await reloadGame();
  tableOpened(id);
  roundNo = nextRound();
  $("entry").hidden = false;
  buildEntry();
  renderStored();
}

async function reloadGame() {
  game = (await api("GET", gamePath(), { token })).body;
}

function nextRound() {
  return Math.min(game.rounds.length + 1, event.ruleset.rounds.length);
}

const storedRound = (n) => game.rounds.find((r) => r.round === n);

// The entry form: one fieldset per seated player, in seat order.
function buildEntry() {
  clearTimeout(previewTimer);
  verdicts.clear();
  preview = null;
  $("round-select").replaceChildren(...event.ruleset.rounds.map((cards, i) => el("option", { value: i + 1 }, String(i + 1))));
  $("round-select").value = String(roundNo);
  $("round-select").disabled = Boolean(correcting);
  $("card-buttons").replaceChildren(
    ...doubleCards(event.ruleset.snapshot).map((card) => el("button", { type: "button", class: "quiet", "data-card": card.toLowerCase() }, card)),
  );
  $("players").replaceChildren(
    ...game.players.map((name, i) =>
      el(
        "fieldset",
        { class: "player", "data-player": name },
        el("legend", {}, name),
        el("div", { class: "stack" }, el("label", { for: `words-${i}`, "data-label": "console.words_of" }), el("input", { id: `words-${i}`, class: "words", type: "text", autocomplete: "off", autocapitalize: "none", spellcheck: "false" })),
        el("div", { class: "stack" }, el("label", { for: `unused-${i}`, "data-label": "console.unused_of" }), el("input", { id: `unused-${i}`, class: "unused", type: "text", autocomplete: "off", autocapitalize: "none", spellcheck: "false" })),
        el("label", { class: "check" }, el("input", { id: `out-${i}`, type: "checkbox", class: "out" }), el("span", { "data-label": "console.went_out" })),
        el("ul", { class: "verdicts", id: `verdicts-${i}`, "aria-live": "polite" }),
      ),
    ),
  );
  renderEntry();
}

function renderEntry() {
  if (!game) return;
  const cards = event.ruleset.rounds[roundNo - 1];
  $("entry-heading").textContent = t("console.round_heading", { n: roundNo, cards });
  for (const [i, name] of game.players.entries()) {
    const box = $("players").children[i];
    for (const label of box.querySelectorAll("[data-label]")) label.textContent = t(label.dataset.label, { player: name });
  }
  for (const button of $("card-buttons").children) button.setAttribute("aria-label", t("console.insert_card", { card: button.textContent }));
  for (const option of $("round-select").options) option.textContent = storedRound(Number(option.value)) ? `${option.value} ✓` : option.value;
  $("correcting").hidden = !correcting;
  $("reason-field").hidden = $("cancel-correction").hidden = !correcting;
  if (correcting) $("correcting").textContent = t("console.correcting", { n: correcting.round });
  const done = !correcting && Boolean(storedRound(roundNo)); // this round is stored and not being corrected: nothing to send
  $("submit").textContent = inFlight ? t("console.submitting") : correcting ? t("console.correction_submit") : t("console.submit", { n: roundNo });
  $("submit").disabled = inFlight || done;
  $("submit-status").hidden = !notice && !done;
  if (notice) $("submit-status").textContent = t(notice.key, notice.params);
  else if (done) $("submit-status").textContent = t("console.already_stored", { n: roundNo });
  for (const i of game.players.keys()) renderVerdicts(i);
  renderPreview();
}

// The words typed for player i, as they are sent.
const wordsOf = (i) => $(`words-${i}`).value.trim().split(/\s+/).filter(Boolean);

// What the form says, as the body of a submission.
function play() {
  return {
    players: game.players.map((name, i) => ({
      name,
      words: wordsOf(i),
      unused: $(`unused-${i}`).value.replace(/\s+/g, ""),
      went_out: $(`out-${i}`).checked,
    })),
  };
}

function fill(body) {
  for (const [i, name] of game.players.entries()) {
    const entry = body.players.find((p) => p.name === name) || { words: [], unused: [], went_out: false };
    $(`words-${i}`).value = entry.words.map(compact).join(" ");
    $(`unused-${i}`).value = compact(entry.unused);
    $(`out-${i}`).checked = Boolean(entry.went_out);
  }
  for (const i of game.players.keys()) askVerdicts(i, 0);
  askPreview(0);
}

// --- as it is typed: each word's verdict, then the whole round ----------------------------------------

function askVerdicts(i, delay = DEBOUNCE_MS) {
  clearTimeout(verdictTimers.get(i));
  verdictTimers.set(
    i,
    setTimeout(async () => {
      const words = wordsOf(i).slice(0, 64);
      if (!words.length) {
        verdicts.set(i, []);
        renderVerdicts(i);
        return;
      }
      try {
        const answer = await api("POST", "/validate", { body: { ruleset: event.ruleset.id, lang: event.lexicon.id, words } });
        if (words.join(" ") !== wordsOf(i).slice(0, 64).join(" ")) return; // typed on since
        verdicts.set(
          i,
          answer.body.verdicts.map((v) => ({ word: v.word, valid: v.valid, points: v.spellings.length ? v.spellings[0].points : null, reason: v.reasons[0]?.message })),
        );
      } catch (error) {
        verdicts.set(i, [{ word: words.join(" "), valid: false, points: null, reason: problemText(error) }]);
      }
      renderVerdicts(i);
    }, delay),
  );
}

function renderVerdicts(i) {
  const list = $(`verdicts-${i}`);
  if (!list) return;
  list.replaceChildren(
    ...(verdicts.get(i) || []).map((v) =>
      el(
        "li",
        { class: v.valid ? "ok" : "no", title: v.reason || null },
        `${v.word} ${t(v.valid ? "console.valid" : "console.invalid")}${v.points === null ? "" : ` · ${t("console.points", { points: v.points })}`}`,
      ),
    ),
  );
}

function askPreview(delay = DEBOUNCE_MS) {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(async () => {
    const body = play();
    const sent = JSON.stringify(body);
    try {
      const answer = await api("POST", `${gamePath()}/rounds/${roundNo}/preview`, { token, body });
      if (sent !== JSON.stringify(play())) return;
      preview = answer.body;
    } catch (error) {
      if (sent !== JSON.stringify(play())) return;
      preview = { problems: error instanceof ApiError && error.status === 422 ? error.lines() : [problemText(error)] };
    }
    renderPreview();
  }, delay);
}

function bonusText(player, result) {
  const won = player.bonuses.map((b) => `${t(`console.bonus.${b.kind}`)} +${b.points}`);
  const tied = result.bonuses.filter((b) => b.tied.includes(player.name)).map((b) => `${t(`console.bonus.${b.kind}`)}: ${t("console.tied", { players: b.tied.join(", ") })}`);
  return [...won, ...tied].join("; ");
}

function wordsText(player) {
  return player.words.map((w) => `${w.word} ${w.counted ? "✓" : "✗"} ${w.points}`).join(", ");
}

// What adds up but looks wrong on a slip: nobody went out, or a player who went out holds an invalid word or cards.
function suspicions(result) {
  const lines = [];
  if (!result.players.some((p) => p.went_out_valid !== null)) lines.push(t("console.nobody_out"));
  for (const p of result.players) if (p.went_out_valid === false) lines.push(t("console.out_failed", { player: p.name }));
  return lines;
}

function renderPreview() {
  const lines = !preview ? [] : preview.problems || suspicions(preview.result);
  $("warnings").hidden = lines.length === 0;
  $("warning-list").replaceChildren(...lines.map((line) => el("li", {}, line)));
  const ok = preview && preview.result;
  $("preview").hidden = !ok;
  $("preview-waiting").hidden = Boolean(ok);
  if (!ok) return;
  const totals = Object.fromEntries(preview.running_totals.map((r) => [r.name, r.total]));
  $("preview").tBodies[0].replaceChildren(
    ...preview.result.players.map((p) =>
      el(
        "tr",
        { "data-player": p.name },
        el("th", { scope: "row" }, p.name),
        el("td", {}, wordsText(p)),
        el("td", { class: "n" }, p.unused_points ? `−${p.unused_points}` : "0"),
        el("td", {}, bonusText(p, preview.result)),
        el("td", { class: "n" }, String(p.total)),
        el("td", { class: "n" }, String(totals[p.name])),
      ),
    ),
  );
}

// --- storing: once, whatever is clicked ---------------------------------------------------------------

async function submit() {
  if (inFlight) return; // a double click sends one request; a retry of the same play is a 200 from the ledger anyway
  $("submit-error").textContent = "";
  const body = play();
  const headers = {};
  if (correcting) {
    const reason = $("reason").value.trim();
    if (!reason) {
      $("submit-error").textContent = t("console.needs_reason");
      $("reason").focus();
      return;
    }
    body.correction = { reason };
    headers["If-Match"] = correcting.etag;
  }
  inFlight = true;
  renderEntry();
  const number = correcting ? correcting.round : roundNo;
  try {
    const answer = await api("PUT", `${gamePath()}/rounds/${number}`, { token, body, headers });
    notice = { key: answer.status === 201 || correcting ? "console.stored" : "console.already_stored", params: { n: number, revision: answer.body.revision } };
    const corrected = Boolean(correcting);
    correcting = null;
    $("reason").value = "";
    await reloadGame();
    roundNo = corrected ? number : nextRound();
    inFlight = false;
    buildEntry();
    renderStored();
    if (corrected) await showHistory(number);
    refreshStandings();
  } catch (error) {
    inFlight = false;
    $("submit-error").textContent = problemText(error);
    renderEntry();
  }
}

// --- the echo: every stored round with its running totals; corrections and revisions ------------------

function renderStored() {
  if (!game) return;
  $("stored").hidden = game.rounds.length === 0;
  const head = el(
    "tr",
    {},
    el("th", { scope: "col", class: "n" }, t("page.round")),
    ...game.players.map((p) => el("th", { scope: "col", class: "n" }, p)),
    el("th", { scope: "col" }, t("console.receipt")),
    el("th", { scope: "col" }, ""),
  );
  $("stored-table").tHead.replaceChildren(head);
  $("stored-table").tBodies[0].replaceChildren(
    ...game.rounds.map((r) => {
      const scores = Object.fromEntries(r.result.players.map((p) => [p.name, p.total]));
      const running = Object.fromEntries(r.running_totals.map((p) => [p.name, p.total]));
      const actions = el(
        "td",
        {},
        el("button", { type: "button", class: "quiet", "data-history": r.round }, t("console.revisions", { count: r.revisions })),
        mayCorrect() ? el("button", { type: "button", class: "quiet", "data-correct": r.round }, t("console.correct", { n: r.round })) : null,
      );
      return el(
        "tr",
        { "data-round": r.round },
        el("th", { scope: "row", class: "n" }, String(r.round)),
        ...game.players.map((p) => el("td", { class: "n" }, `${scores[p]} → ${running[p]}`)),
        receiptCell(r.receipt),
        actions,
      );
    }),
  );
  renderHistory();
}

// A stored round's receipt (docs/ledger.md): its audit entry and the first 12 hex digits of the tree's root, the whole JSON on opening.
// Kept, it lets anyone check later that the ledger still holds the round: wordsvc audit verify --receipt FILE.
function receiptCell(receipt) {
  if (!receipt) return el("td", {}, "");
  const short = t("console.receipt_short", { seq: receipt.seq, root: receipt.root.slice(0, 12) });
  const unsigned = receipt.checkpoint.signature === null ? ` · ${t("console.receipt_unsigned")}` : "";
  return el(
    "td",
    { class: "receipt" },
    el("details", {}, el("summary", {}, short + unsigned), el("pre", { class: "receipt-json" }, JSON.stringify(receipt, null, 2))),
  );
}

async function showHistory(number) {
  try {
    const detail = (await api("GET", `${gamePath()}/rounds/${number}`, { token })).body;
    historyOf = { round: number, revisions: detail.history };
  } catch (error) {
    $("submit-error").textContent = problemText(error);
  }
  renderHistory();
}

function renderHistory() {
  $("history").hidden = !historyOf;
  if (!historyOf) return;
  $("history-heading").textContent = t("console.history_heading", { n: historyOf.round });
  $("history-list").replaceChildren(
    ...historyOf.revisions.map((rev) => {
      const item = el("li", {}, t("console.revision_line", { revision: rev.revision, at: new Date(rev.at).toLocaleString(document.documentElement.lang), actor: rev.actor }));
      const words = rev.body.players.map((p) => `${p.name}: ${p.words.map(compact).join(" ")}${p.unused.length ? ` (${compact(p.unused)})` : ""}`).join(" · ");
      item.append(el("br"), words);
      if (rev.reason) item.append(el("br"), t("console.reason", { reason: rev.reason }));
      return item;
    }),
  );
}

async function startCorrection(number) {
  $("submit-error").textContent = "";
  try {
    const detail = (await api("GET", `${gamePath()}/rounds/${number}`, { token })).body;
    correcting = { round: number, etag: detail.etag };
    notice = null;
    roundNo = number;
    buildEntry();
    fill(detail.history[detail.history.length - 1].body);
    historyOf = { round: number, revisions: detail.history };
    renderHistory();
    $("words-0").focus();
  } catch (error) {
    $("submit-error").textContent = problemText(error);
  }
}

// --- standings, refreshing by themselves --------------------------------------------------------------

function startStandings() {
  $("standings").hidden = false;
  clearInterval(standingsTimer);
  refreshStandings();
  standingsTimer = setInterval(refreshStandings, config.standings_poll_seconds * 1000);
}

async function refreshStandings() {
  if (!event) return;
  try {
    standings = (await api("GET", `${eventPath()}/standings`, { token })).body.standings;
    standingsAt = new Date();
  } catch {
    return; // the next poll tries again; the last table stays up
  }
  renderStandings();
}

function renderStandings() {
  if (!standings) return;
  $("standings-updated").textContent = t("console.updated", { time: standingsAt.toLocaleTimeString(document.documentElement.lang) });
  $("standings-table").tBodies[0].replaceChildren(
    ...standings.map((s) =>
      el("tr", {}, el("td", { class: "n" }, String(s.rank)), el("th", { scope: "row" }, s.player), el("td", {}, s.table), el("td", { class: "n" }, String(s.rounds)), el("td", { class: "n" }, String(s.total))),
    ),
  );
}

// --- wiring -------------------------------------------------------------------------------------------

$("signin-form").addEventListener("submit", (e) => {
  e.preventDefault();
  signIn($("signin-token").value.trim(), $("signin-event").value.trim());
});
$("sign-out").addEventListener("click", signOut);
$("table-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    $("table-pick").hidden = true;
    await openTable($("table-select").value);
  } catch (error) {
    $("table-pick").hidden = false;
    $("signin-error").textContent = problemText(error);
  }
});
$("round-select").addEventListener("change", () => {
  roundNo = Number($("round-select").value);
  notice = null;
  buildEntry();
});
$("players").addEventListener("input", (e) => {
  notice = null;
  const box = e.target.closest("fieldset");
  const i = [...$("players").children].indexOf(box);
  if (e.target.classList.contains("words")) askVerdicts(i);
  askPreview();
});
$("players").addEventListener("change", (e) => {
  if (e.target.classList.contains("out")) askPreview(0);
});
let lastField = null; // the words or unused field a card button writes into
$("players").addEventListener("focusin", (e) => {
  if (e.target.matches("input.words, input.unused")) lastField = e.target;
});
$("card-buttons").addEventListener("click", (e) => {
  const button = e.target.closest("button[data-card]");
  if (!button) return;
  const field = lastField || $("words-0");
  const at = field.selectionStart ?? field.value.length;
  const card = `(${button.dataset.card})`;
  field.value = field.value.slice(0, at) + card + field.value.slice(field.selectionEnd ?? at);
  field.focus();
  field.setSelectionRange(at + card.length, at + card.length);
  field.dispatchEvent(new Event("input", { bubbles: true }));
});
$("submit").addEventListener("click", submit);
$("cancel-correction").addEventListener("click", () => {
  correcting = null;
  $("reason").value = "";
  roundNo = nextRound();
  buildEntry();
});
$("stored-table").addEventListener("click", (e) => {
  const correct = e.target.closest("button[data-correct]");
  if (correct) startCorrection(Number(correct.dataset.correct));
  const history = e.target.closest("button[data-history]");
  if (history) showHistory(Number(history.dataset.history));
});

languageSwitch($("language"));
onLanguage(() => {
  renderHeader();
  renderEntry();
  renderStored();
  renderStandings();
});

const kept = JSON.parse(sessionStorage.getItem(SESSION_KEY) || "null");
if (kept && kept.token) signIn(kept.token, kept.event);
else $("signin-token").focus();
document.body.dataset.ready = "true";
