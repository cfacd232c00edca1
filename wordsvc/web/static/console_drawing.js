// The referee console's page (docs/pages.md): draws what the console knows (console_state.js) into the
// document, the header, the table picker, the entry form with its status, warnings and preview, the stored
// rounds and a finished game's next table, and reads the form back as a round's body. Drawing only reads
// the state and asks nothing of the service: the console's steps (console.js) change the state, then draw.

import { doubleCards, el, t } from "./common.js";
import { buildPlayers, fields, play as formPlay, renderPlayers, typed } from "./entry_form.js";
import { renderFinished, renderHistory, renderPreview as renderPreviewTable, renderStored, suspicions } from "./results.js";
import { besideRows, differences, playLine } from "./round_diff.js";
import { messageItem, messageText } from "./slip_messages.js";
import { finished, hand, mayCorrect, state, storedRound } from "./console_state.js";
import { renderVerdicts } from "./verdicts.js";

export const $ = (id) => document.getElementById(id);

// --- reading the form ---------------------------------------------------------------------------------

// The round in the form, as the body of a submission.
export const play = () => formPlay(state.game.players);
export const typedAnything = () => Boolean(state.game) && fields(state.game.players).some(typed);

// What the problems of the slip in the form are said with (slip_messages.js).
export function slip() {
  return { players: state.game.players, round: state.roundNo, hand: hand(), play: play() };
}

// --- signing in ---------------------------------------------------------------------------------------

export function signInError(msg) {
  $("signin-error").textContent = msg ? messageText(msg) : "";
}

export function renderHeader() {
  const { who, event } = state;
  $("who").hidden = $("lexicon-line").hidden = $("sign-out").hidden = !who;
  if (!who) return;
  $("who").textContent = t("console.signed_in_as", { role: t(`page.role.${who.role}`), event: event.name || event.id });
  $("lexicon").textContent = `${event.lexicon.id} ${event.lexicon.version}`;
}

// The table picker: every table of the event (none yet: a tournament before its first session); hidden while a table is open.
export function listTables() {
  const { event, table, who } = state;
  $("table-select").replaceChildren(...event.games.map((g) => el("option", { value: g.id, text: `${g.id} · ${g.players.join(", ")}` })));
  if (table) $("table-select").value = table;
  $("table-pick").hidden = event.games.length === 0 || (who.table && table);
}

// --- the entry form -----------------------------------------------------------------------------------

// The form of the round in the state, empty: the rounds to choose from, the double-letter cards, one fieldset per seated player.
export function drawForm() {
  const { event, game } = state;
  $("round-select").replaceChildren(...event.ruleset.rounds.map((cards, i) => el("option", { value: i + 1 }, String(i + 1))));
  $("round-select").value = String(state.roundNo);
  $("round-select").disabled = Boolean(state.correcting);
  $("card-buttons").replaceChildren(
    ...doubleCards(event.ruleset.snapshot).map((card) => el("button", { type: "button", class: "quiet", "data-card": card.toLowerCase() }, card)),
  );
  buildPlayers($("players"), game.players);
}

export function renderEntry() {
  const { game, roundNo, correcting, pending, inFlight } = state;
  if (!game) return;
  const done = finished();
  const table = state.table;
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
  // A round stored elsewhere while it was typed here keeps its button: pressed, it says why nothing is sent.
  $("submit").disabled = Boolean(pending) || (stored && !state.conflict);
  for (const input of $("players").querySelectorAll("input")) input.readOnly = Boolean(pending); // what is being stored is what was sent
  renderMessages();
  if (done) renderFinished($("finished"), game);
  renderNext();
  for (const i of game.players.keys()) renderVerdicts(i);
  renderPreview();
}

// Live regions are written only when what they say changes: the same words written again at every keystroke
// would be read out again.
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function setItems(list, items) {
  const now = [...list.children].map((item) => item.textContent);
  if (now.length !== items.length || items.some((item, i) => item.textContent !== now[i])) list.replaceChildren(...items);
}

// What the entry says: the status of the last thing done, the last refusal, a round stored elsewhere with
// another play (the stored play beside the one typed here, what differs, what to do) and a correction that
// met a newer version. Each is in the state until its cause is gone (console_state.js); a finished game
// shows none of them but a refusal of its own (its next table).
export function renderMessages() {
  const { game, roundNo, correcting, pending, inFlight, notice, failure, conflict, elsewhere } = state;
  if (!game) return;
  const done = finished();
  const stored = !correcting && Boolean(storedRound(roundNo));
  const waiting = pending && !inFlight;
  $("discard").hidden = Boolean(correcting) || stored || Boolean(pending) || !typedAnything();
  const status = done ? null : waiting ? t("console.store_queued", { n: pending.number }) : notice ? notice() : stored && !conflict ? t("console.already_stored", { n: roundNo }) : null;
  $("submit-status").hidden = !status;
  setText($("submit-status"), status || "");
  setItems($("submit-error"), failure ? failure.lines().map(messageItem) : []);
  $("elsewhere").hidden = !elsewhere || done;
  setItems($("elsewhere-list"), elsewhere && !done ? elsewhere().map((line) => el("li", {}, line)) : []);
  renderConflict(done ? null : conflict);
}

// The entry typed here beside the play stored from another device, their real differences, and the next step:
// a referee asks the director for a correction (a prepared text to show or send), a director corrects the round
// with this entry; either may discard the entry.
function renderConflict(conflict) {
  $("conflict").hidden = !conflict;
  if (!conflict) return;
  const { game, table } = state;
  const n = conflict.round;
  const here = play();
  const lines = differences(game.players, conflict.stored, here, { words: "console.differs_words", unused: "console.differs_unused", out_there: "console.differs_out_there", out_here: "console.differs_out_here" });
  setText($("conflict-heading"), t("console.stored_elsewhere", { n }));
  setText($("conflict-help"), t("console.conflict_help", { n }));
  setItems($("conflict-list"), (lines.length ? lines : [t("console.stored_elsewhere_same")]).map((line) => el("li", {}, line)));
  $("conflict-table").tBodies[0].replaceChildren(...besideRows(game.players, conflict.stored, here));
  $("conflict-ask").hidden = Boolean(mayCorrect()); // a director corrects the round instead
  $("conflict-correct").hidden = !mayCorrect();
  $("conflict-correct").textContent = t("console.conflict_correct", { n });
  $("conflict-discard").textContent = t("console.conflict_discard", { n });
  $("conflict-request-field").hidden = !conflict.asked;
  $("conflict-request").value = t("console.conflict_request", { table, n, stored: playLine(game.players, conflict.stored, false), here: playLine(game.players, here, true) });
}

// The preview's problems that concern the seats reached so far: a hand not yet typed is not short of cards.
const shown = (problems) => problems.filter((m) => m.kind !== "count" || m.player === null || m.player <= state.reached);

export function renderPreview() {
  const { preview } = state;
  const lines = !preview || preview.offline ? [] : preview.problems ? shown(preview.problems) : suspicions(preview.result);
  $("warnings").hidden = lines.length === 0;
  $("warning-list").replaceChildren(...lines.map(messageItem));
  const ok = preview && preview.result;
  $("preview").hidden = $("preview-bonuses").hidden = !ok;
  $("preview-waiting").hidden = Boolean(ok);
  $("preview-waiting").textContent = t(preview && preview.offline ? "console.preview_offline" : "console.preview_waiting");
  if (ok) renderPreviewTable($("preview"), $("preview-bonuses"), preview);
}

// --- the echo, a finished game, what comes next -------------------------------------------------------

// The open table's stored rounds and, when one was asked for, a round's revisions.
export function renderStoredRounds() {
  const { game, historyOf } = state;
  if (!game) return;
  $("stored").hidden = game.rounds.length === 0;
  renderStored($("stored-table"), game, mayCorrect());
  $("history").hidden = !historyOf;
  if (!historyOf) return;
  $("history-heading").textContent = t("console.history_heading", { n: historyOf.round });
  renderHistory($("history-list"), historyOf.revisions);
}

export function renderNext() {
  const { upNext, who } = state;
  $("next-table").hidden = !upNext || !finished();
  $("no-next").hidden = upNext !== null || !finished();
  $("no-next").textContent = t(who && who.table ? "console.ask_next_link" : "console.no_next");
  if (upNext) $("next-table").textContent = t("console.open_next", { table: upNext.id, players: upNext.players.join(", ") });
}
