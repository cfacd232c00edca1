// The words a seat forms from its hand before it lays them (docs/pages.md, "The table"). Cards are faces, as the
// service names them ("qu", "e"): a word is a list of faces, tapped one card at a time or typed ("quiz", "(qu)iz"),
// and each is judged as it is formed by POST /validate under the table's ruleset and language, in the page's
// language. Nothing here is sent as a move: table_moves.js does that with the words kept.

import { api, compact, el, t } from "./common.js";

const DEBOUNCE_MS = 200;

// What the seat is forming: `hand` the faces it holds (the projection's, in card order), `forming` the word being
// formed, `kept` the words kept for laying down; `discarding` while the next tapped card is the one to discard.
export const hand = { round: null, faces: [], forming: [], kept: [], discarding: false, judge: null, values: {} };
const verdicts = new Map(); // compact word -> {valid, points, reason} as the service judged it in the page's language
let timer = 0;
let onChange = () => {};

export function onHandChange(listener) {
  onChange = listener;
}

function counts(faces) {
  const out = new Map();
  for (const face of faces) out.set(face, (out.get(face) || 0) + 1);
  return out;
}

// The faces of the hand not in the word being formed or a kept word.
export function available() {
  const left = counts(hand.faces);
  for (const face of [hand.forming, ...hand.kept].flat()) left.set(face, (left.get(face) || 0) - 1);
  return hand.faces.filter((face) => {
    const n = left.get(face) || 0;
    if (n <= 0) return false;
    left.set(face, n - 1);
    return true;
  });
}

// A new hand from the service: the words formed stay while their cards are still held, in the same order.
export function setHand(faces, judge, values) {
  hand.judge = judge;
  hand.values = values;
  if (faces.join(" ") === hand.faces.join(" ")) return;
  hand.faces = [...faces];
  const left = counts(faces);
  const fits = (word) => {
    const need = counts(word);
    if ([...need].some(([face, n]) => (left.get(face) || 0) < n)) return false;
    for (const [face, n] of need) left.set(face, left.get(face) - n);
    return true;
  };
  hand.kept = hand.kept.filter(fits);
  if (!fits(hand.forming)) hand.forming = [];
}

export function resetHand() {
  Object.assign(hand, { faces: [], forming: [], kept: [], discarding: false });
}

// The card tapped in the hand: the discard when discarding (returns the face), else the next card of the word.
export function tapCard(face) {
  if (hand.discarding) return face;
  hand.forming.push(face);
  changed();
  return null;
}

export function untapCard(index) {
  hand.forming.splice(index, 1);
  changed();
}

export function clearForming() {
  hand.forming = [];
  changed();
}

export function keepForming() {
  if (hand.forming.length === 0) return false;
  hand.kept.push(hand.forming);
  hand.forming = [];
  changed();
  return true;
}

export function dropKept(index) {
  hand.kept.splice(index, 1);
  changed();
}

// The faces that spell `typed` from the cards still free ("(qu)iz" or "quiz"; case and spaces ignored), the spelling
// worth the most points when there are several (QU as one card or Q and U), or null when the hand cannot spell it.
export function spell(typed) {
  const text = typed.normalize("NFC").toLowerCase().replace(/\s+/g, "");
  const forced = []; // [start, end) of each bracketed double card
  let plain = "";
  for (const match of text.matchAll(/\(([^()]+)\)|([^()])/g)) {
    if (match[1]) forced.push([plain.length, plain.length + match[1].length]);
    plain += match[1] || match[2];
  }
  if (!plain) return null;
  const free = counts(available());
  const faces = [...free.keys()].sort((a, b) => b.length - a.length);
  let best = null;
  const value = (word) => word.reduce((sum, face) => sum + (hand.values[face] ?? 0), 0);
  const walk = (at, word) => {
    if (at === plain.length) {
      if (!best || value(word) > value(best)) best = [...word];
      return;
    }
    const bracket = forced.find(([start]) => start === at);
    for (const face of faces) {
      if (!plain.startsWith(face, at) || !(free.get(face) > 0)) continue;
      if (bracket && at + face.length !== bracket[1]) continue;
      if (!bracket && forced.some(([start]) => at < start && at + face.length > start)) continue; // a card never spans into a bracket
      free.set(face, free.get(face) - 1);
      word.push(face);
      walk(at + face.length, word);
      word.pop();
      free.set(face, free.get(face) + 1);
    }
  };
  walk(0, []);
  return best;
}

// Keeps the typed word when the free cards spell it; false (nothing changed) when they cannot.
export function keepTyped(typed) {
  const word = spell(typed);
  if (!word) return false;
  hand.kept.push(word);
  changed();
  return true;
}

// A word's verdict as the service gave it, or undefined while it is asked.
const verdictOf = (word) => verdicts.get(compact(word));

function changed() {
  onChange();
  clearTimeout(timer);
  timer = setTimeout(judgeWords, DEBOUNCE_MS);
}

// Asks the verdicts of the words formed that have none yet, in the page's language (a language switch clears them).
export async function judgeWords() {
  const words = [hand.forming, ...hand.kept].filter((word) => word.length && !verdicts.has(compact(word)));
  if (!words.length || !hand.judge) return;
  try {
    const answer = await api("POST", "/validate", { body: { ...hand.judge, words: words.map(compact) } });
    answer.body.verdicts.forEach((v, i) => {
      verdicts.set(compact(words[i]), { valid: v.valid, points: v.spellings[0]?.points ?? null, reason: v.reasons[0]?.message ?? "" });
    });
  } catch {
    return; // unjudged words show no mark: the move itself is judged by the service
  }
  onChange();
}

export function forgetVerdicts() {
  verdicts.clear();
  judgeWords();
}

// A word's verdict as a line: "✓ valid · 25 points", "✗ <reason>", or "" while asked.
export function verdictLine(word) {
  const v = verdictOf(word);
  if (!v) return "";
  return v.valid ? `✓ ${t("table.valid")}${v.points === null ? "" : ` · ${t("table.points", { points: v.points })}`}` : `✗ ${v.reason || t("table.invalid")}`;
}

// A card as the page shows it: its face in capitals and its value; a double card is one card ("QU").
export function cardButton(face, attrs = {}) {
  const value = hand.values[face];
  return el(
    "button",
    { type: "button", class: `card${face.length > 1 ? " double" : ""}`, ...attrs },
    el("span", { class: "face" }, face.toUpperCase()),
    el("span", { class: "value", "aria-hidden": "true" }, value === undefined ? "" : String(value)),
    value === undefined ? null : el("span", { class: "visually-hidden" }, `, ${t("table.points", { points: value })}`),
  );
}
