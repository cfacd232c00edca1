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

// The figures a problem's message states, in order (a card quoted, counts): the words are chosen by code,
// only the values they name are taken from the message.
const quoted = (text) => /'([^']+)'/.exec(text)?.[1] ?? "";
const numbers = (text) => (text.match(/\d+/g) || []).map(Number);

// One problem of a slip (a 422's `errors` entry, {code, message}): `slip` is {players: names, round, hand, play}.
function slipProblem(path, code, text, slip) {
  const seat = /^players\.(\d+)(?:\.(words|unused)(?:\.(\d+))?)?(?:\.name)?$/.exec(path);
  if (seat) {
    const i = Number(seat[1]);
    const player = slip.players[i] ?? `#${i + 1}`;
    const entry = slip.play?.players[i];
    const noCard = code === "unknown_card" ? [null, quoted(text)] : null;
    const bracket = code === "unbalanced_parenthesis";
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
    if (code === "hand_size") {
      const held = numbers(text)[0];
      const key = held < slip.hand ? "console.problem.too_few" : "console.problem.too_many";
      return message(t(key, { player, held, hand: slip.hand, round: slip.round }), { player: i, kind: "count" });
    }
    return message(t("console.problem.player", { player }), { player: i, detail: text });
  }
  if (path === "players") {
    if (code === "too_many_copies") {
      const [count, deck] = numbers(text);
      return message(t("console.problem.deck", { count, card: text.split(" ")[1] ?? "", deck }));
    }
    if (code === "one_goes_out") return message(t("console.problem.one_out"));
  }
  if (path === "round") return message(t("console.problem.round", { n: slip.round }));
  if (path === "correction") return message(t("console.problem.no_change", { n: slip.round }));
  return unknown(text);
}

// Every problem of a refused or previewed slip, as messages.
export function slipMessages(error, slip) {
  if (!(error instanceof ApiError) || error.status !== 422 || !error.problem.errors) return [refusalMessage(error, slip)];
  const out = [];
  for (const { path, code, message: text } of error.entries()) out.push(slipProblem(path, code, text, slip));
  return out;
}

// A refusal of anything the console asked, as one message. `about` is {round, table} where known.
export function refusalMessage(error, about = {}) {
  if (!(error instanceof ApiError)) return unknown(String(error?.message ?? error));
  const code = error.problem.code; // docs/problems.md
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
      if (code === "table_not_found") return message(t("console.problem.no_table", { table: about.table ?? "" }));
      if (code === "event_not_found" || code === "deals_not_found") return message(t("console.problem.no_event"));
      if (code === "round_not_found") return message(t("console.problem.not_stored", { n }));
      break;
    case 409:
      if (code === "event_closed" || code === "no_seed") return message(t("console.problem.closed"));
      if (code === "round_differs") return message(t("console.problem.stored_elsewhere", { n }));
      return message(t("console.problem.busy", { n }));
    case 412:
    case 428:
      return message(t("console.problem.changed", { n }));
    case 422:
      if (code === "not_correctable") return message(t("console.problem.no_change", { n }));
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
