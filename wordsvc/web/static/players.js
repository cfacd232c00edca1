// The director's players list in the console (docs/pages.md, "The tournament"): one player registered with an id
// made from the name (or one chosen), a pasted list or a CSV file registered in one request, look-alike names
// shown in pairs before anything is stored and registered only if the director says so, the ticked players or
// everyone checked in at once, and per player check in, withdraw and, while they have no games, delete. Late
// entries are registered and checked in from the same list. Only the public API (docs/tournaments.md), with the
// director's token; read again when the event's stream says a player or a session changed.

import { ApiError, api, el, newestWins, onLanguage, t, tn } from "./common.js";
import { watch } from "./event_feed.js";
import { csvLines, foldedName, linesText, pastedLines } from "./player_lines.js";

const $ = (id) => document.getElementById(id);
const CHANGES = ["player.registered", "player.checked_in", "player.withdrawn", "player.deleted", "session.started", "session.reseated", "table.seated"];
// The one-player form's fields by the API's name (a line's `players.0.<field>`).
const ONE_FIELDS = { id: "reg-id", name: "reg-name", club: "reg-club", rating_id: "reg-rating" };

let ctx = null; // {token, event} from the console
let players = [];
let seated = new Set(); // ids seated in any session: their registration has games
let sessions = 0;
let busy = false; // a write is in flight: a second click sends nothing
let confirming = null; // {id, action: "withdraw" | "delete"}: the row asking first
let ticked = new Set();
let status = null; // what the last write (or the CSV file read) did, as the page says it
let similar = null; // {lines, source, pairs: [text]}: a list held back for look-alike names
let seen = ""; // what the last read got, to draw the list again only when it changed
let focusNext = null; // the id of what to focus once a write is over and its buttons are enabled again

const path = (rest = "") => `/events/${encodeURIComponent(ctx.event.id)}${rest}`;
const nameOf = (id) => (players.find((p) => p.id === id) || { name: id }).name;
const waiting = () => players.filter((p) => !p.checked_in && p.withdrawn === null);

const refresh = newestWins(async (current) => {
  if (!ctx) return;
  try {
    const [p, s] = await Promise.all([api("GET", path("/players"), { token: ctx.token }), api("GET", path("/sessions"), { token: ctx.token })]);
    const got = JSON.stringify([p.body.players, s.body.sessions.map((session) => session.tables.map((table) => table.seats))]);
    if (!current() || got === seen) return; // a read begun later is drawn already, or nothing changed
    seen = got;
    players = p.body.players;
    sessions = s.body.sessions.length;
    seated = new Set(s.body.sessions.flatMap((session) => session.tables.flatMap((table) => table.seats.map((seat) => seat.player))));
    ticked = new Set([...ticked].filter((id) => waiting().some((w) => w.id === id)));
  } catch {
    return; // the next change or poll tries again; what is shown stays
  }
  render();
});

// One write at a time: `send` makes the call and answers the status text; `onProblem` shows a refusal.
async function write(send, onProblem) {
  if (busy) return;
  busy = true;
  status = null;
  render();
  try {
    status = await send();
    seen = "";
    await refresh();
  } catch (error) {
    onProblem(error);
  } finally {
    busy = false;
    render();
    if (focusNext) $(focusNext).focus();
    focusNext = null;
  }
}

// --- problems in the page's language -----------------------------------------------------------------

// A problem of line `line` ({name, ...}) at `field`, in the page's language where the page knows its code.
function lineMessage({ code, message }, field, line) {
  const [min, max] = (message.match(/\d+/g) || []).map(Number);
  const name = line?.name ?? "";
  if (code === "required") return t("tournament.problem.required");
  if (code === "length_out_of_range" && max !== undefined) return t("tournament.problem.length", { min, max });
  if (code === "pattern_mismatch" || code === "invalid_id") return t(field === "rating_id" ? "players.problem.rating_id" : "players.problem.id");
  if (code === "duplicate_name") return t("players.problem.duplicate", { name });
  if (code === "names_look_alike") return t("players.problem.look_alike", { name });
  if (code === "mixed_scripts") return t("players.problem.mixed", { name });
  if (code === "player_conflict" && field === "id") return t("tournament.problem.registered_otherwise", { id: line?.id ?? "" });
  if (code === "player_conflict" && field === "") return t("players.problem.full");
  if (code === "player_has_games") return t("players.problem.has_games", { name });
  return message;
}

// What a `names_similar` warning about line `index` means, one text for each name it is much like: the
// registered players' and the other lines' names that fold alike (the page folds as the service does).
function similarTexts(lines, index, source) {
  const name = lines[index].name;
  const others = [...players.map((p) => p.name), ...lines.filter((_, i) => i !== index).map((l) => l.name)];
  const alike = [...new Set(others.filter((o) => o !== name && foldedName(o) === foldedName(name)))];
  return alike.map((other) => (source === "list" ? t("players.similar_line", { line: lines[index].line, name, other }) : t("players.similar", { name, other })));
}

// Shows a refused registration: a list's problems line by line, the one-player form's beside its fields.
function showRefusal(error, lines, source) {
  const general = source === "list" ? "paste-error" : "register-error";
  clearFields();
  if (!(error instanceof ApiError) || error.status === 0 || error.status === 401 || error.status === 403) {
    const text = !(error instanceof ApiError) ? t("page.error", { detail: error.message }) : error.status === 0 ? error.message : t("page.token_invalid");
    $(general).replaceChildren(el("p", {}, text));
    return;
  }
  if (error.status === 409 && error.problem.code === "names_similar") {
    const pairs = [];
    for (const index of new Set(error.entries().map((entry) => Number(entry.path.split(".")[1])))) {
      const texts = similarTexts(lines, index, source);
      pairs.push(...(texts.length ? texts : error.entries().filter((entry) => entry.path.split(".")[1] === String(index)).map((entry) => entry.message)));
    }
    similar = { lines, source, pairs };
    $(general).after($("similar")); // under the form the director used
    focusNext = "register-anyway";
    return;
  }
  const items = [];
  for (const entry of error.entries()) {
    const [, index, field = ""] = entry.path.match(/^players(?:\.(\d+)(?:\.(\w+))?)?$/) || [null, undefined, entry.path];
    const line = index === undefined ? null : lines[Number(index)];
    const text = lineMessage(entry, field, line);
    if (source === "one" && ONE_FIELDS[field]) {
      $(ONE_FIELDS[field]).setAttribute("aria-invalid", "true");
      $(`${ONE_FIELDS[field]}-error`).textContent = text;
      if (field === "id") $("reg-id-choose").open = true;
    } else {
      items.push(line && source === "list" ? t("players.line_problem", { line: line.line, name: line.name, problem: text }) : text);
    }
  }
  if (!error.entries().length) items.push(t("page.error", { detail: error.message }));
  $(general).replaceChildren(...items.map((text) => el("p", {}, text)));
}

function clearFields() {
  for (const id of Object.values(ONE_FIELDS)) {
    $(id).removeAttribute("aria-invalid");
    $(`${id}-error`).textContent = "";
  }
  $("register-error").replaceChildren();
  $("paste-error").replaceChildren();
}

// --- writing -----------------------------------------------------------------------------------------------

// Registers `lines` (from the one-player form, `source` "one", or a list, "list") in one request.
function register(lines, source, allowSimilar = false) {
  similar = null;
  const body = { players: lines.map(({ line, ...rest }) => rest), allow_similar: allowSimilar };
  write(
    async () => {
      const answer = await api("POST", path("/players"), { token: ctx.token, body });
      clearFields();
      if (source === "one") {
        $("register-form").reset();
        $("reg-name").focus();
        const [p] = answer.body.players;
        return t("players.registered_as", { name: p.name, id: p.id });
      }
      $("paste-list").value = "";
      return tn("players.registered_many", answer.body.players.length);
    },
    (error) => showRefusal(error, lines, source),
  );
}

function registerOne() {
  const line = { line: 1, name: $("reg-name").value.trim(), checked_in: $("reg-checked").checked };
  for (const [field, input] of [["id", "reg-id"], ["club", "reg-club"], ["rating_id", "reg-rating"]]) if ($(input).value.trim()) line[field] = $(input).value.trim();
  register([line], "one");
}

function registerList() {
  const lines = pastedLines($("paste-list").value).map((line) => ({ ...line, checked_in: $("paste-checked").checked }));
  if (!lines.length) {
    clearFields();
    $("paste-error").replaceChildren(el("p", {}, t("players.problem.empty")));
    return;
  }
  register(lines, "list");
}

async function readCsv(file) {
  clearFields();
  try {
    const lines = csvLines(await file.text());
    $("paste-list").value = linesText(lines);
    status = tn("players.csv_read", lines.length, { file: file.name });
  } catch (error) {
    $("paste-error").replaceChildren(el("p", {}, error.message === "no_name_column" ? t("players.csv_no_name", { file: file.name }) : t("page.error", { detail: error.message })));
  }
  render();
  $("paste-list").focus();
}

function checkIn(ids) {
  const body = ids === null ? { all: true } : { players: ids };
  write(
    async () => {
      const answer = await api("POST", path("/check-in"), { token: ctx.token, body });
      ticked.clear();
      return tn("players.checked_in_many", answer.body.players.length);
    },
    (error) => showRowProblem(error),
  );
}

function rowAction(id, action) {
  const name = nameOf(id);
  confirming = null;
  const [method, rest, done] = {
    "check-in": ["POST", `/players/${encodeURIComponent(id)}/check-in`, () => t("tournament.checked_in_done", { name })],
    withdraw: ["POST", `/players/${encodeURIComponent(id)}/withdraw`, () => t("tournament.withdrawn_done", { name, n: sessions + 1 })],
    delete: ["DELETE", `/players/${encodeURIComponent(id)}`, () => t("players.deleted_done", { name })],
  }[action];
  write(
    async () => {
      await api(method, path(rest), { token: ctx.token });
      return done();
    },
    (error) => showRowProblem(error, name),
  );
}

function showRowProblem(error, name = "") {
  let text;
  if (!(error instanceof ApiError)) text = t("page.error", { detail: error.message });
  else if (error.status === 401 || error.status === 403) text = t("page.token_invalid");
  else if (error.status === 0) text = error.message;
  else text = error.entries().map((entry) => lineMessage(entry, entry.path, { name })).join(" ") || t("page.error", { detail: error.message });
  $("players-error").textContent = text;
}

// --- rendering ---------------------------------------------------------------------------------------------

function stateOf(p) {
  if (p.withdrawn !== null) return t("players.state_withdrawn", { n: p.withdrawn });
  if (!p.checked_in) return t("players.state_out");
  return p.joined > 1 ? t("players.state_in_late", { n: p.joined }) : t("players.state_in");
}

function actionsOf(p) {
  const cell = el("td", { class: "actions" });
  if (confirming?.id === p.id) {
    const withdraw = confirming.action === "withdraw";
    cell.append(
      el("span", {}, withdraw ? t("tournament.withdraw_confirm", { name: p.name, n: sessions + 1 }) : t("players.delete_confirm", { name: p.name })),
      el("button", { type: "button", "data-confirmed": confirming.action, "data-player-id": p.id, disabled: busy }, t(withdraw ? "tournament.withdraw" : "players.delete")),
      el("button", { type: "button", class: "quiet", "data-cancel": p.id }, t(withdraw ? "tournament.keep" : "players.keep_registration")),
    );
    return cell;
  }
  if (!p.checked_in) cell.append(el("button", { type: "button", "data-check-in": p.id, disabled: busy, "aria-label": t("tournament.check_in_who", { name: p.name }) }, t("tournament.check_in")));
  if (p.withdrawn === null) cell.append(el("button", { type: "button", class: "quiet", "data-withdraw": p.id, disabled: busy, "aria-label": t("tournament.withdraw_who", { name: p.name }) }, t("tournament.withdraw")));
  if (!seated.has(p.id)) cell.append(el("button", { type: "button", class: "quiet", "data-delete": p.id, disabled: busy, "aria-label": t("players.delete_who", { name: p.name }) }, t("players.delete")));
  return cell;
}

// The attributes that name a row's control: what has the focus is found again after the rows are drawn anew.
const CONTROLS = ["data-tick", "data-check-in", "data-withdraw", "data-delete", "data-player-id", "data-cancel"];

function focusedControl() {
  const node = document.activeElement;
  if (!node || !$("player-table").contains(node)) return null;
  const name = CONTROLS.find((attr) => node.hasAttribute(attr));
  return name ? `[${name}="${CSS.escape(node.getAttribute(name))}"]` : null;
}

function render() {
  if (!ctx) return;
  const focused = focusedControl();
  const active = players.filter((p) => p.checked_in && p.withdrawn === null).length;
  $("players-count").textContent = t("tournament.players_count", { count: players.length, active });
  $("players-late").hidden = sessions === 0;
  $("players-late").textContent = t("players.late_hint", { n: sessions + 1 });
  $("players-status").hidden = !status;
  $("players-status").textContent = status || "";
  const open = waiting().length;
  $("check-in-ticked").textContent = tn("players.check_in_ticked", ticked.size);
  $("check-in-ticked").disabled = busy || ticked.size === 0;
  $("check-in-all").textContent = tn("players.check_in_all", open);
  $("check-in-all").disabled = busy || open === 0;
  $("players-bulk").hidden = open === 0; // everyone checked in or withdrawn: nothing to tick
  $("player-table").hidden = players.length === 0;
  $("player-table").tBodies[0].replaceChildren(
    ...players.map((p) => {
      const tick = p.checked_in || p.withdrawn !== null ? "" : el("label", { class: "check" }, el("input", { type: "checkbox", "data-tick": p.id, checked: ticked.has(p.id), "aria-label": t("players.tick_who", { name: p.name }) }));
      return el(
        "tr",
        { "data-player": p.id, class: p.withdrawn === null ? null : "gone" },
        el("td", { class: "tick" }, tick),
        el("th", { scope: "row" }, p.name),
        el("td", { class: "pid", "data-label": t("tournament.id") }, p.id),
        el("td", { class: "club", "data-label": t("tournament.club") }, p.club || ""),
        el("td", { class: "state" }, stateOf(p)),
        actionsOf(p),
      );
    }),
  );
  if (focused) document.querySelector(`#player-table ${focused}`)?.focus();
  $("similar").hidden = !similar;
  if (similar) $("similar-list").replaceChildren(...similar.pairs.map((text) => el("li", {}, text)));
  $("register-anyway").disabled = busy;
  for (const id of ["paste-register", "reg-submit"]) $(id).disabled = busy;
}

// --- wiring ------------------------------------------------------------------------------------------------

let unwatch = () => {};

// The list, for a director's or an administrator's token (`context`: {token, event}).
export function showPlayers(context) {
  ctx = context;
  [players, seated, sessions, confirming, status, similar, seen] = [[], new Set(), 0, null, null, null, ""];
  ticked = new Set();
  clearFields();
  render();
  unwatch();
  unwatch = watch(CHANGES, refresh);
  refresh();
}

export function hidePlayers() {
  unwatch();
  ctx = null;
}

$("register-form").addEventListener("submit", (e) => {
  e.preventDefault();
  registerOne();
});
$("paste-form").addEventListener("submit", (e) => {
  e.preventDefault();
  registerList();
});
$("csv-file").addEventListener("change", (e) => {
  const [file] = e.target.files;
  if (file) readCsv(file);
  e.target.value = "";
});
$("register-anyway").addEventListener("click", () => {
  if (similar && !busy) register(similar.lines, similar.source, true);
});
$("similar-cancel").addEventListener("click", () => {
  const source = similar?.source;
  similar = null;
  render();
  $(source === "one" ? "reg-name" : "paste-list").focus();
});
$("check-in-ticked").addEventListener("click", () => checkIn([...ticked]));
$("check-in-all").addEventListener("click", () => checkIn(null));
$("player-table").addEventListener("change", (e) => {
  const id = e.target.dataset.tick;
  if (!id) return;
  if (e.target.checked) ticked.add(id);
  else ticked.delete(id);
  render();
  document.querySelector(`input[data-tick="${CSS.escape(id)}"]`)?.focus();
});
$("player-table").addEventListener("click", (e) => {
  const button = e.target.closest("button");
  if (!button || busy) return;
  const { checkIn: checkInId, withdraw, delete: deleteId, confirmed, playerId, cancel } = button.dataset;
  $("players-error").textContent = "";
  if (checkInId) rowAction(checkInId, "check-in");
  if (confirmed) rowAction(playerId, confirmed);
  if (withdraw || deleteId) {
    confirming = { id: withdraw || deleteId, action: withdraw ? "withdraw" : "delete" };
    render();
    document.querySelector(`button[data-player-id="${CSS.escape(confirming.id)}"]`)?.focus();
  }
  if (cancel) {
    const action = confirming?.action;
    confirming = null;
    render();
    document.querySelector(`button[data-${action === "delete" ? "delete" : "withdraw"}="${CSS.escape(cancel)}"]`)?.focus();
  }
});
onLanguage(render);
