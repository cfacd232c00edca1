// The service's problems and refusals as a referee reads them, in the page's language (docs/pages.md,
// "Messages"): the player, the round and the cards named, and how to fix it; never a field path, a header
// or an ETag. The page maps what it knows (players.N, players.N.words.J, players.N.unused, players, round,
// correction, if-match, a status) with its own knowledge (names, the round's hand size); for anything else
// it says a sentence of its own and gives the service's words only as a secondary detail.
//
// A message is {text, detail, player, kind}: `detail` (or null) is the service's text, `player` the seat
// index the problem is about (or null), `kind` what it is ("count" for a hand that does not add up).

import { ApiError, el, t } from "./common.js";

// A token as wordsvc/ledger/records/principals.py makes it: "wsv_", 8 hex digits, "_", 43 URL-safe base64 characters.
export const TOKEN_LENGTH = 56;
const TOKEN = /^wsv_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/;

const message = (text, extra = {}) => ({ text, detail: null, player: null, kind: null, ...extra });
const unknown = (detail) => message(t("console.problem.unknown"), { detail });
const display = (word) => (word || "").toUpperCase();

// What to say of a token that was refused (401), or is not even shaped like one (then nothing is sent).
export function tokenMessage(token) {
  if (TOKEN.test(token)) return message(t("console.token_unknown", { length: TOKEN_LENGTH }));
  return message(t("console.token_malformed", { length: TOKEN_LENGTH, typed: [...token].length }));
}

export const tokenLooksRight = (token) => TOKEN.test(token);

// One problem of a slip (a 422's `errors` entry): `slip` is {players: names, round, hand, play}.
function slipProblem(path, text, slip) {
  const seat = /^players\.(\d+)(?:\.(words|unused)(?:\.(\d+))?)?(?:\.name)?$/.exec(path);
  if (seat) {
    const i = Number(seat[1]);
    const player = slip.players[i] ?? `#${i + 1}`;
    const entry = slip.play?.players[i];
    const noCard = /^no card '(.+)'/.exec(text);
    const bracket = /'\('|'\)'|bracket/.test(text);
    if (seat[2] === "words") {
      const n = Number(seat[3] ?? 0);
      const word = display(entry?.words[n]);
      if (noCard) return message(t("console.problem.no_card_word", { player, n: n + 1, word, card: noCard[1] }), { player: i });
      if (bracket) return message(t("console.problem.bracket_word", { player, n: n + 1, word }), { player: i });
      return message(t("console.problem.word", { player, n: n + 1, word }), { player: i, detail: text });
    }
    if (seat[2] === "unused") {
      if (noCard) return message(t("console.problem.no_card_unused", { player, card: noCard[1] }), { player: i });
      if (bracket) return message(t("console.problem.bracket_unused", { player }), { player: i });
      return message(t("console.problem.unused", { player }), { player: i, detail: text });
    }
    const held = /holds (\d+) card/.exec(text);
    if (held) {
      const key = Number(held[1]) < slip.hand ? "console.problem.too_few" : "console.problem.too_many";
      return message(t(key, { player, held: held[1], hand: slip.hand, round: slip.round }), { player: i, kind: "count" });
    }
    return message(t("console.problem.player", { player }), { player: i, detail: text });
  }
  if (path === "players") {
    const deck = /^(\d+) (\S+) cards in play; the deck holds (\d+)/.exec(text);
    if (deck) return message(t("console.problem.deck", { count: deck[1], card: deck[2], deck: deck[3] }));
    if (/only one player can go out/.test(text)) return message(t("console.problem.one_out"));
  }
  if (path === "round") return message(t("console.problem.round", { n: slip.round }));
  if (path === "correction") return message(t("console.problem.no_change", { n: slip.round }));
  return unknown(text);
}

// Every problem of a refused or previewed slip, as messages.
export function slipMessages(error, slip) {
  if (!(error instanceof ApiError) || error.status !== 422 || !error.problem.errors) return [refusalMessage(error, slip)];
  const out = [];
  for (const [path, texts] of Object.entries(error.problem.errors)) for (const text of [].concat(texts)) out.push(slipProblem(path, text, slip));
  return out;
}

// A refusal of anything the console asked, as one message. `about` is {round, table} where known.
export function refusalMessage(error, about = {}) {
  if (!(error instanceof ApiError)) return unknown(String(error?.message ?? error));
  const errors = error.problem.errors || {};
  const n = about.round;
  switch (error.status) {
    case 0:
    case 502:
    case 503:
    case 504:
      return message(t("console.problem.offline"));
    case 401:
      return message(t("console.token_unknown", { length: TOKEN_LENGTH }));
    case 403:
      return message(t("console.problem.forbidden"));
    case 404:
      if (errors.game) return message(t("console.problem.no_table", { table: about.table ?? "" }));
      if (errors.event) return message(t("console.problem.no_event"));
      if (errors.round) return message(t("console.problem.not_stored", { n }));
      break;
    case 409:
      if (errors.event) return message(t("console.problem.closed"));
      if (errors.body) return message(t("console.problem.stored_elsewhere", { n }));
      return message(t("console.problem.busy", { n }));
    case 412:
    case 428:
      return message(t("console.problem.changed", { n }));
    case 422:
      if (errors.correction) return message(t("console.problem.no_change", { n }));
      return message(t("console.problem.slip", { n }));
    default:
  }
  return unknown(error.problem.detail || error.message);
}

// A list item for a message: its text, and the service's own words beneath, smaller, when the page had no words of its own.
export function messageItem(msg) {
  const detail = msg.detail ? el("small", { class: "detail" }, `(${t("console.service_said", { detail: msg.detail })})`) : null;
  return el("li", {}, msg.text, detail ? " " : null, detail);
}

// The same as a paragraph's content.
export function messageText(msg) {
  return msg.detail ? `${msg.text} (${t("console.service_said", { detail: msg.detail })})` : msg.text;
}
