// The event's standings in the console, read again every WORDSVC_STANDINGS_POLL_SECONDS (docs/pages.md):
// the same tick reads the open table again (console.js), so a round stored elsewhere shows up. A poll that
// fails keeps the last table up; the next one tries again.

import { config, el, t } from "./common.js";
import { call } from "./connection.js";
import { printDocument } from "./print.js";

const $ = (id) => document.getElementById(id);
let timer = 0;
let source = null; // {token, path}
let standings = null;
let at = null;

// Shows the standings of the event at `path` and reads them again, with `tick` (the open table's poll), every few seconds.
export function startStandings(token, path, tick) {
  source = { token, path };
  $("standings").hidden = false;
  clearInterval(timer);
  refreshStandings();
  timer = setInterval(() => {
    refreshStandings();
    tick();
  }, config.standings_poll_seconds * 1000);
}

export function stopStandings() {
  clearInterval(timer);
  source = standings = null;
  $("standings").hidden = true;
}

export async function refreshStandings() {
  if (!source) return;
  try {
    standings = (await call("GET", `${source.path}/standings`, { token: source.token })).body.standings;
    at = new Date();
  } catch {
    return; // the next poll tries again; the last table stays up
  }
  renderStandings();
}

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
