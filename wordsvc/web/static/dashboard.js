// The director's dashboard in the console (docs/pages.md, "The dashboard and sign-in links"): every table
// of the event with its players, the last round stored, the rounds still to enter and its kiosk rulings;
// one click opens a table; per table a referee's sign-in link (and its QR code, signin_links.js: one a table from
// this device) is issued and revoked; the director's, the kiosk's and the projector's links (venue_links.js).
// A table hosted online (docs/play.md, "Seated tables") says how its game stands (waiting, the round being played,
// over), read from the same audit, with a "Watch" link to its table page for a public event.
// Also, for every role, the open table named at the top of the page. Only the public API, with the
// console's token: GET /events/{e}, its audit (read from where the last read stopped), its tokens;
// POST /events/{e}/tokens, DELETE /events/{e}/tokens/{id}, POST /qr. All of it is read again when the
// event's stream (event_feed.js) says a table changed, or on the poll it falls back to.

import { ApiError, api, el, onLanguage, t } from "./common.js";
import { watch } from "./event_feed.js";
import { printDocument } from "./print.js";
import { dropRevokedLinks, forgetTableLinks, keptTableLink, tableLink, tableLinkBox } from "./signin_links.js";
import { hideVenueLinks, showVenueLinks } from "./venue_links.js";

const $ = (id) => document.getElementById(id);
const AUDIT_PAGE = 1000; // the most entries GET /events/{e}/audit answers at once
// The messages after which a card may read otherwise (a token issued or revoked elsewhere sends none: it shows at the next one).
const CHANGES = ["round.stored", "round.corrected", "table.seated", "session.started", "session.reseated", "ruling.given", "event.closed", "play.created", "play.started", "play.ended"];
// The audit actions of a hosted game, and the status each leaves it in.
const ONLINE = { "play.created": "waiting", "play.started": "playing", "play.ended": "over", "play.aborted": "aborted" };

let ctx = null; // {token, event, who, openTable} from the console
let event = null; // GET /events/{e}, as the last read had it
let cursor = 0; // the last audit entry read
let stored = new Map(); // game -> Map(round -> time it was last stored)
let rulings = new Map(); // game -> {count, at, acceptable} of its kiosk rulings
let online = new Map(); // game -> the status of its hosted game (waiting, playing, over, aborted)
let tokens = []; // the event's live referee tokens limited to a table
let links = new Map(); // game -> {id, url, at, again, svg}: a table's sign-in link (signin_links.js) shown until hidden or revoked
let openGame = null; // the table open in the console
let shown = ""; // what the last render drew, to draw again only when something changed
let status = null; // {key, params} of the last revocation
let unwatch = () => {};
let busy = false;
let loaded = false; // the audit is read: the cards say what is stored only from then on

const director = () => ctx && (ctx.who.role === "director" || ctx.who.role === "admin");
const path = (rest = "") => `/events/${encodeURIComponent(ctx.event.id)}${rest}`;
const rounds = () => event.ruleset.rounds.length;
const clock = (at) => new Date(at).toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" });

function problemText(error) {
  if (error instanceof ApiError && (error.status === 401 || error.status === 403)) return t("page.token_invalid");
  if (error instanceof ApiError && error.status === 0) return error.message;
  return t("page.error", { detail: error.message });
}

// --- reading ------------------------------------------------------------------------------------------

// Audit entries after the cursor, page by page: rounds stored (round.submitted, not corrections: a
// correction stores no new round) and kiosk rulings (judge.ruling: the result and the time, never the words).
async function readAudit() {
  for (;;) {
    const page = (await api("GET", path(`/audit?after=${cursor}&limit=${AUDIT_PAGE}`), { token: ctx.token })).body.entries;
    for (const entry of page) {
      cursor = entry.seq;
      const p = entry.payload;
      if (entry.action === "round.submitted") {
        if (!stored.has(p.game)) stored.set(p.game, new Map());
        stored.get(p.game).set(p.round, entry.at);
      } else if (ONLINE[entry.action]) {
        online.set(p.game, ONLINE[entry.action]);
      } else if (entry.action === "judge.ruling") {
        const before = rulings.get(p.table) || { count: 0 };
        rulings.set(p.table, { count: before.count + 1, at: entry.at, acceptable: p.acceptable });
      }
    }
    if (page.length < AUDIT_PAGE) return;
  }
}

async function refresh() {
  if (!ctx) return;
  try {
    event = (await api("GET", path(), { token: ctx.token })).body;
    if (director()) {
      await readAudit();
      const live = (await api("GET", path("/tokens"), { token: ctx.token })).body.tokens;
      tokens = live.filter((tk) => tk.role === "referee" && tk.table !== null && tk.revoked_at === null);
      for (const [game, link] of links) if (!tokens.some((tk) => tk.id === link.id)) links.delete(game); // revoked elsewhere
      dropRevokedLinks(ctx.event.id, new Set(tokens.map((tk) => tk.id)));
      loaded = true;
      $("dashboard-error").textContent = "";
      $("dashboard-updated").textContent = t("dashboard.updated", { time: new Date().toLocaleTimeString(document.documentElement.lang) });
    }
  } catch (error) {
    if (director()) $("dashboard-error").textContent = problemText(error);
    return; // the next change or poll tries again; what is shown stays
  }
  render();
}

// --- what a table stands at -----------------------------------------------------------------------------

// Rounds not yet stored, in order; from the audit for a director, from the count of rounds played otherwise.
function missing(game) {
  const all = Array.from({ length: rounds() }, (_, i) => i + 1);
  const done = stored.get(game.id);
  if (done && done.size >= game.rounds_played) return all.filter((n) => !done.has(n));
  return all.slice(game.rounds_played);
}

// 2, 5, 6, 7, 8 as "2, 5–8".
function spans(numbers) {
  const out = [];
  for (const n of numbers) {
    const last = out[out.length - 1];
    if (last && last[1] === n - 1) last[1] = n;
    else out.push([n, n]);
  }
  return out.map(([a, b]) => (a === b ? String(a) : `${a}–${b}`)).join(", ");
}

function state(game) {
  if (missing(game).length === 0) return "finished";
  return game.rounds_played === 0 ? "not_started" : "playing";
}

function lastStored(game) {
  const done = stored.get(game.id);
  if (!done || !done.size) return null;
  return [...done.entries()].reduce((a, b) => (b[1] > a[1] || (b[1] === a[1] && b[0] > a[0]) ? b : a));
}

// --- the open table, named at the top -------------------------------------------------------------------

function renderOpen() {
  const line = $("open-table");
  const game = event && openGame !== null ? event.games.find((g) => g.id === openGame) : null;
  line.hidden = !game;
  if (!game) return;
  const left = missing(game);
  const params = { game: game.id, players: game.players.join(", "), n: left[0] };
  line.textContent = t(left.length ? "dashboard.open_table" : "dashboard.open_table_finished", params);
}

// --- writing ----------------------------------------------------------------------------------------------

// The table's referee link: the one this device issued, shown again, or a new one (`renew`: the old one revoked first).
async function issueLink(game, renew = false) {
  if (busy) return;
  busy = true;
  status = null;
  $("dashboard-error").textContent = "";
  try {
    const before = keptTableLink(ctx.event.id, game);
    const link = await tableLink(ctx.token, ctx.event.id, game, { renew });
    links.set(game, link);
    if (!link.again) tokens = [...tokens.filter((tk) => !(renew && tk.id === before?.id)), { id: link.id, role: "referee", table: game, created_at: link.at, revoked_at: null }];
  } catch (error) {
    $("dashboard-error").textContent = problemText(error);
  } finally {
    busy = false;
  }
  render(true);
  document.querySelector(`#dashboard [data-game="${CSS.escape(game)}"] .link-url`)?.focus();
}

async function revoke(id, game) {
  if (busy) return;
  busy = true;
  $("dashboard-error").textContent = "";
  try {
    await api("DELETE", path(`/tokens/${encodeURIComponent(id)}`), { token: ctx.token });
    tokens = tokens.filter((tk) => tk.id !== id);
    if (links.get(game)?.id === id) links.delete(game);
    dropRevokedLinks(ctx.event.id, new Set(tokens.map((tk) => tk.id)));
    status = { key: "dashboard.revoked", params: { id } };
  } catch (error) {
    $("dashboard-error").textContent = problemText(error);
  } finally {
    busy = false;
  }
  render(true);
  document.querySelector(`#dashboard [data-game="${CSS.escape(game)}"] button[data-link]`)?.focus();
}

// --- rendering --------------------------------------------------------------------------------------------

// Draws the dashboard again when what it shows changed (or `force`): a read never moves the focus for nothing.
function render(force = false) {
  if (!ctx || !event) return;
  renderOpen();
  if (!director() || !loaded) return;
  const now = JSON.stringify([event.games, [...stored].map(([g, m]) => [g, [...m]]), [...rulings], [...online], tokens, openGame, status, document.documentElement.lang]);
  if (!force && now === shown) return;
  shown = now;
  $("dashboard-empty").hidden = event.games.length > 0;
  $("dashboard-status").hidden = !status;
  $("dashboard-status").textContent = status ? t(status.key, status.params) : "";
  const focused = document.activeElement && $("dashboard-tables").contains(document.activeElement) ? focusKey(document.activeElement) : null;
  $("dashboard-tables").replaceChildren(...event.games.map(card));
  if (focused) document.querySelector(focused)?.focus();
}

// A selector for the focused control that finds it again in the cards drawn anew.
function focusKey(node) {
  const box = node.closest("[data-game]");
  const attr = ["data-open", "data-link", "data-revoke", "data-copy", "data-hide", "data-renew", "data-print-link"].find((name) => node.hasAttribute(name));
  if (!box || !attr) return null;
  return `#dashboard [data-game="${CSS.escape(box.dataset.game)}"] [${attr}="${CSS.escape(node.getAttribute(attr))}"]`;
}

function card(game) {
  const id = `dash-${game.id}`;
  const now = state(game);
  const left = missing(game);
  const last = lastStored(game);
  const ruled = rulings.get(game.id);
  const live = tokens.filter((tk) => tk.table === game.id);
  const lines = [
    el("p", { class: "players" }, game.players.join(", ")),
    el("p", { class: `state ${now}`, "data-state": now }, t(`dashboard.state.${now}`)),
    el("p", { "data-stored": game.rounds_played }, last ? t("dashboard.last_round", { n: last[0], rounds: rounds(), time: clock(last[1]) }) : t("dashboard.no_round", { rounds: rounds() })),
    el(
      "p",
      { "data-missing": left.join(" ") },
      left.length ? t("dashboard.to_enter", { list: t(left.length === 1 ? "dashboard.round_list_one" : "dashboard.round_list_many", { list: spans(left) }) }) : t("dashboard.all_stored", { rounds: rounds() }),
    ),
    el(
      "p",
      { "data-rulings": ruled ? ruled.count : 0 },
      ruled ? `${t("dashboard.rulings", { count: ruled.count })}; ${t("dashboard.last_ruling", { time: clock(ruled.at), result: t(ruled.acceptable ? "dashboard.ruling.acceptable" : "dashboard.ruling.unacceptable") })}` : t("dashboard.no_rulings"),
    ),
  ];
  const hosted = online.get(game.id);
  if (hosted) {
    const playing = Math.min(game.rounds_played + 1, rounds());
    const said = el("p", { class: "online", "data-online": hosted }, t(`dashboard.online.${hosted}`, { n: playing, rounds: rounds() }));
    if (!event.private) said.append(" ", el("a", { href: `/play/${encodeURIComponent(event.id)}/${encodeURIComponent(game.id)}`, target: "_blank", rel: "noopener", "data-watch": game.id }, t("dashboard.watch", { game: game.id })));
    lines.push(said);
  }
  const isOpen = game.id === openGame;
  const actions = el(
    "div",
    { class: "row" },
    el("button", { type: "button", "data-open": game.id, "aria-current": isOpen ? "true" : null }, isOpen ? t("dashboard.is_open") : t("dashboard.open", { game: game.id })),
    el("button", { type: "button", class: "quiet", "data-link": game.id, disabled: busy }, t("dashboard.link", { game: game.id })),
  );
  const box = el("article", { class: `dash-table${isOpen ? " current" : ""}`, "data-game": game.id, "aria-labelledby": id }, el("h3", { id }, t("dashboard.table", { game: game.id })), ...lines, actions);
  const link = links.get(game.id);
  if (link) box.append(tableLinkBox(game.id, link));
  if (live.length) {
    box.append(
      el("p", { class: "hint" }, t("dashboard.tokens", { count: live.length })),
      el(
        "ul",
        { class: "tokens" },
        ...live.map((tk) =>
          el(
            "li",
            { "data-token": tk.id },
            t("dashboard.token_line", { id: tk.id, time: clock(tk.created_at) }),
            " ",
            el("button", { type: "button", class: "quiet", "data-revoke": tk.id, disabled: busy, "aria-label": t("dashboard.revoke_who", { id: tk.id, game: game.id }) }, t("dashboard.revoke")),
          ),
        ),
      ),
    );
  }
  return box;
}

// --- wiring -----------------------------------------------------------------------------------------------

// Called by the console once signed in: `ctx` is {token, event, who, openTable(game)}. A director (or an
// administrator) gets the dashboard, read again whenever a table changes; every role gets the open table
// named at the top.
export function showDashboard(context) {
  ctx = context;
  event = ctx.event;
  [cursor, stored, rulings, online, tokens, links, openGame, shown, status, busy, loaded] = [0, new Map(), new Map(), new Map(), [], new Map(), null, "", null, false, false];
  $("dashboard").hidden = !director();
  render(true);
  if (director()) showVenueLinks(ctx);
  unwatch();
  unwatch = watch(CHANGES, refresh);
  refresh();
}

export function hideDashboard() {
  unwatch();
  if (ctx) forgetTableLinks(ctx.event.id); // a link holds a token: not kept past the sign-out
  hideVenueLinks();
  ctx = event = openGame = null;
  links = new Map(); // a link holds a token: gone with the sign-out
  $("dashboard").hidden = true;
  $("dashboard-tables").replaceChildren();
  $("open-table").hidden = true;
}

// The console opened table `game`: named at the top, marked in the dashboard.
export function tableOpened(game) {
  openGame = game;
  render(true);
  refresh();
}

$("dashboard-tables").addEventListener("click", (e) => {
  const button = e.target.closest("button");
  if (!button || !ctx) return;
  const game = button.closest("[data-game]").dataset.game;
  const { open, link, revoke: id, renew, hide } = button.dataset;
  if (open) ctx.openTable(open);
  if (link) issueLink(link);
  if (renew) issueLink(renew, true);
  if (id) revoke(id, game);
  if (hide) {
    links.delete(hide);
    render(true);
    document.querySelector(`#dashboard [data-game="${CSS.escape(hide)}"] button[data-link]`)?.focus();
  }
});
$("dashboard-audit").addEventListener("click", (e) => {
  if (ctx) printDocument(ctx.token, path(), "audit", { errorNode: $("dashboard-error"), button: e.currentTarget });
});
onLanguage(() => render(true));
