// The event's standings in the console (docs/pages.md, "Standings"), read again when the event's stream (event_feed.js)
// says a round was stored or corrected or a table seated; when the stream cannot be had, on the poll it falls back to.
// A tournament's follow the tournament: one row a player, ranked by its format over the games played, marked
// provisional until its last session is complete, and beside them the latest session's tables ranked within that
// session only. An event seated by name keeps its per-table lines. A read that fails keeps the last tables up.

import { el, formatNumber, newestWins, t } from "./common.js";
import { call } from "./connection.js";
import { watch } from "./event_feed.js";
import { printDocument } from "./print.js";

const $ = (id) => document.getElementById(id);
// The messages after which the standings may read otherwise: a table seated adds its players with nothing yet.
const CHANGES = ["round.stored", "round.corrected", "table.seated", "session.started", "session.reseated", "player.checked_in", "player.withdrawn", "event.closed"];
let unwatch = () => {};
let source = null; // {token, path}
let answer = null; // the last standings read: {standings, overall?}
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
  source = answer = null;
  $("standings").hidden = true;
}

export const refreshStandings = newestWins(async (current) => {
  if (!source) return;
  try {
    const read = (await call("GET", `${source.path}/standings`, { token: source.token })).body;
    if (!current()) return; // a read begun later is drawn already
    answer = read;
    at = new Date();
  } catch {
    return; // the next change or poll tries again; the last tables stay up
  }
  renderStandings();
});

const cell = (text, cls = "n") => el("td", { class: cls }, text);
const head = (keys) => el("tr", {}, ...keys.map(([key, cls]) => el("th", { scope: "col", class: cls || null }, t(key))));

export function renderStandings() {
  if (!answer) return;
  $("standings-updated").textContent = t("console.updated", { time: at.toLocaleTimeString(document.documentElement.lang) });
  const overall = answer.overall || null;
  $("standings-state").hidden = !overall;
  $("standings-tables-heading").hidden = $("standings-session").hidden = !overall;
  if (overall) {
    renderOverall(overall);
  } else {
    $("standings-table").tHead.replaceChildren(head([["console.rank", "n"], ["console.player"], ["page.table"], ["console.rounds", "n"], ["console.total", "n"]]));
    $("standings-table").tBodies[0].replaceChildren(...answer.standings.map(tableRow));
  }
}

// One row a player, ranked across sessions by the tournament's format; then the latest played session's tables.
function renderOverall(overall) {
  const decimals = overall.format.decimals ?? 2;
  const measure = overall.format.ranking;
  const shown = measure === "total" ? [] : [measure];
  $("standings-state").dataset.provisional = String(overall.provisional);
  $("standings-state").textContent = overall.provisional ? t("console.standings_provisional", { n: overall.through ?? 0 }) : t("console.standings_final");
  $("standings-table").tHead.replaceChildren(head([["console.rank", "n"], ["console.player"], ["tournament.games", "n"], ["console.total", "n"], ...shown.map((m) => [`tournament.measure.${m}`, "n"])]));
  $("standings-table").tBodies[0].replaceChildren(
    ...overall.lines.map((line) =>
      el(
        "tr",
        { "data-player": line.player },
        cell(String(line.rank)),
        el("th", { scope: "row" }, line.withdrawn ? `${line.name} (${t("tournament.withdrawn_mark")})` : line.name),
        cell(String(line.games)),
        cell(formatNumber(line.total, decimals)),
        ...shown.map((m) => cell(formatNumber(line[m], decimals))),
      ),
    ),
  );
  const played = answer.standings.filter((line) => line.session !== null && line.rounds > 0).map((line) => line.session);
  const session = played.length ? Math.max(...played) : null;
  const lines = answer.standings.filter((line) => line.session === session);
  $("standings-tables-heading").textContent = session === null ? "" : t("console.standings_session", { n: session });
  $("standings-tables-heading").hidden = session === null;
  $("standings-session").hidden = session === null;
  $("standings-session-table").tHead.replaceChildren(head([["console.rank", "n"], ["console.player"], ["page.table"], ["console.rounds", "n"], ["console.total", "n"]]));
  $("standings-session-table").tBodies[0].replaceChildren(...lines.map(tableRow));
}

const tableRow = (s) => el("tr", { "data-table": s.table }, cell(String(s.rank)), el("th", { scope: "row" }, s.player), cell(s.table, ""), cell(String(s.rounds)), cell(String(s.total)));

// The standings, the crosstable and the results on paper: a PDF of the event being watched.
$("standings-print").addEventListener("click", (e) => {
  const button = e.target.closest("button[data-print]");
  if (button && source) printDocument(source.token, source.path, button.dataset.print, { errorNode: $("standings-print-error"), button });
});
