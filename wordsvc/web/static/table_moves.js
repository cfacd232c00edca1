// A seat's moves, sent so that none is lost and none is played twice (docs/pages.md, "The table": nothing lost).
// A move is kept on the device (localStorage, by table) with the `seq` it was chosen at and its own `move_id`
// before it is sent: a lost network, a reload or a closed tab reopened sends the same move again when the service
// can be reached, and the service plays it once (the same id is answered again, never applied twice), or refuses it
// with the reason: the game moved on meanwhile (409 stale_move) or the rules refuse it (422).

import { call, onConnection, unreachable } from "./connection.js";

const PENDING_KEY = "wordsvc.play.pending";

function all() {
  try {
    return JSON.parse(localStorage.getItem(PENDING_KEY)) ?? {};
  } catch {
    return {};
  }
}

function keep(key, move) {
  const pending = all();
  if (move) pending[key] = move;
  else delete pending[key];
  localStorage.setItem(PENDING_KEY, JSON.stringify(pending));
}

function newId() {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return `m${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

// The moves of one seat of one table. `token()` is the seat's token; `onAnswer({state})` hears a move played,
// `onRefused(error, move)` a move the service refused (the move is dropped), `onWaiting(move)` a move kept until
// the service can be reached again (null once it is sent).
export function seatMoves({ event, game, token, onAnswer, onRefused, onWaiting }) {
  const key = `${event}/${game}`;
  const path = `/events/${encodeURIComponent(event)}/games/${encodeURIComponent(game)}/play/moves`;
  let sending = false;

  async function flush() {
    const move = all()[key];
    if (!move || sending) return;
    sending = true;
    try {
      const answer = await call("POST", path, { token: token(), body: move });
      keep(key, null);
      onAnswer(answer.body); // the new state first: the page never shows the old one with nothing waiting
      onWaiting(null);
    } catch (error) {
      if (unreachable(error)) onWaiting(move);
      else {
        keep(key, null);
        onWaiting(null);
        onRefused(error, move.move);
      }
    } finally {
      sending = false;
    }
  }

  onConnection((online) => {
    if (online) flush();
  });

  return {
    // Sends `move` chosen in the state `seq`; a move still waiting is sent first and this one is not taken.
    send(seq, move) {
      if (all()[key]) return false;
      keep(key, { seq, move_id: newId(), move });
      flush();
      return true;
    },
    waiting: () => all()[key]?.move ?? null,
    flush,
  };
}
