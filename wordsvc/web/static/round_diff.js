// A stored play beside the one typed in this tab (docs/pages.md, "Another tab or device"): whether they are
// the same play, and what really differs, player by player, in words ("ana laid QUIZ, here you have QUIT").
//
// "The same play" is the ledger's: a round's play is one document whatever order its words were given in
// (wordsvc/ledger/_db/plays.py, `in_order`: each player's words sorted by their cards, the cards left sorted
// by face), and cards are faces however they were written (wordsvc/core/cards.py, `parse_cards`: "(qu)iz",
// "(QU)IZ" and ["QU", "I", "Z"] are one word). So "JOB UGH VEX" against "JOB VEX UGH" is no difference, and
// nothing is listed for it; "QUIZ" against "(QU)IZ" is one (four cards against three), shown with brackets.
// Cards are shown as read on the slip, in capitals and without brackets, unless only the brackets differ.

import { compact, el, t } from "./common.js";

// A face as parse_cards normalizes it (case-folded, NFC; toLowerCase stands in for Python's casefold).
const face = (text) => text.normalize("NFC").toLowerCase();

// The faces of a word or of the cards left as typed: a bracketed group is one card, any other letter one.
export const facesOf = (text) => (String(text).match(/\([^()]*\)|[^\s()]/g) || []).map((card) => face(card.replace(/[()]/g, "")));

// One player's part of a play as the ledger compares it: `typed` when its words are text (play(), a draft),
// else faces (a stored body). Words in any order are the same words; so are the cards left.
function identity(p, typed) {
  const words = (p?.words || []).map((w) => JSON.stringify(typed ? facesOf(w) : w.map(face))).sort();
  const unused = (typed ? facesOf(p?.unused || "") : (p?.unused || []).map(face)).sort();
  return { words: words.join(" "), unused: unused.join(" "), out: Boolean(p?.went_out) };
}

const find = (play, name) => play.players.find((p) => p.name === name);

// What differs for one player between a stored part (faces) and a typed one: {words, unused, out}, each true or false.
function differing(a, b) {
  const [x, y] = [identity(a, false), identity(b, true)];
  return { words: x.words !== y.words, unused: x.unused !== y.unused, out: x.out !== y.out };
}

// Whether `stored` (a stored body) and `here` (play(): words as typed) are one play for every seat of `players`.
export const samePlay = (players, stored, here) => players.every((name) => !Object.values(differing(find(stored, name), find(here, name))).some(Boolean));

// Lines for each real difference between `stored` and `here`, in seat order of `players`; `keys` names the
// message of each kind: {words, unused, out_there, out_here}.
export function differences(players, stored, here, keys) {
  const cards = (faces) => faces.map((f) => f.toUpperCase()).join("");
  const read = (text) => text.replace(/[()]/g, "").toUpperCase();
  const nothing = t("console.nothing");
  const lines = [];
  for (const name of players) {
    const a = find(stored, name) || { words: [], unused: [], went_out: false };
    const b = find(here, name) || { words: [], unused: "", went_out: false };
    const differs = differing(a, b);
    if (differs.words) {
      const storedWords = a.words.map(cards).join(" ") || nothing;
      const hereWords = b.words.map(read).join(" ") || nothing;
      const notation = hereWords === storedWords; // only the brackets differ: show them on both sides
      lines.push(t(keys.words, { player: name, stored: notation ? a.words.map(compact).join(" ").toUpperCase() : storedWords, here: notation ? b.words.join(" ").toUpperCase() : hereWords }));
    }
    if (differs.unused) lines.push(t(keys.unused, { player: name, stored: cards(a.unused) || nothing, here: read(String(b.unused)) || nothing }));
    if (differs.out) lines.push(t(a.went_out ? keys.out_there : keys.out_here, { player: name }));
  }
  return lines;
}

// A player's part as one short text, the way the slip reads: "JOB UGH VEX (G) · ana went out".
function summary(name, p, typed) {
  if (!p) return t("console.nothing");
  const words = typed ? p.words.join(" ").toUpperCase() : p.words.map(compact).join(" ").toUpperCase();
  const unused = typed ? String(p.unused).toUpperCase() : compact(p.unused).toUpperCase();
  const parts = [`${words || t("console.nothing")}${unused ? ` (${unused})` : ""}`];
  if (p.went_out) parts.push(t("console.went_out", { player: name }));
  return parts.join(" · ");
}

// The rows of the stored play beside the typed one, a player a row: player, stored, typed here.
export function besideRows(players, stored, here) {
  return players.map((name) => {
    const [a, b] = [find(stored, name), find(here, name)];
    const differs = Object.values(differing(a, b)).some(Boolean);
    return el("tr", { "data-player": name, class: differs ? "differs" : null }, el("th", { scope: "row" }, name), el("td", {}, summary(name, a, false)), el("td", {}, summary(name, b, true)));
  });
}

// Both plays in one line each, for the text a referee hands the director: "ana: JOB UGH VEX; bo: …".
export const playLine = (players, play, typed) => players.map((name) => `${name}: ${summary(name, find(play, name), typed)}`).join("; ");
