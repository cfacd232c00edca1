// What the referee console knows (docs/pages.md): one object, `state`, that every part of the console reads
// and the console's steps (console.js) change, so that what the page holds is written in one place rather
// than in variables scattered over its modules; and the questions asked of it (which round, whether the
// game is finished, the paths of the open event and table). Nothing here touches the page or the network.

export const state = {
  token: null, // the bearer token signed in with
  who: null, // GET /whoami: {role, event, table}
  event: null, // GET /events/{event}
  table: null, // the open table's id
  game: null, // GET /events/{event}/games/{table}
  roundNo: 1, // the round in the form
  correcting: null, // {round, etag} while a director corrects a stored round
  inFlight: false, // a store is on its way
  pending: null, // {number, body, headers}: a store sent or waiting for the connection; the same body is sent until answered
  reached: -1, // the last seat the referee has moved to: hand sizes are checked up to it
  preview: null, // the last preview's answer, {problems: [messages]} or {offline: true}
  // What the entry says, each with its lifetime (docs/pages.md, "Messages and their lifetimes"):
  notice: null, // () => text of the last thing done (stored, restored, discarded, the same play stored elsewhere): until the next keystroke, round or table
  failure: null, // {lines: () => [messages], slip, retyped}: the last refusal; a slip's problems until the preview of the slip typed again answers, any other until the next keystroke
  conflict: null, // {round, stored}: the round in the form was stored from another device with another play (the stored body); until the entry is discarded or made a correction, or the table is left
  elsewhere: null, // () => [lines]: a director's correction met a newer version; until the correction is stored or cancelled
  historyOf: null, // {round, revisions}
  retrySignIn: null, // [token, event, table] of a sign-in the outage stopped: tried again once the service is back
  upNext: undefined, // a finished game's next table: {id, players}, null (none), undefined (not asked yet)
};

// A refusal to show under the entry: `lines()` its messages; `slip` when they are the slip's problems, which
// the preview of the slip typed again speaks for once it answers.
export const refused = (lines, slip = false) => ({ lines, slip, retyped: false });

// Forgets the sign-in, the event and the open table with all that was said of them (signing out).
export function forgetAll() {
  for (const key of ["token", "who", "event", "table", "game", "correcting", "preview", "notice", "failure", "conflict", "elsewhere", "historyOf", "pending"]) state[key] = null;
}

export const eventPath = () => `/events/${encodeURIComponent(state.event.id)}`;
export const gamePath = () => `${eventPath()}/games/${encodeURIComponent(state.table)}`;
export const mayCorrect = () => state.who && (state.who.role === "admin" || state.who.role === "director");
export const roundCount = () => state.event.ruleset.rounds.length;
// Every round stored, and none being corrected or told apart from the entry typed here.
export const finished = () => Boolean(state.game) && state.game.rounds.length >= roundCount() && !state.correcting && !state.conflict;
// The cards dealt in the round in the form.
export const hand = () => state.event.ruleset.rounds[state.roundNo - 1];
// The round to enter next: the first not stored, or the last.
export const nextRound = () => Math.min(state.game.rounds.length + 1, roundCount());
export const storedRound = (n) => state.game.rounds.find((r) => r.round === n);
