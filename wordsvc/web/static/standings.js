// The event's standings in the console (docs/pages.md), read again when the event's stream (event_feed.js)
// says a round was stored or corrected or a table seated; when the stream cannot be had, on the poll it falls
// back to. A read that fails keeps the last table up; the next one tries again.

import { el, newestWins, t } from "./common.js";
import { call } from "./connection.js";
import { watch } from "./event_feed.js";
import { printDocument } from "./print.js";

const $ = (id) => document.getElementById(id);
// The messages after which the standings may read otherwise: a table seated adds its players with nothing yet.
const CHANGES = ["round.stored", "round.corrected", "table.seated", "session.started", "session.reseated"];
let unwatch = () => {};
let source = null; // {token, path}
let standings = null;
let at = null;

// Shows the standings of the event at `path`, read again whenever they may have changed.
export function startStandings(token, path) {
  source = { token, path };
  $("standings").hidden = false;
  unwatch();
  unwatch = watch(CHANGES, refreshStandings);
  refreshStandings();
}

export function stopStandings() {
  unwatch();
  source = standings = null;
  $("standings").hidden = true;
}

export const refreshStandings = newestWins(async (current) => {
  if (!source) return;
  try {
    const read = (await call("GET", `${source.path}/standings`, { token: source.token })).body.standings;
    if (!current()) return; // a read begun later is drawn already
    standings = read;
    at = new Date();
  } catch {
    return; // the next change or poll tries again; the last table stays up
  }
  renderStandings();
});

export function renderStandings() {
  if (!standings) return;
  $("standings-updated").textContent = t("console.updated", { time: at.toLocaleTimeString(document.documentElement.lang) });
  $("standings-table").tBodies[0].replaceChildren(
    ...standings.map((s) =>
      el("tr", {}, el("td", { class: "n" }, String(s.rank)), el("th", { scope: "row" }, s.player), el("td", {}, s.table), el("td", { class: "n" }, String(s.rounds)), el("td", { class: "n" }, String(s.total))),
    ),
  );
}

// The standings, the crosstable and the results on paper: a PDF of the event being watched.
$("standings-print").addEventListener("click", (e) => {
  const button = e.target.closest("button[data-print]");
  if (button && source) printDocument(source.token, source.path, button.dataset.print, { errorNode: $("standings-print-error"), button });
});
