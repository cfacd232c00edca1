// The director's pages on a phone (docs/pages.md, "On a phone"): a tournament's director views are parts (the
// players, the sessions, the tables, the standings, the table open for its rounds), and on a narrow screen a
// switcher shows one part at a time, so the page is a screen or three long rather than every view stacked (6,200 px
// for 12 players); a long view that is not the part's point (the crosstable: `details[data-fold]`) starts folded.
// On a wide screen the switcher is not shown and every part is (pages.css: the rule lives in the style sheet's
// phone layout); an event seated by name keeps its one page. A part is any element with `data-part-of`; the
// players' view and any other join one by naming it.

const nav = document.getElementById("parts");
const PARTS = [...nav.querySelectorAll("button[data-show]")].map((button) => button.dataset.show);
let shown = null; // the part shown on a narrow screen; null: not a director, no switcher

// Shows `part` (one of PARTS) on a narrow screen; the others stay in the page, hidden by the style sheet.
export function showPart(part) {
  if (!PARTS.includes(part) || shown === null) return;
  shown = part;
  document.body.dataset.part = part;
  for (const node of document.querySelectorAll("[data-part-of]")) node.classList.toggle("part-on", node.dataset.partOf === part);
  for (const button of nav.querySelectorAll("button[data-show]")) button.setAttribute("aria-pressed", String(button.dataset.show === part));
}

// A director's tournament (it has players): the switcher, at the players first, or at the table already open (a
// scorecard's link signs in at its table); again, nothing changes.
export function showParts() {
  if (shown !== null) return;
  shown = document.getElementById("entry").hidden ? PARTS[0] : "entry";
  showPart(shown);
  if (matchMedia("(max-width: 40em)").matches) for (const fold of document.querySelectorAll("details[data-fold]")) fold.open = false;
}

// Signed out, not a director, or an event seated by name: every part as the page lays it out, no switcher.
export function hideParts() {
  shown = null;
  delete document.body.dataset.part;
  for (const node of document.querySelectorAll("[data-part-of]")) node.classList.remove("part-on");
}

nav.addEventListener("click", (e) => {
  const button = e.target.closest("button[data-show]");
  if (!button) return;
  showPart(button.dataset.show);
  window.scrollTo(0, 0);
});
// A table opened from the dashboard or a session's seating ("Enter rounds"): its entry is the part to see.
document.addEventListener("click", (e) => {
  if (e.target.closest("#dashboard button[data-open], #sessions button[data-open]")) showPart("entry");
});
