// The referee console (docs/pages.md): sign in (a token, or a director's link), open a table, enter a round
// from the slip with each word judged as it is typed and the whole round previewed under the event's
// snapshot, store it once, read the echo back, correct a round (directors), watch the standings; a director
// also runs the tournament (tournament.js). What is typed is kept in the browser (drafts.js), outages are
// told and waited out (connection.js), and every problem is said in the page's language (slip_messages.js).

import { ApiError, doubleCards, el, languageSwitch, newestWins, onLanguage, t } from "./common.js";
import { call, isOnline, onConnection, showConnection, unreachable } from "./connection.js";
import { hideDashboard, showDashboard, tableOpened } from "./dashboard.js";
import { follow, unfollow, watch } from "./event_feed.js";
import { draftOf, dropDraft, forgetSignIn, keepDraft, keepSignIn, keptSignIn, takeSignInLink } from "./drafts.js";
import { bodyFields, buildPlayers, cardsOf, draftPlay, fields, play as formPlay, renderPlayers, setFields, typed, wordsOf } from "./entry_form.js";
import { wireCardButtons, wireEnter } from "./entry_keys.js";
import { nextTable } from "./next_table.js";
import { renderFinished, renderHistory, renderPreview as renderPreviewTable, renderStored, suspicions } from "./results.js";
import { differences } from "./round_diff.js";
import { refreshStandings, renderStandings, startStandings, stopStandings } from "./standings.js";
import { messageItem, messageText, refusalMessage, slipMessages, tokenLooksRight, tokenMessage } from "./slip_messages.js";
import { hideTournament, showTournament } from "./tournament.js";
import { askVerdicts as ask, clearVerdicts, renderVerdicts } from "./verdicts.js";

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
let pending = null; // {number, body, headers}: a store sent or waiting for the connection; the same body is sent until answered
let reached = -1; // the last seat the referee has moved to: hand sizes are checked up to it
let preview = null; // the last preview's answer, {problems: [messages]} or {offline: true}
let notice = null; // () => text of the last thing done (stored, restored, discarded)
let failure = null; // () => [messages] of the last refusal
let elsewhere = null; // () => [lines]: a round stored from another tab or device, or a correction made meanwhile
let historyOf = null; // {round, revisions}
let retrySignIn = null; // [token, event, table] of a sign-in the outage stopped: tried again once the service is back
let upNext = undefined; // a finished game's next table: {id, players}, null (none), undefined (not asked yet)
let previewTimer = 0;

const eventPath = () => `/events/${encodeURIComponent(event.id)}`;
const gamePath = () => `${eventPath()}/games/${encodeURIComponent(table)}`;
const mayCorrect = () => who && (who.role === "admin" || who.role === "director");
const roundCount = () => event.ruleset.rounds.length;
const finished = () => Boolean(game) && game.rounds.length >= roundCount() && !correcting;
const hand = () => event.ruleset.rounds[roundNo - 1];

// --- signing in ---------------------------------------------------------------------------------------

function signInError(msg) {
  $("signin-error").textContent = msg ? messageText(msg) : "";
}

async function signIn(sentToken, eventId, tableId) {
  signInError(null);
  retrySignIn = null;
  if (!tokenLooksRight(sentToken)) {
    signInError(tokenMessage(sentToken)); // a typo: nothing is sent
    $("signin-token").focus();
    return;
  }
  try {
    const me = (await call("GET", "/whoami", { token: sentToken })).body;
    const id = me.event || eventId;
    if (!id) {
      $("signin-event-field").hidden = false; // an admin token: which event?
      $("signin-event").focus();
      return;
    }
    event = (await call("GET", `/events/${encodeURIComponent(id)}`, { token: sentToken })).body;
    token = sentToken;
    who = me;
    keepSignIn(token, event.id, me.table || tableId);
    $("signin").hidden = true;
    $("signin-token").value = "";
    renderHeader();
    follow(event.id, token); // the open table and every view below read again when the event's stream says they changed
    startStandings(token, eventPath());
    showDashboard({ token, event, who, openTable: openFromTournament });
    if (mayCorrect()) showTournament({ token, event, openTable: openFromTournament, tablesChanged: reloadTables });
    const open = me.table || (tableId && event.games.some((g) => g.id === tableId) ? tableId : null);
    listTables();
    if (open) {
      await openTable(open);
      $("words-0")?.focus();
    } else {
      $("table-select").focus();
    }
  } catch (error) {
    if (unreachable(error)) retrySignIn = [sentToken, eventId, tableId];
    signInError(error instanceof ApiError && error.status === 401 ? tokenMessage(sentToken) : refusalMessage(error, { table: tableId }));
  }
}

// The table picker: every table of the event (none yet: a tournament before its first session); hidden while a table is open.
function listTables() {
  $("table-select").replaceChildren(...event.games.map((g) => el("option", { value: g.id, text: `${g.id} · ${g.players.join(", ")}` })));
  if (table) $("table-select").value = table;
  $("table-pick").hidden = event.games.length === 0 || (who.table && table);
}

// A session was seated or reseated: the event's tables again, for the picker.
async function reloadTables() {
  try {
    event = (await call("GET", eventPath(), { token })).body;
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
    await openTable(id);
    $("entry").scrollIntoView();
    $("words-0")?.focus();
  } catch (error) {
    signInError(refusalMessage(error, { table: id }));
  }
}

function signOut() {
  forgetSignIn();
  unfollow();
  stopStandings();
  hideTournament();
  hideDashboard();
  token = who = event = table = game = correcting = preview = notice = failure = elsewhere = historyOf = pending = null;
  for (const id of ["table-pick", "entry", "stored", "signin-event-field"]) $(id).hidden = true;
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
  correcting = notice = failure = elsewhere = historyOf = null;
  upNext = undefined;
  await reloadGame();
  keepSignIn(token, event.id, id);
  tableOpened(id);
  roundNo = nextRound();
  $("entry").hidden = false;
  listTables();
  buildEntry();
  renderStored_();
  // A draft of a round stored since it was typed (the tab was closed, another device stored it): compared, then dropped.
  const overtaken = game.rounds.find((r) => draftOf(event.id, table, r.round));
  if (overtaken) await storedElsewhere(overtaken.round, draftPlay(draftOf(event.id, table, overtaken.round).players));
}

async function reloadGame() {
  game = (await call("GET", gamePath(), { token })).body;
}

const nextRound = () => Math.min(game.rounds.length + 1, roundCount());
const storedRound = (n) => game.rounds.find((r) => r.round === n);

// The entry form: one fieldset per seated player, in seat order; the round's kept draft, if any, back in it.
function buildEntry() {
  clearTimeout(previewTimer);
  clearVerdicts();
  preview = null;
  reached = -1;
  $("round-select").replaceChildren(...event.ruleset.rounds.map((cards, i) => el("option", { value: i + 1 }, String(i + 1))));
  $("round-select").value = String(roundNo);
  $("round-select").disabled = Boolean(correcting);
  $("card-buttons").replaceChildren(
    ...doubleCards(event.ruleset.snapshot).map((card) => el("button", { type: "button", class: "quiet", "data-card": card.toLowerCase() }, card)),
  );
  buildPlayers($("players"), game.players);
  if (!correcting && !finished()) restoreDraft();
  renderEntry();
  if (finished()) offerNext();
}

function restoreDraft() {
  const draft = draftOf(event.id, table, roundNo);
  if (!draft) return;
  const names = setFields(game.players, draft.players);
  reached = Math.max(-1, ...names.map((name) => game.players.indexOf(name)));
  const n = roundNo;
  const time = new Date(draft.saved_at);
  notice = () => t("console.restored", { n, time: time.toLocaleTimeString(document.documentElement.lang), players: names.join(", ") });
  for (const i of game.players.keys()) askVerdicts(i, 0);
  askPreview(0);
}

function renderEntry() {
  if (!game) return;
  const done = finished();
  $("entry-form").hidden = done;
  $("finished").hidden = !done;
  $("entry-heading").textContent = done ? t("console.finished_heading", { table }) : t("console.round_heading", { table, n: roundNo, cards: hand() });
  renderPlayers($("players"), game.players, hand());
  for (const button of $("card-buttons").children) button.setAttribute("aria-label", t("console.insert_card", { card: button.textContent }));
  for (const option of $("round-select").options) option.textContent = storedRound(Number(option.value)) ? `${option.value} ✓` : option.value;
  $("correcting").hidden = !correcting;
  $("reason-field").hidden = $("cancel-correction").hidden = !correcting;
  if (correcting) $("correcting").textContent = t("console.correcting", { n: correcting.round });
  const stored = !correcting && Boolean(storedRound(roundNo)); // this round is stored and not being corrected: nothing to send
  const waiting = pending && !inFlight;
  $("submit").textContent = waiting ? t("console.store_waiting") : inFlight ? t("console.submitting") : correcting ? t("console.correction_submit") : t("console.submit", { n: roundNo });
  $("submit").disabled = Boolean(pending) || stored;
  $("discard").hidden = Boolean(correcting) || stored || Boolean(pending) || !typedAnything();
  for (const input of $("players").querySelectorAll("input")) input.readOnly = Boolean(pending); // what is being stored is what was sent
  const status = done ? null : waiting ? t("console.store_queued", { n: pending.number }) : notice ? notice() : stored ? t("console.already_stored", { n: roundNo }) : null;
  $("submit-status").hidden = !status;
  $("submit-status").textContent = status || "";
  $("submit-error").replaceChildren(...(failure ? failure().map(messageItem) : []));
  $("elsewhere").hidden = !elsewhere;
  $("elsewhere-list").replaceChildren(...(elsewhere ? elsewhere().map((line) => el("li", {}, line)) : []));
  if (done) renderFinished($("finished"), game);
  renderNext();
  for (const i of game.players.keys()) renderVerdicts(i);
  renderPreview();
}

const play = () => formPlay(game.players);
const typedAnything = () => Boolean(game) && fields(game.players).some(typed);

function keep() {
  if (!correcting && game && !finished()) keepDraft(event.id, table, roundNo, fields(game.players));
}

function fill(body) {
  setFields(game.players, bodyFields(body));
  reached = game.players.length - 1;
  for (const i of game.players.keys()) askVerdicts(i, 0);
  askPreview(0);
}

// --- as it is typed: each word's verdict, then the whole round ----------------------------------------

const askVerdicts = (i, delay) => ask(i, () => wordsOf(i).slice(0, 64), { ruleset: event.ruleset.id, lang: event.lexicon.id }, delay);

function slip() {
  return { players: game.players, round: roundNo, hand: hand(), play: play() };
}

function askPreview(delay = DEBOUNCE_MS) {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(async () => {
    const body = play();
    const sent = JSON.stringify(body);
    if (!isOnline()) {
      preview = { offline: true };
      renderPreview();
      return;
    }
    try {
      const answer = await call("POST", `${gamePath()}/rounds/${roundNo}/preview`, { token, body });
      if (sent !== JSON.stringify(play())) return;
      preview = answer.body;
    } catch (error) {
      if (sent !== JSON.stringify(play())) return;
      preview = unreachable(error) ? { offline: true } : { problems: slipMessages(error, slip()) };
    }
    renderPreview();
  }, delay);
}

// The preview's problems that concern the seats reached so far: a hand not yet typed is not short of cards.
const shown = (problems) => problems.filter((m) => m.kind !== "count" || m.player === null || m.player <= reached);

function renderPreview() {
  const lines = !preview || preview.offline ? [] : preview.problems ? shown(preview.problems) : suspicions(preview.result);
  $("warnings").hidden = lines.length === 0;
  $("warning-list").replaceChildren(...lines.map(messageItem));
  const ok = preview && preview.result;
  $("preview").hidden = $("preview-bonuses").hidden = !ok;
  $("preview-waiting").hidden = Boolean(ok);
  $("preview-waiting").textContent = t(preview && preview.offline ? "console.preview_offline" : "console.preview_waiting");
  if (ok) renderPreviewTable($("preview"), $("preview-bonuses"), preview);
}

// --- storing: once, whatever is clicked, and only when the service can be reached -----------------------

function submit() {
  if (pending) return; // a double click, or a store waiting for the connection: one round, one body
  failure = null;
  const body = play();
  const headers = {};
  if (correcting) {
    const reason = $("reason").value.trim();
    if (!reason) {
      failure = () => [{ text: t("console.needs_reason") }];
      renderEntry();
      $("reason").focus();
      return;
    }
    body.correction = { reason };
    headers["If-Match"] = correcting.etag;
  }
  reached = game.players.length - 1;
  pending = { number: correcting ? correcting.round : roundNo, body, headers };
  sendPending();
}

// Sends the store waiting, if the service can be reached: a lost answer leaves it waiting, to be sent again,
// the same body (a second PUT of the same play is a 200 from the ledger: one round, never two plays).
async function sendPending() {
  if (!pending || inFlight) return;
  if (!isOnline()) return renderEntry();
  inFlight = true;
  renderEntry();
  const { number, body, headers } = pending;
  const corrected = Boolean(correcting);
  try {
    const answer = await call("PUT", `${gamePath()}/rounds/${number}`, { token, body, headers });
    const revision = answer.body.revision;
    notice = () => t("console.stored", { n: number, revision });
    pending = correcting = null;
    inFlight = false;
    dropDraft(event.id, table, number);
    $("reason").value = "";
    await reloadGame();
    tableOpened(table); // the name at the top and the dashboard show the new round at once
    roundNo = corrected ? number : nextRound();
    buildEntry();
    renderStored_();
    if (corrected) await showHistory(number);
    else if (!finished()) $("words-0").focus();
    else $("finished-heading").focus();
    refreshStandings();
  } catch (error) {
    inFlight = false;
    if (unreachable(error)) return renderEntry(); // still pending: sent again once the connection is back
    pending = null;
    if (error instanceof ApiError && error.status === 409 && error.problem.errors?.body) await storedElsewhere(number, body);
    else if (error instanceof ApiError && error.status === 412) await changedMeanwhile(number, body);
    else {
      const msgs = slipMessages(error, { ...slip(), round: number });
      failure = () => msgs;
    }
    renderEntry();
  }
}

async function latestBody(number) {
  const detail = (await call("GET", `${gamePath()}/rounds/${number}`, { token })).body;
  return { detail, body: detail.history[detail.history.length - 1].body };
}

// Round `number` was stored by another tab or device: say what it holds and how that differs from `here`, then move on.
async function storedElsewhere(number, here) {
  try {
    const { body } = await latestBody(number);
    const lines = differences(game.players, body, here, { words: "console.differs_words", unused: "console.differs_unused", out_there: "console.differs_out_there", out_here: "console.differs_out_here" });
    elsewhere = () => [t("console.stored_elsewhere", { n: number }), ...(lines.length ? lines : [t("console.stored_elsewhere_same")])];
    dropDraft(event.id, table, number);
    await reloadGame();
    roundNo = nextRound();
    notice = null;
    buildEntry();
    renderStored_();
  } catch (error) {
    failure = () => [refusalMessage(error, { round: number, table })];
  }
}

// A director's correction of round `number` met a newer revision (412): the new version in the form, and what it changed of theirs.
async function changedMeanwhile(number, mine) {
  try {
    const { detail, body } = await latestBody(number);
    correcting = { round: number, etag: detail.etag };
    fill(body);
    historyOf = { round: number, revisions: detail.history };
    const lines = differences(game.players, body, mine, { words: "console.yours_words", unused: "console.yours_unused", out_there: "console.yours_out_there", out_here: "console.yours_out_here" });
    elsewhere = () => [t("console.changed_meanwhile", { n: number }), ...lines];
    await reloadGame();
    renderStored_();
  } catch (error) {
    failure = () => [refusalMessage(error, { round: number, table })];
  }
}

function discard() {
  dropDraft(event.id, table, roundNo);
  const n = roundNo;
  notice = () => t("console.discarded", { n });
  buildEntry();
  $("words-0").focus();
}

// --- the echo, a finished game, what comes next -------------------------------------------------------

function renderStored_() {
  if (!game) return;
  $("stored").hidden = game.rounds.length === 0;
  renderStored($("stored-table"), game, mayCorrect());
  $("history").hidden = !historyOf;
  if (!historyOf) return;
  $("history-heading").textContent = t("console.history_heading", { n: historyOf.round });
  renderHistory($("history-list"), historyOf.revisions);
}

async function showHistory(number) {
  try {
    const detail = (await call("GET", `${gamePath()}/rounds/${number}`, { token })).body;
    historyOf = { round: number, revisions: detail.history };
  } catch (error) {
    failure = () => [refusalMessage(error, { round: number, table })];
    renderEntry();
  }
  renderStored_();
}

async function startCorrection(number) {
  failure = elsewhere = notice = null;
  try {
    const detail = (await call("GET", `${gamePath()}/rounds/${number}`, { token })).body;
    correcting = { round: number, etag: detail.etag };
    roundNo = number;
    buildEntry();
    fill(detail.history[detail.history.length - 1].body);
    historyOf = { round: number, revisions: detail.history };
    renderStored_();
    $("words-0").focus();
  } catch (error) {
    failure = () => [refusalMessage(error, { round: number, table })];
    renderEntry();
  }
}

async function offerNext() {
  if (upNext !== undefined) return;
  upNext = null;
  try {
    upNext = await nextTable({ token, who, event, table, rounds: roundCount() });
  } catch {
    upNext = undefined; // asked again when the game is drawn again
  }
  renderNext();
}

function renderNext() {
  $("next-table").hidden = !upNext || !finished();
  $("no-next").hidden = upNext !== null || !finished();
  $("no-next").textContent = t(who && who.table ? "console.ask_next_link" : "console.no_next");
  if (upNext) $("next-table").textContent = t("console.open_next", { table: upNext.id, players: upNext.players.join(", ") });
}

// --- the open table, read again when the stream says a round of it was stored -------------------------

// The open table as stored now: a round stored from another tab or device shows up, and is compared with this tab's entry.
const rereadGame = newestWins(async (current) => {
  if (!game || pending || inFlight) return;
  const seen = JSON.stringify(game.rounds.map((r) => [r.round, r.revisions]));
  let now;
  try {
    now = (await call("GET", gamePath(), { token })).body;
  } catch {
    return;
  }
  if (!current() || pending || inFlight || !game || now.id !== game.id || JSON.stringify(now.rounds.map((r) => [r.round, r.revisions])) === seen) return;
  const typedHere = !correcting && now.rounds.some((r) => r.round === roundNo) && !storedRound(roundNo) && typedAnything();
  if (typedHere) return storedElsewhere(roundNo, play());
  game = now;
  if (!correcting && storedRound(roundNo)) {
    dropDraft(event.id, table, roundNo);
    roundNo = nextRound();
    buildEntry();
  } else renderEntry();
  renderStored_();
});

showConnection($("connection"));
onConnection((online) => {
  if (online && !who && retrySignIn) signIn(...retrySignIn);
  if (!game) return;
  if (online) {
    for (const i of game.players.keys()) askVerdicts(i, 0); // every mark checked again
    askPreview(0);
    sendPending();
    refreshStandings();
  }
  renderEntry();
});

// --- wiring -------------------------------------------------------------------------------------------

$("signin-form").addEventListener("submit", (e) => {
  e.preventDefault();
  signIn($("signin-token").value.trim(), $("signin-event").value.trim(), null);
});
$("show-token").addEventListener("click", () => {
  const shown = $("signin-token").type === "password";
  $("signin-token").type = shown ? "text" : "password";
  $("show-token").setAttribute("aria-pressed", String(shown));
});
$("sign-out").addEventListener("click", signOut);
watch(["round.stored", "round.corrected"], rereadGame, (change) => change.game === table);
$("table-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  try {
    await openTable($("table-select").value);
    $("words-0")?.focus();
  } catch (error) {
    signInError(refusalMessage(error, { table: $("table-select").value }));
  }
});
$("round-select").addEventListener("change", () => {
  roundNo = Number($("round-select").value);
  notice = failure = null;
  buildEntry();
});
$("players").addEventListener("input", (e) => {
  notice = failure = null;
  const i = [...$("players").children].indexOf(e.target.closest("fieldset"));
  reached = Math.max(reached, i);
  if (e.target.classList.contains("words")) askVerdicts(i);
  renderPlayers($("players"), game.players, hand());
  keep();
  askPreview();
  $("discard").hidden = Boolean(correcting) || !typedAnything();
  $("submit-status").hidden = true;
});
$("players").addEventListener("change", (e) => {
  if (!e.target.classList.contains("out")) return;
  keep();
  askPreview(0);
});
$("players").addEventListener("focusin", (e) => {
  const i = [...$("players").children].indexOf(e.target.closest("fieldset"));
  if (i > reached) {
    reached = i; // the referee moved on: the seats before are checked for their hand sizes
    renderPreview();
  }
});
wireEnter($("players"), { seats: () => game.players.length, full: (i) => cardsOf(i) === hand(), mayMarkOut: () => !pending, store: submit });
wireCardButtons($("card-buttons"), $("players"));
$("submit").addEventListener("click", submit);
$("discard").addEventListener("click", discard);
$("cancel-correction").addEventListener("click", () => {
  correcting = elsewhere = failure = null;
  $("reason").value = "";
  roundNo = nextRound();
  buildEntry();
});
$("next-table").addEventListener("click", async () => {
  try {
    await openTable(upNext.id);
    $("words-0")?.focus();
  } catch (error) {
    failure = () => [refusalMessage(error, { table: upNext.id })];
    renderEntry();
  }
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
  renderStored_();
  renderStandings();
});

// A sign-in link (#event=…&table=…&token=…) first, then the sign-in this browser keeps.
const link = takeSignInLink();
const kept = keptSignIn();
if (link) signIn(link.token, link.event, link.table);
else if (kept && kept.token) signIn(kept.token, kept.event, kept.table);
else $("signin-token").focus();
document.body.dataset.ready = "true";
