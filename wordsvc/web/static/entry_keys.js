// Fast entry (docs/pages.md, "Keys"): a round costs the keys of its words and at most two more a player.
// Enter moves from a player's words to the cards left in hand, then to the next player's words, and
// stores the round from the last field; leaving a hand that holds all its cards with none left marks
// that player out when nobody is yet (the box stays visible to untick). The double-letter buttons come
// after the fields in the document, so in the tab order, and write into the field last used.

// Cards typed in a field: a bracketed double card, (qu), is one card; every other letter one.
export const cardsIn = (text) => (text.match(/\([^()\s]*\)|[^\s()]/g) || []).length;

// `players` holds each seat's words-i, unused-i and out-i; `entry` is {seats, full(i), mayMarkOut(), store()}.
export function wireEnter(players, entry) {
  const field = (id) => document.getElementById(id);
  players.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" || e.isComposing || e.shiftKey || e.altKey || e.ctrlKey || e.metaKey) return;
    const [kind, seat] = e.target.id.split("-");
    if (!["words", "unused", "out"].includes(kind)) return;
    e.preventDefault();
    const i = Number(seat);
    if (kind === "words") return field(`unused-${i}`).focus();
    const noneLeft = kind === "unused" && !field(`unused-${i}`).value.trim();
    if (noneLeft && entry.full(i) && entry.mayMarkOut() && ![...Array(entry.seats()).keys()].some((j) => field(`out-${j}`).checked)) {
      field(`out-${i}`).checked = true;
      field(`out-${i}`).dispatchEvent(new Event("change", { bubbles: true }));
    }
    if (i + 1 < entry.seats()) field(`words-${i + 1}`).focus();
    else entry.store();
  });
}

// The double-letter buttons: a click writes "(qu)" at the caret of the words or unused field last used.
export function wireCardButtons(buttons, players) {
  let lastField = null;
  players.addEventListener("focusin", (e) => {
    if (e.target.matches("input.words, input.unused")) lastField = e.target;
  });
  buttons.addEventListener("click", (e) => {
    const button = e.target.closest("button[data-card]");
    if (!button) return;
    const field = lastField && lastField.isConnected ? lastField : document.getElementById("words-0");
    const at = field.selectionStart ?? field.value.length;
    const card = `(${button.dataset.card})`;
    field.value = field.value.slice(0, at) + card + field.value.slice(field.selectionEnd ?? at);
    field.focus();
    field.setSelectionRange(at + card.length, at + card.length);
    field.dispatchEvent(new Event("input", { bubbles: true }));
  });
}
