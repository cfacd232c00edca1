// The event's display for a hall's screen or projector (docs/pages.md, "The display"), /events/{event}/display:
// its standings in large type and, while a session of a tournament is played, that session's seating with each
// table's running totals (and, for a table hosted online, how its game stands). A list longer than its panel pages by itself (paging.js). Everything is read again
// whenever the event's stream says something changed (event_feed.js: a burst of rounds costs one read); while
// the service cannot be reached the last standings stay up with a small mark. The page speaks the event's
// language (its lexicon's) unless the address asks for another (?locale=). A private event's token comes in
// the address's fragment (#token=…), which no browser sends: it is taken out of the address at once and kept
// for this tab only, so a reload still shows the event.

import { ApiError, config, el, formatNumber, localeOf, newestWins, onLanguage, setLocale, t } from "./common.js";
import { call, isOnline, onConnection, unreachable } from "./connection.js";
import { follow, watch } from "./event_feed.js";
import { pager } from "./paging.js";

const $ = (id) => document.getElementById(id);
const eventId = decodeURIComponent(location.pathname.split("/")[2]);
const path = `/events/${encodeURIComponent(eventId)}`;
const TOKEN_KEY = `wordsvc.display.token/${eventId}`;

const asked = localeOf(new URLSearchParams(location.search).get("locale"));
const token = takeToken();

let event = null; // GET /events/{e}
let standings = null; // GET /events/{e}/standings
let session = null; // the session being played (the last one, until it is complete), with its tables
let at = null; // when they were read
let problem = null; // [key, params]: why the event cannot be shown
let streamState = null;

// The token of the address's fragment, #token=…, kept for this tab (sessionStorage) and taken out of the address
// and its history entry; or the one this tab kept before a reload. None for a public event.
function takeToken() {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ""));
  if (fragment.has("token")) {
    sessionStorage.setItem(TOKEN_KEY, (fragment.get("token") || "").trim());
    history.replaceState(history.state, "", location.pathname + location.search);
  }
  return sessionStorage.getItem(TOKEN_KEY) || null;
}

// --- reading --------------------------------------------------------------------------------------------

const refresh = newestWins(async (current) => {
  try {
    const [e, s, seated] = await Promise.all([call("GET", path, { token }), call("GET", `${path}/standings`, { token }), call("GET", `${path}/sessions`, { token })]);
    if (!current()) return; // a read begun later is drawn already
    const last = seated.body.sessions[seated.body.sessions.length - 1];
    [event, standings, session, at, problem] = [e.body, s.body, last && !last.complete ? last : null, new Date(), null];
  } catch (error) {
    if (!current()) return;
    if (!unreachable(error)) problem = refusal(error); // not reached: what is shown stays, with the mark
  }
  const wanted = asked || localeOf(event?.lexicon.id) || config.locale;
  if (wanted !== document.documentElement.lang) setLocale(wanted); // draws the page in it
  else render();
});

function refusal(error) {
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return ["display.token_needed", {}];
  if (error instanceof ApiError && error.status === 404) return ["display.no_event", { event: eventId }];
  return ["display.error", { detail: error.message }];
}

// --- drawing --------------------------------------------------------------------------------------------

const pageLabel = (node) => (page, pages) => {
  node.hidden = pages < 2;
  node.textContent = pages < 2 ? "" : t("display.page_of", { page, pages });
};
const pagers = [
  pager($("standings-box"), () => [...$("standings-table").tBodies[0].rows], pageLabel($("standings-page"))),
  pager($("seating-box"), () => [...$("seating-box").children], pageLabel($("seating-page"))),
];

function render() {
  $("event-name").textContent = event ? event.name || event.id : eventId;
  $("updated").textContent = at ? t("display.updated", { time: at.toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" }) }) : "";
  $("problem").hidden = !problem;
  $("problem").textContent = problem ? t(...problem) : "";
  renderMark();
  $("standings-panel").hidden = !standings;
  if (standings) renderStandings();
  document.body.classList.toggle("with-seating", Boolean(session));
  $("seating-panel").hidden = !session;
  if (session) renderSeating();
  for (const each of pagers) each.layout();
}

function renderMark() {
  $("reconnecting").hidden = isOnline() && streamState !== "reconnecting";
}

// The columns of the standings: [heading, class, value of a line]; a tournament's ranking across sessions,
// with the format's measure when it ranks by another than the total, or an event's tables.
function columns() {
  const num = (x) => formatNumber(x, standings.overall?.format.decimals ?? 2); // the format's one rounding, as the console and the PDFs show it
  if (!standings.overall) {
    return [
      [t("display.rank"), "n", (s) => s.rank],
      [t("display.player"), "name", (s) => s.player],
      [t("display.table_col"), "", (s) => s.table],
      [t("display.rounds"), "n", (s) => s.rounds],
      [t("display.total"), "n total", (s) => s.total],
    ];
  }
  const measure = standings.overall.format.ranking;
  return [
    [t("display.rank"), "n", (line) => line.rank],
    [t("display.player"), "name", (line) => (line.withdrawn ? `${line.name} (${t("display.withdrawn")})` : line.name)],
    [t("display.games"), "n", (line) => line.games],
    [t("display.total"), "n total", (line) => num(line.total)],
    ...(measure === "total" ? [] : [[t(`tournament.measure.${measure}`), "n", (line) => num(line[measure])]]),
  ];
}

function renderStandings() {
  const final = standings.overall ? !standings.overall.provisional : event?.status === "closed"; // a tournament's: once its last session is complete
  $("standings-heading").textContent = t(final ? "display.final_standings" : "display.standings");
  const lines = standings.overall ? standings.overall.lines : standings.standings;
  const cols = columns();
  const table = $("standings-table");
  table.tHead.replaceChildren(el("tr", {}, ...cols.map(([heading, cls]) => el("th", { scope: "col", class: cls }, heading))));
  table.tBodies[0].replaceChildren(
    ...lines.map((line) => el("tr", {}, ...cols.map(([, cls, value]) => el(cls === "name" ? "th" : "td", { class: cls, scope: cls === "name" ? "row" : null }, String(value(line)))))),
  );
  table.hidden = !lines.length;
  $("standings-empty").hidden = Boolean(lines.length);
}

// The session's tables, each with its players in seat order and their running totals in the game at that table.
function renderSeating() {
  const rounds = event.ruleset.rounds.length;
  const totals = new Map(standings.standings.map((line) => [`${line.table}\n${line.player}`, line.total]));
  $("seating-heading").textContent = t("display.seating", { n: session.number });
  $("seating-box").replaceChildren(
    ...session.tables.map((table) => {
      const id = `seating-${table.game}`;
      const seats = table.seats.map((seat) => el("li", {}, el("span", { class: "score" }, String(totals.get(`${table.game}\n${seat.name}`) ?? 0)), seat.name));
      const played = el("p", { class: "played" }, t("display.rounds_played", { played: table.rounds_played, rounds }));
      if (table.online) played.append(" · ", el("span", { class: "online", "data-online": table.online }, t(`display.online.${table.online}`, { n: Math.min(table.rounds_played + 1, rounds), rounds })));
      return el("article", { class: "seating-table", "data-game": table.game, "aria-labelledby": id }, el("h3", { id }, t("display.table", { game: table.game })), played, el("ol", {}, ...seats));
    }),
  );
}

// --- wiring ---------------------------------------------------------------------------------------------

setLocale(asked || config.locale);
onLanguage(render);
onConnection((online) => {
  renderMark();
  if (online) refresh();
});
// Every message but a hosted game's moves: a move changes nothing shown here (its round, once scored, comes as round.stored),
// and a table's moves, a second apart, would put off the debounced read for as long as its game is played.
watch("*", refresh, (_data, type) => type !== "move");
follow(eventId, token, (state) => {
  streamState = state;
  renderMark();
});
setInterval(() => pagers.forEach((each) => each.turn()), config.display.page_seconds * 1000);
window.addEventListener("resize", () => pagers.forEach((each) => each.layout()));
await refresh();
document.body.dataset.ready = "true";
