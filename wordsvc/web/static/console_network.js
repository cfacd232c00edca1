// What the referee console asks the service, and hears from it (docs/pages.md, "What the pages call"):
// every call of the console's own, through connection.js (which notes an outage and probes until the
// service is back); the preview of the round being typed and each word's verdict, debounced; a finished
// game's next table; and the event's stream, which says when the open table changed. An answer that
// belongs to the console is written into its state (console_state.js); what to do with it, and when to
// draw, is the console's steps' business (console.js), except for the preview, drawn as it comes.

import { call, isOnline, unreachable } from "./connection.js";
import { renderMessages, renderPreview, play, slip } from "./console_drawing.js";
import { gamePath, eventPath, roundCount, state } from "./console_state.js";
import { wordsOf } from "./entry_form.js";
import { follow, unfollow, watch } from "./event_feed.js";
import { nextTable } from "./next_table.js";
import { slipMessages } from "./slip_messages.js";
import { askVerdicts as ask } from "./verdicts.js";

const DEBOUNCE_MS = 250;
let previewTimer = 0;

// --- signing in: the token is not the console's until both answered -----------------------------------

export const whoami = async (token) => (await call("GET", "/whoami", { token })).body;
export const eventOf = async (id, token) => (await call("GET", `/events/${encodeURIComponent(id)}`, { token })).body;

// --- the event and the open table, as stored now -------------------------------------------------------

export async function reloadEvent() {
  state.event = (await call("GET", eventPath(), { token: state.token })).body;
}

export async function reloadGame() {
  state.game = await readGame();
}

// The open table as stored now, without taking it for the state's (the caller compares first).
export const readGame = async () => (await call("GET", gamePath(), { token: state.token })).body;

// Round `number` of the open table: its revisions (`history`) and the ETag a correction names.
export const roundDetail = async (number) => (await call("GET", `${gamePath()}/rounds/${number}`, { token: state.token })).body;

// Round `number`'s detail and the body of its latest revision.
export async function latestBody(number) {
  const detail = await roundDetail(number);
  return { detail, body: detail.history[detail.history.length - 1].body };
}

// Stores round `number` of the open table (PUT): its answer, or the refusal thrown as `call` throws it.
export const storeRound = (number, body, headers) => call("PUT", `${gamePath()}/rounds/${number}`, { token: state.token, body, headers });

// --- as it is typed: each word's verdict, then the whole round ----------------------------------------

export const askVerdicts = (i, delay) => ask(i, () => wordsOf(i).slice(0, 64), { ruleset: state.event.ruleset.id, lang: state.event.lexicon.id }, delay);

export const cancelPreview = () => clearTimeout(previewTimer);

// The round in the form previewed under the event's snapshot after `delay`, and drawn; an answer to a form
// typed on since is dropped. While the service cannot be reached the preview waits (`{offline: true}`).
export function askPreview(delay = DEBOUNCE_MS) {
  clearTimeout(previewTimer);
  previewTimer = setTimeout(async () => {
    const body = play();
    const sent = JSON.stringify(body);
    if (!isOnline()) {
      state.preview = { offline: true };
      renderPreview();
      return;
    }
    try {
      const answer = await call("POST", `${gamePath()}/rounds/${state.roundNo}/preview`, { token: state.token, body });
      if (sent !== JSON.stringify(play())) return;
      state.preview = answer.body;
    } catch (error) {
      if (sent !== JSON.stringify(play())) return;
      state.preview = unreachable(error) ? { offline: true } : { problems: slipMessages(error, slip()) };
    }
    if (state.failure && state.failure.slip && state.failure.retyped && !state.preview.offline) state.failure = null; // the slip typed again speaks for itself now
    renderMessages();
    renderPreview();
  }, delay);
}

// --- a finished game's next table ---------------------------------------------------------------------

// Asks for the table to offer after a finished game, once a game: whether there is anything new to draw.
export async function askNext() {
  if (state.upNext !== undefined) return false;
  state.upNext = null;
  try {
    state.upNext = await nextTable({ token: state.token, who: state.who, event: state.event, table: state.table, rounds: roundCount() });
  } catch {
    state.upNext = undefined; // asked again when the game is drawn again
  }
  return true;
}

// --- the event's stream -------------------------------------------------------------------------------

// Follows the signed-in event: the open table and every view of the page read again when its stream says they changed.
export const followEvent = () => follow(state.event.id, state.token);
export const unfollowEvent = unfollow;

// Calls `reread()` when the stream says a round of the open table was stored or corrected.
export const watchOpenTable = (reread) => watch(["round.stored", "round.corrected"], reread, (change) => change.game === state.table);
