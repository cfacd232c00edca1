// The players' lobby, /play (docs/pages.md, "The lobby (/play)"): make a table and invite to it, or join an open one.
//
// Making a table is POST /tables with the form's choices (a word list of GET /languages, a ruleset of GET /rulesets
// for it, the seats its GET /rulesets/{id} allows, which seats the server's bots take and at what level, the clock,
// rated or casual, public or private), sent with no token: the service's policy (WORDSVC_EVENT_CREATION,
// config.event_creation) says whether anyone may. The maker then sits at seat 1 (POST .../play/seats with the
// table's director token and a random nonce); the seat's token, the director token and the name are kept on this
// device (play_store.js), and the invite is shown (lobby_invite.js). The open tables are lobby_tables.js's.

import { api, config, el, languageSwitch, onLanguage, t } from "./common.js";
import { hideInvite, nonce, showInvite, drawLinks } from "./lobby_invite.js";
import { CLOCK_BOUNDS, problemText } from "./lobby_problems.js";
import { redrawOpenTables, refresh, wireOpenTables } from "./lobby_tables.js";
import { rulesetsOf } from "./new_event.js";
import { keepPlayerName, keepSeat, keepTable, keptSeat, keptTables, playerName } from "./play_store.js";

const $ = (id) => document.getElementById(id);
// The server's bot levels by number, weakest first: the names of wordsvc/core/play/bot_levels.py's LEVELS (a test
// holds the two together); each is shown as the catalogue's lobby.bot.<name>.
export const BOT_LEVELS = { 1: "novice", 2: "casual", 3: "club", 4: "expert" };
// How long a table made here stays offered again on opening the lobby, while it waits for players.
const RESUME_MS = 24 * 3600 * 1000;

let languages = []; // GET /languages
let rulesets = []; // GET /rulesets
const rulesetDetails = new Map(); // id -> GET /rulesets/{id} (its players' bounds), or its promise
const seatChoices = []; // seat -> "person" or a bot level ("1" to "4"), kept when the seat count changes
let pending = null; // a table made whose maker's seat is not taken yet: {event, game, token}
let busy = false;

languageSwitch($("language"));

function known() {
  return { rulesets: new Map(rulesets.map((r) => [r.id, r.name])), languages: new Map(languages.map((l) => [l.id, l.name])) };
}

function rulesetDetail(id) {
  if (!rulesetDetails.has(id)) {
    const read = api("GET", `/rulesets/${encodeURIComponent(id)}`).then((answer) => answer.body);
    read.catch(() => rulesetDetails.delete(id));
    rulesetDetails.set(id, read);
  }
  return rulesetDetails.get(id);
}

// The word list first offered: the first whose tags begin with the page's language, else the first.
function defaultLexicon() {
  const lang = document.documentElement.lang;
  return languages.find((l) => l.tags.some((tag) => tag.toLowerCase().split("-")[0] === lang)) || languages[0];
}

function fillRulesets() {
  const lexicon = languages.find((l) => l.id === $("table-lang").value);
  if (!lexicon) return;
  $("table-ruleset").replaceChildren(...rulesetsOf(lexicon, rulesets).map((r) => el("option", { value: r.id, text: r.name })));
  return fillSeats();
}

// The seat counts the ruleset allows; the count chosen stays when it still fits (2 when none was chosen).
async function fillSeats() {
  const id = $("table-ruleset").value;
  let players;
  try {
    players = (await rulesetDetail(id)).players;
  } catch (error) {
    say(error);
    return;
  }
  if ($("table-ruleset").value !== id) return; // another ruleset was chosen meanwhile
  const chosen = Number($("table-seats").value) || 2;
  const counts = Array.from({ length: players.max - players.min + 1 }, (_, i) => players.min + i);
  $("table-seats").replaceChildren(...counts.map((n) => el("option", { value: n, text: String(n) })));
  $("table-seats").value = String(Math.min(Math.max(chosen, players.min), players.max));
  drawSeats();
}

// One line a seat: seat 1 is the maker's; each other one a person's or a bot's of a level.
function drawSeats() {
  const count = Number($("table-seats").value) || 0;
  const rows = [el("p", { class: "seat-you" }, t("lobby.seat_you"))];
  for (let seat = 1; seat < count; seat += 1) {
    const id = `seat-${seat}`;
    const select = el(
      "select",
      { id, "data-seat": seat },
      el("option", { value: "person" }, t("lobby.seat.person")),
      ...Object.entries(BOT_LEVELS).map(([level, name]) => el("option", { value: level }, t(`lobby.bot.${name}`))),
    );
    select.value = seatChoices[seat] ?? "person";
    select.addEventListener("change", () => {
      seatChoices[seat] = select.value;
      showRated();
    });
    rows.push(el("div", { class: "seat-row" }, el("label", { for: id }, t("lobby.seat", { seat: seat + 1 })), select));
  }
  $("seat-rows").replaceChildren(...rows);
  showRated();
}

// The bots chosen for the seats shown: [{seat, level}].
function bots() {
  return [...document.querySelectorAll("#seat-rows select")].filter((s) => s.value !== "person").map((s) => ({ seat: Number(s.dataset.seat), level: Number(s.value) }));
}

// A table with a bot is never rated (docs/play.md): "Rated" is offered only without one.
function showRated() {
  const withBot = bots().length > 0;
  const rated = document.querySelector('input[name="rated"][value="rated"]');
  rated.disabled = withBot;
  if (withBot) document.querySelector('input[name="rated"][value="casual"]').checked = true;
  $("rated-hint").hidden = !withBot;
}

function showClock() {
  const kind = document.querySelector('input[name="clock"]:checked').value;
  $("clock-live").hidden = kind !== "live";
  $("clock-correspondence").hidden = kind !== "correspondence";
}

// A whole number of the field `id` within its min and max, or null (the field marked invalid).
function whole(id) {
  const field = $(id);
  const value = Number(field.value);
  const fits = field.value.trim() !== "" && Number.isInteger(value) && value >= Number(field.min) && value <= Number(field.max);
  if (fits) field.removeAttribute("aria-invalid");
  else field.setAttribute("aria-invalid", "true");
  return fits ? value : null;
}

// The clock the form describes, as POST /tables takes it; null when a number is out of its bounds.
function clock() {
  const kind = document.querySelector('input[name="clock"]:checked').value;
  if (kind === "live") {
    const turn = whole("turn-seconds");
    const bank = whole("bank-minutes");
    return turn === null || bank === null ? null : { kind, turn_seconds: turn, bank_seconds: bank * 60 };
  }
  if (kind === "correspondence") {
    const hours = whole("turn-hours");
    return hours === null ? null : { kind, turn_hours: hours };
  }
  return { kind: "none" };
}

function say(error, name = "") {
  $("create-error").textContent = error ? problemText(error, { name }) : "";
}

function refuse(key, field, params = {}) {
  $("create-error").textContent = t(key, params);
  if (field) {
    field.setAttribute("aria-invalid", "true");
    field.focus();
  }
}

// Sits the maker at seat 1 of `made` ({event, game, token}) and keeps the seat; answers the table's view.
async function sit(made, name) {
  const path = `/events/${encodeURIComponent(made.event)}/games/${encodeURIComponent(made.game)}/play/seats`;
  const taken = (await api("POST", path, { token: made.token, body: { seat: 0, name, nonce: nonce() } })).body;
  keepSeat(made.event, made.game, { token: taken.token, token_id: taken.token_id, seat: taken.seat, name });
  return taken.table;
}

async function submit(e) {
  e.preventDefault();
  if (busy) return;
  const name = $("player-name").value.trim();
  if (!name) return refuse("lobby.problem.name_needed", $("player-name"));
  $("player-name").removeAttribute("aria-invalid");
  const chosenClock = clock();
  if (!chosenClock) return refuse("lobby.problem.clock", document.querySelector('#create-form [aria-invalid="true"]'), CLOCK_BOUNDS);
  const body = {
    name: t("lobby.table_name", { name }),
    lang: $("table-lang").value,
    ruleset: $("table-ruleset").value,
    seats: Number($("table-seats").value),
    bots: bots(),
    clock: chosenClock,
    rated: document.querySelector('input[name="rated"]:checked').value === "rated",
    public: document.querySelector('input[name="access"]:checked').value === "public",
  };
  busy = true;
  $("create-submit").disabled = true;
  say(null);
  try {
    if (!pending) {
      const made = (await api("POST", "/tables", { body })).body;
      pending = { event: made.event, game: made.game, token: made.director_token.token };
      keepTable(made.event, made.game, { token: made.director_token.token, token_id: made.director_token.id, public: body.public });
    }
    const table = await sit(pending, name);
    pending = null;
    keepPlayerName(name);
    $("create").hidden = true;
    await showInvite(table);
    refresh();
  } catch (error) {
    say(error, name);
    if (pending) $("player-name").focus(); // the table is made: only the maker's seat is missing, most likely its name
  } finally {
    busy = false;
    $("create-submit").disabled = false;
  }
}

// On opening the lobby: the newest table made here in the last day that still waits, with the maker's seat, shows its
// invite again (the links issued for it too), so a reload before sharing loses nothing.
async function resume() {
  const last = keptTables()[0];
  if (!last || Date.now() - Date.parse(last.at) > RESUME_MS || !keptSeat(last.event, last.game)) return;
  try {
    const path = `/events/${encodeURIComponent(last.event)}/games/${encodeURIComponent(last.game)}/play`;
    const table = (await api("GET", path, { token: last.token })).body;
    if (table.status !== "waiting") return;
    $("create").hidden = true;
    await showInvite(table, { focus: false });
  } catch {
    // gone, or the service is away: the lobby shows the form as usual
  }
}

async function load() {
  try {
    [languages, rulesets] = await Promise.all([api("GET", "/languages"), api("GET", "/rulesets")]).then(([l, r]) => [l.body.languages, r.body.rulesets]);
  } catch (error) {
    say(error);
    return;
  }
  $("table-lang").replaceChildren(...languages.map((l) => el("option", { value: l.id, lang: l.tags[0], text: l.name })));
  $("table-lang").value = defaultLexicon()?.id ?? "";
  await fillRulesets();
  $("create-submit").disabled = false;
}

function wire() {
  for (const [id, min, max] of [
    ["turn-seconds", CLOCK_BOUNDS.turn_min, CLOCK_BOUNDS.turn_max],
    ["bank-minutes", 0, CLOCK_BOUNDS.bank_max],
    ["turn-hours", CLOCK_BOUNDS.hours_min, CLOCK_BOUNDS.hours_max],
  ]) {
    $(id).min = min;
    $(id).max = max;
  }
  const open = config.event_creation !== "admin";
  $("create-form").hidden = !open;
  $("create-closed").hidden = open;
  $("create-submit").disabled = true; // until the choices are read
  $("player-name").value = playerName();
  $("create-form").addEventListener("submit", submit);
  $("table-lang").addEventListener("change", fillRulesets);
  $("table-ruleset").addEventListener("change", fillSeats);
  $("table-seats").addEventListener("change", drawSeats);
  for (const radio of document.querySelectorAll('input[name="clock"]')) radio.addEventListener("change", showClock);
  $("make-another").addEventListener("click", () => {
    hideInvite();
    $("create").hidden = false;
    $("player-name").focus();
  });
  onLanguage(() => {
    drawSeats();
    drawLinks();
    redrawOpenTables(known());
  });
}

wire();
Promise.all([load().then(() => redrawOpenTables(known())), resume(), wireOpenTables(known())]).finally(() => {
  document.body.dataset.ready = "true";
});

