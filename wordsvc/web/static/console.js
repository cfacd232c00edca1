// The referee console (docs/pages.md): sign in (a token, or a director's link), open a table, enter a round
// from the slip with each word judged as it is typed and the whole round previewed under the event's
// snapshot, store it once, read the echo back, correct a round (directors), watch the standings; a director
// also runs the tournament (tournament.js). What is typed is kept in the browser (drafts.js), outages are
// told and waited out (connection.js), and every problem is said in the page's language (slip_messages.js).
// This module holds the console's steps and wires them to the page: what the console knows is in
// console_state.js, drawing it in console_drawing.js, what it asks the service in console_network.js.

import { ApiError, languageSwitch, newestWins, onLanguage, t } from "./common.js";
import { isOnline, onConnection, showConnection, unreachable } from "./connection.js";
import { hideDashboard, showDashboard, tableOpened } from "./dashboard.js";
import { draftOf, dropDraft, forgetSignIn, keepDeviceAlive, keepDraft, keepSignIn, keptSignIn, takeSignInLink } from "./drafts.js";
import { bodyFields, cardsOf, draftPlay, fields, renderPlayers, setFields } from "./entry_form.js";
import { wireCardButtons, wireEnter } from "./entry_keys.js";
import { differences, samePlay } from "./round_diff.js";
import { refreshStandings, renderStandings, startStandings, stopStandings } from "./standings.js";
import { refusalMessage, slipMessages, tokenLooksRight, tokenMessage } from "./slip_messages.js";
import { hideTournament, showTournament } from "./tournament.js";
import { wireNewEvent } from "./new_event.js";
import { showCreatedLink } from "./venue_links.js";
import { clearVerdicts } from "./verdicts.js";
import { eventPath, finished, forgetAll, hand, mayCorrect, nextRound, refused, state, storedRound } from "./console_state.js";
import { $, drawForm, listTables, play, renderEntry, renderHeader, renderMessages, renderNext, renderPreview, renderStoredRounds, signInError, slip, typedAnything } from "./console_drawing.js";
import {
  askNext,
  askPreview,
  askVerdicts,
  cancelPreview,
  eventOf,
  followEvent,
  latestBody,
  readGame,
  reloadEvent,
  reloadGame,
  roundDetail,
  storeRound,
  unfollowEvent,
  watchOpenTable,
  whoami,
} from "./console_network.js";

// --- signing in ---------------------------------------------------------------------------------------

async function signIn(sentToken, eventId, tableId) {
  signInError(null);
  state.retrySignIn = null;
  if (!tokenLooksRight(sentToken)) {
    signInError(tokenMessage(sentToken)); // a typo: nothing is sent
    $("signin-token").focus();
    return;
  }
  try {
    const me = await whoami(sentToken);
    const id = me.event || eventId;
    if (!id) {
      $("signin-event-field").hidden = false; // an admin token: which event?
      $("signin-event").focus();
      return;
    }
    state.event = await eventOf(id, sentToken);
    state.token = sentToken;
    state.who = me;
    const { token, event, who } = state;
    keepSignIn(token, event.id, me.table || tableId);
    $("signin").hidden = $("new-event").hidden = true;
    $("signin-token").value = "";
    renderHeader();
    followEvent(); // the open table and every view below read again when the event's stream says they changed
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
    if (unreachable(error)) state.retrySignIn = [sentToken, eventId, tableId];
    signInError(error instanceof ApiError && error.status === 401 ? tokenMessage(sentToken) : refusalMessage(error, { table: tableId }));
  }
}

// A session was seated or reseated: the event's tables again, for the picker.
async function reloadTables() {
  try {
    await reloadEvent();
    listTables();
    const { event, game, table } = state;
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
  unfollowEvent();
  stopStandings();
  hideTournament();
  hideDashboard();
  forgetAll();
  for (const id of ["table-pick", "entry", "stored", "signin-event-field"]) $(id).hidden = true;
  $("signin").hidden = $("new-event").hidden = false;
  renderHeader();
  $("signin-token").focus();
}

// --- a table ------------------------------------------------------------------------------------------

async function openTable(id) {
  state.table = id;
  state.correcting = state.notice = state.failure = state.conflict = state.elsewhere = state.historyOf = null;
  state.upNext = undefined;
  await reloadGame();
  keepSignIn(state.token, state.event.id, id);
  tableOpened(id);
  // A draft of a round stored since it was typed (the tab was closed, another device stored it) opens first, to be compared.
  const { event, game } = state;
  const overtaken = game.rounds.find((r) => draftOf(event.id, id, r.round));
  state.roundNo = overtaken ? overtaken.round : nextRound();
  $("entry").hidden = false;
  listTables();
  buildEntry();
  renderStoredRounds();
  if (overtaken) await storedElsewhere(overtaken.round, fields(game.players));
}

// The entry form: one fieldset per seated player, in seat order; the round's kept draft, if any, back in it.
function buildEntry() {
  cancelPreview();
  clearVerdicts();
  state.preview = null;
  state.reached = -1;
  drawForm();
  if (!state.correcting) restoreDraft();
  renderEntry();
  if (finished()) offerNext();
}

function restoreDraft() {
  const { event, game, table } = state;
  const draft = draftOf(event.id, table, state.roundNo);
  if (!draft) return;
  const names = setFields(game.players, draft.players);
  state.reached = Math.max(-1, ...names.map((name) => game.players.indexOf(name)));
  const n = state.roundNo;
  const time = new Date(draft.saved_at);
  state.notice = () => t("console.restored", { n, time: time.toLocaleTimeString(document.documentElement.lang), players: names.join(", ") });
  for (const i of game.players.keys()) askVerdicts(i, 0);
  askPreview(0);
}

function keep() {
  const { correcting, event, game, table } = state;
  if (!correcting && game && !finished()) keepDraft(event.id, table, state.roundNo, fields(game.players));
}

// Puts `entries` (fields: a stored body's, bodyFields, or a draft's) in the form, every seat reached, and judges them.
function fill(entries) {
  setFields(state.game.players, entries);
  state.reached = state.game.players.length - 1;
  for (const i of state.game.players.keys()) askVerdicts(i, 0);
  askPreview(0);
}

// --- storing: once, whatever is clicked, and only when the service can be reached -----------------------

function submit() {
  if (state.pending) return; // a double click, or a store waiting for the connection: one round, one body
  state.failure = null;
  const n = state.roundNo; // the round the form was typed for: the only round this press may send
  if (!state.correcting && storedRound(n)) {
    // The table moved on: the round was stored from another device meanwhile. Nothing is sent, for it or any other round.
    state.failure = refused(() => [{ text: t("console.store_refused_stored", { n }) }]);
    renderEntry();
    if (state.conflict) $("conflict-heading").focus(); // the explanation, beside the entry
    return;
  }
  if (!state.correcting && !typedAnything()) {
    state.failure = refused(() => [{ text: t("console.nothing_typed", { n }) }]); // an empty round is never a play: nothing is sent
    renderEntry();
    $("words-0").focus();
    return;
  }
  const body = play();
  const headers = {};
  if (state.correcting) {
    const reason = $("reason").value.trim();
    if (!reason) {
      state.failure = refused(() => [{ text: t("console.needs_reason") }]);
      renderEntry();
      $("reason").focus();
      return;
    }
    body.correction = { reason };
    headers["If-Match"] = state.correcting.etag;
  }
  state.reached = state.game.players.length - 1;
  state.pending = { number: state.correcting ? state.correcting.round : n, body, headers };
  sendPending();
}

// Sends the store waiting, if the service can be reached: a lost answer leaves it waiting, to be sent again,
// the same body (a second PUT of the same play is a 200 from the ledger: one round, never two plays).
async function sendPending() {
  if (!state.pending || state.inFlight) return;
  if (!isOnline()) return renderEntry();
  state.inFlight = true;
  renderEntry();
  const { number, body, headers } = state.pending;
  const corrected = Boolean(state.correcting);
  try {
    const answer = await storeRound(number, body, headers);
    const revision = answer.body.revision;
    state.notice = () => t("console.stored", { n: number, revision });
    state.pending = state.correcting = state.conflict = state.elsewhere = state.failure = null; // what was said of this round ends with it
    state.inFlight = false;
    dropDraft(state.event.id, state.table, number);
    $("reason").value = "";
    await reloadGame();
    tableOpened(state.table); // the name at the top and the dashboard show the new round at once
    state.roundNo = corrected ? number : nextRound();
    buildEntry();
    renderStoredRounds();
    if (corrected) await showHistory(number);
    else if (!finished()) $("words-0").focus();
    else $("finished-heading").focus();
    refreshStandings();
  } catch (error) {
    state.inFlight = false;
    if (unreachable(error)) return renderEntry(); // still pending: sent again once the connection is back
    state.pending = null;
    if (error instanceof ApiError && error.problem.code === "round_differs") await storedElsewhere(number, fields(state.game.players), { pressed: true });
    else if (error instanceof ApiError && error.status === 412) await changedMeanwhile(number, body);
    else {
      const msgs = slipMessages(error, { ...slip(), round: number });
      state.failure = refused(() => msgs, error instanceof ApiError && error.status === 422);
    }
    renderEntry();
  }
}

// Round `number` was stored from another tab or device while `typed` (the form's fields) was typed for it here
// (docs/pages.md, "Another tab or device"). The same play: said, and the entry moves on to the next round.
// Another play: the entry stays as typed (not emptied, the focus where it was; `pressed`: the referee pressed
// Store, and the focus goes to the explanation), with the stored play beside it, what really differs, and what
// to do next (renderConflict).
async function storedElsewhere(number, typed, { pressed = false } = {}) {
  const inEntry = $("entry").contains(document.activeElement) || document.activeElement === document.body;
  try {
    const { body } = await latestBody(number);
    await reloadGame();
    const { event, game, table } = state;
    if (samePlay(game.players, body, draftPlay(typed))) {
      dropDraft(event.id, table, number);
      state.conflict = null;
      state.roundNo = nextRound();
      buildEntry();
      state.notice = () => `${t("console.stored_elsewhere", { n: number })} ${t("console.stored_elsewhere_same")}`;
      renderEntry();
      if (inEntry || pressed) $(finished() ? "finished-heading" : "words-0").focus();
    } else {
      const again = state.conflict && state.conflict.round === number; // compared again (a round stored or corrected since): said once
      state.conflict = { round: number, stored: body, asked: again ? state.conflict.asked : false };
      state.notice = null;
      keepDraft(event.id, table, number, typed); // this device's entry of the round, until discarded or made a correction
      if (state.roundNo !== number) {
        state.roundNo = number;
        buildEntry();
        setFields(game.players, typed);
      }
      renderEntry();
      if (!again) $("conflict").scrollIntoView({ block: "nearest" });
      if (pressed) $("conflict-heading").focus();
    }
    renderStoredRounds();
  } catch (error) {
    state.failure = refused(() => [refusalMessage(error, { round: number, table: state.table })]);
    renderEntry();
  }
}

// A director's correction of round `number` met a newer revision (412): the new version in the form, and what it changed of theirs.
async function changedMeanwhile(number, mine) {
  try {
    const { detail, body } = await latestBody(number);
    state.correcting = { round: number, etag: detail.etag };
    fill(bodyFields(body));
    state.historyOf = { round: number, revisions: detail.history };
    const lines = differences(state.game.players, body, mine, { words: "console.yours_words", unused: "console.yours_unused", out_there: "console.yours_out_there", out_here: "console.yours_out_here" });
    state.elsewhere = () => [t("console.changed_meanwhile", { n: number }), ...lines];
    await reloadGame();
    renderStoredRounds();
  } catch (error) {
    state.failure = refused(() => [refusalMessage(error, { round: number, table: state.table })]);
  }
}

// Drops this device's entry of the round in the form; one told apart from a round stored elsewhere gives way to the next round.
function discard() {
  const n = state.roundNo;
  dropDraft(state.event.id, state.table, n);
  if (state.conflict) {
    state.conflict = null;
    state.roundNo = nextRound();
  }
  state.failure = null;
  state.notice = () => t("console.discarded", { n });
  buildEntry();
  $(finished() ? "finished-heading" : "words-0").focus();
}

// A referee's next step when the round was stored with another play: a text for the director, to show or send.
function askCorrection() {
  state.conflict.asked = true;
  renderMessages();
  $("conflict-request").focus();
  $("conflict-request").select();
}

// A director's next step: a correction of the stored round with the entry typed here, asking only for the reason.
async function correctWithEntry() {
  const n = state.conflict.round;
  const typed = fields(state.game.players);
  try {
    const detail = await roundDetail(n);
    state.conflict = state.failure = state.notice = null;
    state.correcting = { round: n, etag: detail.etag };
    state.roundNo = n;
    buildEntry();
    fill(typed);
    state.historyOf = { round: n, revisions: detail.history };
    renderEntry();
    renderStoredRounds();
    $("reason").focus();
  } catch (error) {
    state.failure = refused(() => [refusalMessage(error, { round: n, table: state.table })]);
    renderEntry();
  }
}

// --- the echo, a finished game, what comes next -------------------------------------------------------

async function showHistory(number) {
  try {
    const detail = await roundDetail(number);
    state.historyOf = { round: number, revisions: detail.history };
  } catch (error) {
    state.failure = refused(() => [refusalMessage(error, { round: number, table: state.table })]);
    renderEntry();
  }
  renderStoredRounds();
}

async function startCorrection(number) {
  state.failure = state.elsewhere = state.notice = null;
  try {
    const detail = await roundDetail(number);
    state.correcting = { round: number, etag: detail.etag };
    state.roundNo = number;
    buildEntry();
    fill(bodyFields(detail.history[detail.history.length - 1].body));
    state.historyOf = { round: number, revisions: detail.history };
    renderStoredRounds();
    $("words-0").focus();
  } catch (error) {
    state.failure = refused(() => [refusalMessage(error, { round: number, table: state.table })]);
    renderEntry();
  }
}

async function offerNext() {
  if (await askNext()) renderNext();
}

// --- the open table, read again when the stream says a round of it was stored -------------------------

const rounds = (game) => JSON.stringify(game.rounds.map((r) => [r.round, r.revisions]));

// The open table as stored now: a round stored from another tab or device shows up, and is compared with this tab's entry.
const rereadGame = newestWins(async (current) => {
  if (!state.game || state.pending || state.inFlight) return;
  const seen = rounds(state.game);
  let now;
  try {
    now = await readGame();
  } catch {
    return;
  }
  if (!current() || state.pending || state.inFlight || !state.game || now.id !== state.game.id || rounds(now) === seen) return;
  const { correcting, conflict, roundNo } = state;
  const typedHere = !correcting && !conflict && now.rounds.some((r) => r.round === roundNo) && !storedRound(roundNo) && typedAnything();
  if (typedHere || conflict) return storedElsewhere(roundNo, fields(state.game.players)); // a conflict is compared again: a correction may have settled it
  state.game = now;
  if (!correcting && storedRound(roundNo)) {
    dropDraft(state.event.id, state.table, roundNo);
    state.roundNo = nextRound();
    state.elsewhere = null;
    buildEntry();
  } else renderEntry();
  renderStoredRounds();
});

keepDeviceAlive();
showConnection($("connection"));
onConnection((online) => {
  if (online && !state.who && state.retrySignIn) signIn(...state.retrySignIn);
  if (!state.game) return;
  if (online) {
    for (const i of state.game.players.keys()) askVerdicts(i, 0); // every mark checked again
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
watchOpenTable(rereadGame);
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
  state.roundNo = Number($("round-select").value);
  state.notice = state.failure = state.conflict = null;
  buildEntry();
  const draft = storedRound(state.roundNo) && draftOf(state.event.id, state.table, state.roundNo);
  if (draft) storedElsewhere(state.roundNo, draft.players); // this device's entry of a round stored elsewhere: compared again
});
$("players").addEventListener("input", (e) => {
  state.notice = null;
  if (state.failure && state.failure.slip) state.failure.retyped = true; // the preview of the slip typed again takes over
  else state.failure = null;
  const i = [...$("players").children].indexOf(e.target.closest("fieldset"));
  state.reached = Math.max(state.reached, i);
  if (e.target.classList.contains("words")) askVerdicts(i);
  renderPlayers($("players"), state.game.players, hand());
  keep();
  askPreview();
  renderMessages();
});
$("players").addEventListener("change", (e) => {
  if (!e.target.classList.contains("out")) return;
  keep();
  askPreview(0);
});
$("players").addEventListener("focusin", (e) => {
  const i = [...$("players").children].indexOf(e.target.closest("fieldset"));
  if (i > state.reached) {
    state.reached = i; // the referee moved on: the seats before are checked for their hand sizes
    renderPreview();
  }
});
wireEnter($("players"), { seats: () => state.game.players.length, full: (i) => cardsOf(i) === hand(), mayMarkOut: () => !state.pending, store: submit });
wireCardButtons($("card-buttons"), $("players"));
$("submit").addEventListener("click", submit);
$("discard").addEventListener("click", discard);
$("conflict-discard").addEventListener("click", discard);
$("conflict-ask").addEventListener("click", askCorrection);
$("conflict-correct").addEventListener("click", correctWithEntry);
$("cancel-correction").addEventListener("click", () => {
  const n = state.correcting.round;
  state.correcting = state.elsewhere = state.failure = null;
  $("reason").value = "";
  state.roundNo = nextRound();
  buildEntry();
  const draft = draftOf(state.event.id, state.table, n);
  if (draft) storedElsewhere(n, draft.players); // an entry a correction was to be made of is still this device's: told apart again
});
$("next-table").addEventListener("click", async () => {
  try {
    await openTable(state.upNext.id);
    $("words-0")?.focus();
  } catch (error) {
    state.failure = refused(() => [refusalMessage(error, { table: state.upNext.id })]);
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
// An event made on the sign-in screen: the console signs in as its director and shows the director's link to keep.
wireNewEvent(async (token, id) => {
  await signIn(token, id, null);
  if (state.token === token) await showCreatedLink();
});
onLanguage(() => {
  renderHeader();
  renderEntry();
  renderStoredRounds();
  renderStandings();
});

// A sign-in link (#event=…&table=…&token=…) first, then the sign-in this browser keeps.
const link = takeSignInLink();
const kept = keptSignIn();
if (link) signIn(link.token, link.event, link.table);
else if (kept && kept.token) signIn(kept.token, kept.event, kept.table);
else $("signin-token").focus();
document.body.dataset.ready = "true";
