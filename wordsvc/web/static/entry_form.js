// The entry form of a round (docs/pages.md): one fieldset per seated player, in seat order, with the
// words and their marks beside them, the cards left in hand, "went out" and a card counter ("5/6 cards": the cards
// typed against the round's hand size); and the form read as a submission's body or as a kept draft.

import { compact, el, t } from "./common.js";
import { cardsIn } from "./entry_keys.js";

const $ = (id) => document.getElementById(id);

export function buildPlayers(container, players) {
  const field = (kind, i, extra = {}) => el("input", { id: `${kind}-${i}`, class: kind, type: "text", autocomplete: "off", autocapitalize: "none", spellcheck: "false", enterkeyhint: "next", ...extra });
  // The words' marks come right after their field, in the document and on the screen (pages.css): read with it.
  const words = (i) => field("words", i, { "aria-describedby": `verdicts-${i}` });
  container.replaceChildren(
    ...players.map((name, i) =>
      el(
        "fieldset",
        { class: "player", "data-player": name },
        el("legend", {}, name),
        el("output", { id: `count-${i}`, class: "count", for: `words-${i} unused-${i}` }),
        el("div", { class: "stack words-field" }, el("label", { for: `words-${i}`, "data-label": "console.words_of" }), words(i)),
        el("ul", { class: "verdicts", id: `verdicts-${i}`, "aria-live": "polite" }),
        el("div", { class: "stack unused-field" }, el("label", { for: `unused-${i}`, "data-label": "console.unused_of" }), field("unused", i)),
        el("label", { class: "check" }, el("input", { id: `out-${i}`, type: "checkbox", class: "out" }), el("span", { "data-label": "console.went_out" })),
      ),
    ),
  );
}

// The form's words in the page's language, and each player's card counter against `hand`.
export function renderPlayers(container, players, hand) {
  for (const [i, name] of players.entries()) {
    for (const label of container.children[i].querySelectorAll("[data-label]")) label.textContent = t(label.dataset.label, { player: name });
    const n = cardsOf(i);
    const count = $(`count-${i}`);
    count.textContent = t("console.card_count", { n, hand });
    count.className = `count ${n === hand ? "full" : n > hand ? "over" : ""}`;
  }
}

export const cardsOf = (i) => cardsIn($(`words-${i}`).value) + cardsIn($(`unused-${i}`).value);

// The words typed for player i, as they are sent.
export const wordsOf = (i) => $(`words-${i}`).value.trim().split(/\s+/).filter(Boolean);

// What the form says, as the body of a submission.
export function play(players) {
  return { players: players.map((name, i) => ({ name, words: wordsOf(i), unused: $(`unused-${i}`).value.replace(/\s+/g, ""), went_out: $(`out-${i}`).checked })) };
}

// The fields as typed, for a draft: {name, words, unused, went_out}, the words and unused as text.
export const fields = (players) => players.map((name, i) => ({ name, words: $(`words-${i}`).value, unused: $(`unused-${i}`).value, went_out: $(`out-${i}`).checked }));

export const typed = (entry) => Boolean(entry.words.trim() || entry.unused.trim() || entry.went_out);

// Puts `entries` (a draft's fields) back in the form: the names of the players that had anything typed.
export function setFields(players, entries) {
  const filled = [];
  for (const [i, name] of players.entries()) {
    const kept = entries.find((p) => p.name === name);
    if (!kept) continue;
    $(`words-${i}`).value = kept.words;
    $(`unused-${i}`).value = kept.unused;
    $(`out-${i}`).checked = Boolean(kept.went_out);
    if (typed(kept)) filled.push(name);
  }
  return filled;
}

// A stored body (faces) as fields.
export const bodyFields = (body) => body.players.map((p) => ({ name: p.name, words: p.words.map(compact).join(" "), unused: compact(p.unused), went_out: Boolean(p.went_out) }));

// A draft's fields as a submission's body reads them (for comparing with a round stored meanwhile).
export const draftPlay = (entries) => ({
  players: entries.map((p) => ({ name: p.name, words: p.words.trim().split(/\s+/).filter(Boolean), unused: p.unused.replace(/\s+/g, ""), went_out: Boolean(p.went_out) })),
});
