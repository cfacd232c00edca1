// The director's tournament view in the console (docs/pages.md, "The tournament"): the players (players.js),
// the next session seated by a method, each session's seating (swaps and a
// redraw until its first round is stored, then fixed), the tables handed to the referees or played online (seat_links.js), and the
// standings across sessions with the crosstable (crosstable.js). Only the public API (docs/tournaments.md), with the director's token; all of it
// read again when the event's stream (event_feed.js) says a player, a session or a round changed, or on the
// poll it falls back to.

import { ApiError, api, el, formatNumber, newestWins, onLanguage, t } from "./common.js";
import { renderCrosstable } from "./crosstable.js";
import { hideParts, showParts } from "./parts.js";
import { watch } from "./event_feed.js";
import { hidePlayers, showPlayers } from "./players.js";
import { printButton, printDocument } from "./print.js";
import { chooseFill, chooseLevel, forgetSeatLinks, hostSession, onlinePart, printSlips, renewSeat, seatToBot } from "./seat_links.js";
import { tableLink, tableLinkBox } from "./signin_links.js";

const $ = (id) => document.getElementById(id);
const METHODS = ["random", "standings", "swiss", "schedule", "manual"];
// Every message but a kiosk ruling and the event closing: each changes the players, a seating or the standings.
const CHANGES = ["round.stored", "round.corrected", "table.seated", "session.started", "session.reseated", "player.registered", "player.checked_in", "player.withdrawn", "player.deleted", "play.created", "play.started", "play.ended"];

let ctx = null; // {token, event, openTable, tablesChanged} from the console
let players = [];
let sessions = [];
let overall = null; // the standings' `overall`
let crosstable = null; // GET /crosstable: who met whom, the same data the printed crosstable is made from
let through = ""; // the session the standings are asked after; "" for the latest
let seen = ""; // what the last read got, to render only when something changed
let unwatch = () => {};
let busy = false; // a write is in flight: a second click sends nothing
let picked = []; // the (at most two) players picked for a swap, in the order picked
let unfinished = null; // {number, tables}: the last seating refused because the session before is unfinished
let status = null; // {key, params} of the last write that went through
const tokens = new Map(); // game -> its referee sign-in link shown here (signin_links.js: the dashboard's too)

const path = (rest = "") => `/events/${encodeURIComponent(ctx.event.id)}${rest}`;
const nextNumber = () => sessions.length + 1;
const nameOf = (id) => (players.find((p) => p.id === id) || { name: id }).name;
// A session's seating is fixed once a round is stored, or once a table is hosted online (its players hold their seats' links).
const fixed = (s) => s.started || s.tables.some((table) => table.online);

// --- problems in the page's language ------------------------------------------------------------------

// The service's problems for a field, in the page's language where the page knows their code (the
// validation problems every form meets: docs/problems.md); any other one as the service wrote it.
function fieldMessage({ code, message }) {
  const [min, max] = (message.match(/\d+/g) || []).map(Number); // the bounds the message states
  if (code === "required") return t("tournament.problem.required");
  if (code === "length_out_of_range" && max !== undefined) return t("tournament.problem.length", { min, max });
  if (code === "value_out_of_range" && max !== undefined) return t("tournament.problem.range", { min, max });
  return message;
}

// An answer's problems, field by field: {field: [text]} ("" for the whole form), each in the page's language.
function problems(error) {
  if (!(error instanceof ApiError)) return { "": [t("page.error", { detail: error.message })] };
  if (error.status === 401 || error.status === 403) return { "": [t("page.token_invalid")] };
  if (error.status === 0) return { "": [error.message] };
  const out = {};
  for (const entry of error.entries()) (out[entry.path] ||= []).push(fieldMessage(entry));
  if (!Object.keys(out).length) out[""] = [t("page.error", { detail: error.message })];
  return out;
}

// A field the service named, as the page calls it ("players.0": the players); one the page does not know, as named.
function fieldLabel(field) {
  const key = `tournament.field.${field.split(".")[0]}`;
  return t(key) === key ? field : t(key);
}

// Shows `found` ({field: [text]}) beside the form's fields (`fields`: API field -> input id), the rest in `general`.
function showProblems(found, fields, general) {
  for (const id of Object.values(fields)) {
    $(id).removeAttribute("aria-invalid");
    $(`${id}-error`).textContent = "";
  }
  const rest = [];
  for (const [field, texts] of Object.entries(found)) {
    const id = fields[field] || fields[field.split(".")[0]];
    if (id) {
      $(id).setAttribute("aria-invalid", "true");
      $(`${id}-error`).textContent = texts.join(" ");
    } else {
      rest.push(...texts.map((text) => (field ? `${fieldLabel(field)}: ${text}` : text)));
    }
  }
  $(general).textContent = rest.join(" · ");
}

// --- reading -------------------------------------------------------------------------------------------

const refresh = newestWins(async (current) => {
  if (!ctx) return;
  try {
    const query = through ? `?session=${through}` : "";
    const [p, s, o, c] = await Promise.all([
      api("GET", path("/players"), { token: ctx.token }),
      api("GET", path("/sessions"), { token: ctx.token }),
      api("GET", path(`/standings${query}`), { token: ctx.token }),
      api("GET", path("/crosstable"), { token: ctx.token }),
    ]);
    const got = JSON.stringify([p.body.players, s.body.sessions, o.body.overall || null, c.body.meetings, c.body.players]);
    if (!current() || got === seen) return; // a read begun later is drawn already, or nothing changed
    seen = got;
    const seating = (list) => JSON.stringify(list.map((x) => x.tables.map((table) => table.seats)));
    const before = seating(sessions);
    [players, sessions, overall, crosstable] = [p.body.players, s.body.sessions, o.body.overall || null, c.body];
    if (seating(sessions) !== before) ctx.tablesChanged();
  } catch {
    return; // the next change or poll tries again; what is shown stays
  }
  render();
});

// --- writing --------------------------------------------------------------------------------------------

// One write at a time: `send` is the call, `done` what to say once it went through.
async function write(send, done, onProblem) {
  if (busy) return false;
  busy = true;
  status = null;
  render();
  try {
    await send();
    status = done;
    seen = "";
    await refresh();
    return true;
  } catch (error) {
    onProblem(error);
    return false;
  } finally {
    busy = false;
    render();
  }
}

const SESSION_FIELDS = { method: "session-method", size: "session-target", tables: "session-tables" };
// The methods that take a size policy (a schedule keeps its plan's sizes, a manual seating its tables'): the API refuses it from the others.
const SIZED = ["random", "standings", "swiss"];

// The body of the next session as the form says it; `allow` sends "unfinished": "allow".
function sessionBody(allow) {
  const method = $("session-method").value;
  const body = { method, number: nextNumber() };
  if (SIZED.includes(method)) body.size = { target: Number($("session-target").value), remainder: $("session-remainder").value };
  if (method === "manual") body.tables = $("session-tables").value.split("\n").map((line) => line.trim().split(/[\s,]+/).filter(Boolean)).filter((seats) => seats.length);
  if (allow) body.unfinished = "allow";
  return body;
}

function seat(allow = false) {
  const body = sessionBody(allow);
  showProblems({}, SESSION_FIELDS, "session-error");
  unfinished = null;
  write(
    () => api("POST", path("/sessions"), { token: ctx.token, body }),
    { key: "tournament.seated", params: { n: body.number } },
    (error) => {
      const errors = (error instanceof ApiError && error.problem.errors) || {};
      if (error.status === 409 && errors.unfinished) {
        unfinished = { number: body.number, tables: [].concat(errors.unfinished).map((entry) => entry.message).join(", ") }; // the unfinished tables' ids, as the API lists them
        return;
      }
      const found = problems(error);
      if (error.status === 409 && errors.number) {
        delete found.number;
        found[""] = [t("tournament.problem.seated_meanwhile", { n: body.number })];
        seen = "";
        refresh();
      }
      if (error.status === 422 && body.method === "schedule" && errors.method) found.method = [t("tournament.problem.no_schedule", { n: body.number })];
      showProblems(found, SESSION_FIELDS, "session-error");
    },
  );
}

function swap(number) {
  const [a, b] = picked;
  write(
    async () => {
      await api("POST", path(`/sessions/${number}/swap`), { token: ctx.token, body: { players: [a, b] } });
      picked = [];
    },
    { key: "tournament.swapped", params: { a: nameOf(a), b: nameOf(b) } },
    (error) => showProblems(problems(error), {}, "seating-error"),
  );
}

function redraw(number) {
  write(
    async () => {
      await api("POST", path(`/sessions/${number}/redraw`), { token: ctx.token });
      picked = [];
    },
    { key: "tournament.redrawn", params: { n: number } },
    (error) => showProblems(problems(error), {}, "seating-error"),
  );
}

// The table's referee link, as the dashboard hands it out (one a table from this device; `renew`: a new one, the old revoked).
async function issueLink(game, renew = false) {
  try {
    tokens.set(game, await tableLink(ctx.token, ctx.event.id, game, { renew }));
    $("seating-error").textContent = "";
  } catch (error) {
    showProblems(problems(error), {}, "seating-error");
  }
  render();
  document.querySelector(`#sessions .seating[data-game="${CSS.escape(game)}"] .link-url`)?.focus();
}

// Plays session `number` online: each table not hosted yet is hosted, and its players' seat links shown; a table
// the service refuses is named with its reason, the others stay hosted.
function hostOnline(number) {
  const session = sessions.find((s) => s.number === number);
  write(
    async () => {
      const refused = await hostSession(ctx.token, ctx.event.id, session);
      const lines = Object.entries(refused).map(([game, error]) => t("tournament.online.refused", { game, detail: Object.values(problems(error)).flat().join(" ") }));
      $("seating-error").textContent = lines.join(" · ");
    },
    { key: "tournament.online.hosted", params: { n: number } },
    (error) => showProblems(problems(error), {}, "seating-error"),
  );
}

// A seat's link issued again (`renew`), or the seat handed to a bot (its player has not come): `key` is "game/seat".
function seatAction(key, renew) {
  const cut = key.lastIndexOf("/");
  const [game, seatNumber] = [key.slice(0, cut), Number(key.slice(cut + 1))];
  const name = sessions.flatMap((s) => s.tables).find((table) => table.game === game)?.seats[seatNumber]?.name || game;
  write(
    () => (renew ? renewSeat : seatToBot)(ctx.token, ctx.event.id, game, seatNumber),
    { key: renew ? "tournament.online.renewed" : "tournament.online.handed", params: { name } },
    (error) => showProblems(problems(error), {}, "seating-error"),
  );
}

// The CSV, fetched with the token (a private event's standings need it) and handed to the browser as a file.
async function downloadCsv(link) {
  try {
    const response = await fetch(link.href, { headers: { Authorization: `Bearer ${ctx.token}`, Accept: "text/csv" }, cache: "no-store" });
    if (!response.ok) throw new ApiError(response.status, {});
    const url = URL.createObjectURL(await response.blob());
    const save = el("a", { href: url, download: link.getAttribute("download") });
    document.body.append(save);
    save.click();
    save.remove();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  } catch (error) {
    showProblems(problems(error), {}, "overall-error");
  }
}

// --- rendering -----------------------------------------------------------------------------------------

function render() {
  if (!ctx) return;
  if (players.length) showParts(); // a tournament: its views a part at a time on a phone (parts.js)
  else hideParts();
  renderNext();
  renderSessions();
  renderOverall();
  renderCrosstable(crosstable, nameOf);
  $("tournament-status").hidden = !status;
  $("tournament-status").textContent = status ? t(status.key, status.params) : "";
}

function renderNext() {
  const n = nextNumber();
  $("next-heading").textContent = t("tournament.next_heading", { n });
  for (const option of $("session-method").options) option.textContent = t(`tournament.method.${option.value}`);
  for (const option of $("session-remainder").options) option.textContent = t(`tournament.remainder.${option.value}`);
  $("session-method-help").textContent = t(`tournament.method_help.${$("session-method").value}`);
  $("session-tables-field").hidden = $("session-method").value !== "manual";
  for (const id of ["session-target", "session-remainder"]) $(id).parentElement.hidden = !SIZED.includes($("session-method").value);
  $("seat").textContent = busy ? t("tournament.seating") : t("tournament.seat", { n });
  $("seat").disabled = busy;
  $("unfinished").hidden = !unfinished;
  if (unfinished) $("unfinished-text").textContent = t("tournament.unfinished", { previous: unfinished.number - 1, tables: unfinished.tables, n: unfinished.number });
  $("seat-anyway").disabled = busy;
}

function renderSessions() {
  const open = new Set([...document.querySelectorAll("#sessions details[open]")].map((d) => Number(d.dataset.session)));
  const latest = sessions.length;
  $("seating-empty").hidden = latest > 0;
  picked = picked.filter((id) => sessions.some((s) => !fixed(s) && s.tables.some((tb) => tb.seats.some((seat) => seat.player === id))));
  $("sessions").replaceChildren(
    ...[...sessions].reverse().map((s) => {
      const box = el("details", { class: "session", "data-session": s.number, open: s.number === latest || open.has(s.number) });
      const rounds = ctx.event.ruleset.rounds.length;
      const state = s.started ? t(s.complete ? "tournament.state_complete" : "tournament.state_started") : t(fixed(s) ? "tournament.state_online" : "tournament.state_open");
      box.append(
        el("summary", {}, t("tournament.session_summary", { n: s.number, method: t(`tournament.method.${s.method}`), tables: s.tables.length, draws: s.draws })),
        el("p", { class: fixed(s) ? "hint" : "notice", "data-state": s.started ? "started" : fixed(s) ? "online" : "open" }, state),
      );
      if (s.repeat_meetings) box.append(el("p", { class: "hint" }, t("tournament.repeats", { count: s.repeat_meetings })));
      const grid = el("div", { class: "tables" });
      for (const table of s.tables) {
        const caption = el("caption", {}, t("tournament.table_caption", { game: table.game, count: table.seats.length, played: table.rounds_played, rounds }));
        const body = el(
          "tbody",
          {},
          ...table.seats.map((seat) => {
            const shown = seat.seat + 1; // the API counts seats from 0 (the first dealer); people, every page and paper from 1
            const cells = [el("td", { class: "n" }, seat.seat === 0 ? t("tournament.seat_deals", { seat: shown }) : String(shown)), el("th", { scope: "row" }, seat.name), el("td", {}, seat.player)];
            if (!fixed(s)) {
              const box = el("input", { type: "checkbox", "data-pick": seat.player, "aria-label": t("tournament.pick", { name: seat.name }), checked: picked.includes(seat.player) });
              cells.push(el("td", {}, box));
            }
            return el("tr", { "data-seat": seat.seat, "data-player": seat.player }, ...cells);
          }),
        );
        const head = el("thead", {}, el("tr", {}, el("th", { scope: "col", class: "n" }, t("tournament.seat_col")), el("th", { scope: "col" }, t("console.player")), el("th", { scope: "col" }, t("tournament.id")), fixed(s) ? null : el("th", { scope: "col" }, t("tournament.swap_col"))));
        const actions = el(
          "div",
          { class: "row" },
          el("button", { type: "button", "data-open": table.game }, t("tournament.enter_rounds", { game: table.game })),
          el("button", { type: "button", class: "quiet", "data-token": table.game }, t("dashboard.link", { game: table.game })),
        );
        const issued = tokens.has(table.game) ? tableLinkBox(table.game, tokens.get(table.game)) : null;
        grid.append(el("div", { class: "seating", "data-game": table.game }, el("table", {}, caption, head, body), actions, issued));
      }
      box.append(grid, el("div", { class: "row" }, printButton("seating", { "data-session": s.number }), printButton("scorecards", { "data-session": s.number })));
      if (!s.complete || s.tables.some((table) => table.online)) box.append(onlinePart(ctx.event.id, s, { token: ctx.token, busy, redraw: renderSessions }));
      if (!fixed(s)) {
        const names = picked.map(nameOf);
        box.append(
          el(
            "div",
            { class: "row" },
            el("button", { type: "button", "data-swap": s.number, disabled: busy || picked.length !== 2 }, picked.length === 2 ? t("tournament.swap_these", { a: names[0], b: names[1] }) : t("tournament.swap_pick")),
            el("button", { type: "button", class: "quiet", "data-redraw": s.number, disabled: busy }, t("tournament.redraw")),
          ),
        );
      }
      return box;
    }),
  );
}

function renderOverall() {
  const select = $("overall-through");
  select.replaceChildren(
    el("option", { value: "" }, t("tournament.through_latest")),
    ...sessions.map((s) => el("option", { value: String(s.number) }, t("tournament.through", { n: s.number }))),
  );
  select.value = through;
  $("overall-empty").hidden = Boolean(overall && overall.lines.length);
  const csv = $("overall-csv");
  csv.href = path(`/standings?format=csv${through ? `&session=${through}` : ""}`);
  csv.setAttribute("download", `${ctx.event.id}-standings${through ? `-after-${through}` : ""}.csv`);
  if (!overall) return;
  const measure = overall.format.ranking;
  const extra = measure !== "total" && measure !== "table_points" && measure !== "wins";
  const state = overall.provisional ? t("console.standings_provisional", { n: overall.through ?? 0 }) : t("console.standings_final");
  $("overall-format").textContent = `${t("tournament.format_line", { name: overall.format.name, ranking: t(`tournament.measure.${measure}`), through: overall.through ?? "–" })} ${state}`;
  const num = (x) => formatNumber(x, overall.format.decimals ?? 2); // the format's one rounding, as the projector and the PDFs show it
  const head = ["console.rank", "console.player", "tournament.games", "console.total", ...(extra ? [`tournament.measure.${measure}`] : []), "tournament.measure.table_points", "tournament.measure.wins"];
  $("overall-table").tHead.replaceChildren(el("tr", {}, ...head.map((key, i) => el("th", { scope: "col", class: i === 1 ? null : "n" }, t(key)))));
  $("overall-table").tBodies[0].replaceChildren(
    ...overall.lines.map((line) =>
      el(
        "tr",
        { "data-player": line.player },
        el("td", { class: "n" }, String(line.rank)),
        el("th", { scope: "row" }, line.withdrawn ? `${line.name} (${t("tournament.withdrawn_mark")})` : line.name),
        el("td", { class: "n" }, String(line.games)),
        el("td", { class: "n" }, num(line.total)),
        ...(extra ? [el("td", { class: "n" }, num(line[measure]))] : []),
        el("td", { class: "n" }, num(line.table_points)),
        el("td", { class: "n" }, num(line.wins)),
      ),
    ),
  );
}

// --- wiring ---------------------------------------------------------------------------------------------

// The view, for a director's or an administrator's token: `openTable(game)` opens a table in the console,
// `tablesChanged()` tells it the event has new tables.
export function showTournament(context) {
  ctx = context;
  [players, sessions, overall, crosstable, seen, through, picked, unfinished, status] = [[], [], null, null, "", "", [], null, null];
  tokens.clear();
  $("tournament").hidden = false;
  $("session-target").max = String(ctx.event.ruleset.snapshot.players.max);
  render();
  showPlayers(context);
  unwatch();
  unwatch = watch(CHANGES, refresh);
  refresh();
}

export function hideTournament() {
  if (ctx) forgetSeatLinks(ctx.event.id); // a seat link holds a token: not kept past the sign-out
  hidePlayers();
  unwatch();
  hideParts();
  ctx = null;
  $("tournament").hidden = true;
}

$("session-method").replaceChildren(...METHODS.map((m) => el("option", { value: m }, m)));
$("session-form").addEventListener("submit", (e) => {
  e.preventDefault();
  seat(false);
});
$("session-method").addEventListener("change", renderNext);
$("seat-anyway").addEventListener("click", () => seat(true));
$("sessions").addEventListener("change", (e) => {
  if (e.target.dataset.fill) chooseFill(e.target.checked);
  if (e.target.dataset.level) chooseLevel(e.target.value);
  const id = e.target.dataset.pick;
  if (!id) return;
  picked = e.target.checked ? [...picked.filter((p) => p !== id), id].slice(-2) : picked.filter((p) => p !== id);
  renderSessions();
  document.querySelector(`input[data-pick="${CSS.escape(id)}"]`)?.focus();
});
$("sessions").addEventListener("click", (e) => {
  const button = e.target.closest("button");
  if (!button) return;
  const { open, token, renew, hide, swap: swapIn, redraw: redrawIn, print, session, host, seatRenew, seatBot, printSlips: slips } = button.dataset;
  if (host) hostOnline(Number(host));
  if (seatRenew) seatAction(seatRenew, true);
  if (seatBot) seatAction(seatBot, false);
  if (slips) printSlips(slips);
  if (print) printDocument(ctx.token, path(), print, { session, errorNode: $("seating-error"), button });
  if (open) ctx.openTable(open);
  if (token) issueLink(token);
  if (renew) issueLink(renew, true);
  if (hide) {
    tokens.delete(hide);
    render();
  }
  if (swapIn) swap(Number(swapIn));
  if (redrawIn) redraw(Number(redrawIn));
});
$("overall-through").addEventListener("change", () => {
  through = $("overall-through").value;
  seen = "";
  refresh();
});
$("overall-csv").addEventListener("click", (e) => {
  e.preventDefault();
  downloadCsv(e.currentTarget);
});
onLanguage(render);
