// The lobby's open public tables (docs/pages.md, "The lobby (/play)"): GET /tables, each table with its name, rules,
// word list, clock, seats and a "Join" link to its table page (where a device with no seat takes one). GET /tables
// gives a table's setup and seats; its name, ruleset and lexicon are its event's (GET /events/{e}, read once a
// table: they never change). Read when the page opens, on "Refresh", and every REFRESH_MS while the page is shown.

import { api, el, newestWins, t, tn } from "./common.js";
import { tablePath } from "./play_store.js";

const $ = (id) => document.getElementById(id);
// How often the list is read again while the page is shown: often enough that a table filled meanwhile goes soon.
const REFRESH_MS = 15000;
const events = new Map(); // event id -> GET /events/{e}'s answer, or a promise of it
let tables = null; // the last list read, or null before the first answer
let names = { rulesets: new Map(), languages: new Map() }; // ids -> names, from the form's GET /rulesets and GET /languages
let timer = null;

function eventOf(id) {
  if (!events.has(id)) {
    const read = api("GET", `/events/${encodeURIComponent(id)}`).then((answer) => answer.body);
    read.catch(() => events.delete(id)); // read again next time
    events.set(id, read);
  }
  return events.get(id);
}

// The clock of a table's setup, in words.
function clockText(clock) {
  if (clock.kind === "live") {
    const turn = tn("lobby.table.turn_seconds", clock.turn_seconds);
    return clock.bank_seconds ? `${turn}, ${tn("lobby.table.bank_minutes", clock.bank_seconds / 60)}` : turn;
  }
  if (clock.kind === "correspondence") return tn("lobby.table.turn_hours", clock.turn_hours);
  return t("lobby.table.no_clock");
}

function row(table, event) {
  const open = table.seats.filter((seat) => seat.kind === "open").length;
  const bots = table.seats.filter((seat) => seat.kind === "bot" || seat.kind === "outside").length;
  const people = table.seats.filter((seat) => seat.kind === "person").map((seat) => seat.name);
  const ruleset = names.rulesets.get(event.ruleset.id) ?? event.ruleset.id;
  const language = names.languages.get(event.lexicon.id) ?? event.lexicon.id;
  const facts = [ruleset, language, clockText(table.setup.clock), t(table.setup.rated ? "lobby.table.rated" : "lobby.table.casual")];
  const nameId = `open-${table.event}-${table.game}`;
  return el(
    "li",
    { class: "open-table", "data-event": table.event },
    el("h3", { id: nameId }, event.name),
    el("p", { class: "facts" }, facts.join(" · ")),
    el("p", { class: "open-seats" }, tn("lobby.open.seats", open, { taken: table.seats.length - open, total: table.seats.length })),
    people.length || bots
      ? el("p", { class: "hint" }, [people.length ? t("lobby.open.players", { names: people.join(", ") }) : null, bots ? tn("lobby.open.bots", bots) : null].filter(Boolean).join(" · "))
      : null,
    el("a", { class: "button", href: tablePath(table.event, table.game), "aria-describedby": nameId }, t("lobby.open.join")),
  );
}

function draw() {
  if (tables === null) return;
  const status = $("open-status");
  if (!tables.length) {
    $("open-list").replaceChildren();
    status.textContent = t("lobby.open.none");
    return;
  }
  status.textContent = tn("lobby.open.count", tables.length);
  $("open-list").replaceChildren(...tables.map(({ table, event }) => row(table, event)));
}

// Reads GET /tables and each new table's event, then draws the list (an answer older than one drawn is dropped).
export const refresh = newestWins(async (current) => {
  let found;
  try {
    const listed = (await api("GET", "/tables")).body.tables;
    const read = await Promise.allSettled(listed.map((table) => eventOf(table.event)));
    found = listed.flatMap((table, i) => (read[i].status === "fulfilled" ? [{ table, event: read[i].value }] : []));
  } catch {
    if (current()) $("open-status").textContent = t("lobby.open.failed");
    return;
  }
  if (!current()) return;
  tables = found;
  draw();
});

// Starts the list: `known` holds the ids -> names of the rulesets and languages; the list is read now, on the button,
// every REFRESH_MS while the page is visible, and at once when it is shown again.
export function wireOpenTables(known) {
  names = known;
  $("open-refresh").addEventListener("click", () => refresh());
  const tick = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (document.visibilityState === "visible") refresh();
      tick();
    }, REFRESH_MS);
  };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") refresh();
  });
  tick();
  return refresh();
}

// Draws the list again in the language now chosen (the names of rulesets and languages may have arrived since).
export function redrawOpenTables(known = names) {
  names = known;
  draw();
}
