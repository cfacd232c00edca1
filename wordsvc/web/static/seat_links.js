// A session played online, in the director's tournament view (docs/pages.md, "The tournament"; docs/play.md, "Seated
// tables"): "Play session n online" hosts each of its tables (POST /events/{e}/games/{g}/play/host), short tables
// filled with bots when asked; every player's seat link (<public url>/play/{e}/{g}#token=…, its token in the
// fragment, which no browser sends) is shown in a box with its QR code (signin_links.js), issued again on demand
// (the old one revoked), and printed as slips to cut out, one a player: a seat link is a secret, never a wall sheet.
// A seat whose player has not come is handed to a bot. The links are kept on this device (localStorage, per event,
// forgotten at sign-out), like the referees' links, for a token is shown once.

import { ApiError, api, el, t } from "./common.js";
import { absolute, linkBox, printBox, qrCode } from "./signin_links.js";

const SHELF = (event) => `wordsvc.seat-links/${event}`;
const LEVELS = [1, 2, 3, 4];
const svgs = new Map(); // a link -> its QR code, drawn once by the service
const seen = new Map(); // a hosted table -> {at, status, bots}: the seats a bot plays, as its last read said
const SEEN_MS = 5000; // a table's seats are read again at most this often (a render follows every stream message)
let fill = false; // fill the short tables with bots when hosting
let level = 2; // the bots' level

// The seat link of a seat's token: the table page, which keeps the token on the player's device.
export const seatLink = (event, game, token) => absolute(`/play/${encodeURIComponent(event)}/${encodeURIComponent(game)}#token=${encodeURIComponent(token)}`);

// The links this device was given for `event`: game -> {seat: {seat, name, player, id, url}}.
export function keptSeats(event) {
  try {
    return JSON.parse(localStorage.getItem(SHELF(event)) || "{}");
  } catch {
    return {};
  }
}

function keep(event, seats) {
  if (Object.keys(seats).length) localStorage.setItem(SHELF(event), JSON.stringify(seats));
  else localStorage.removeItem(SHELF(event));
}

function remember(event, game, issued) {
  const all = keptSeats(event);
  const table = (all[game] ||= {});
  for (const seat of issued) table[seat.seat] = { seat: seat.seat, name: seat.name, player: seat.player, id: seat.token_id, url: seatLink(event, game, seat.token) };
  keep(event, all);
}

function drop(event, game, seat) {
  const all = keptSeats(event);
  if (all[game]) delete all[game][seat];
  keep(event, all);
}

// Forgets every seat link of `event` kept on this device (signing out: a link holds a token).
export function forgetSeatLinks(event) {
  localStorage.removeItem(SHELF(event));
}

// The QR codes of the links kept for `event`, drawn by the service; `done()` once any new one is there.
async function drawCodes(event, done) {
  const wanted = Object.values(keptSeats(event)).flatMap((table) => Object.values(table).map((seat) => seat.url)).filter((url) => !svgs.has(url));
  if (!wanted.length) return;
  for (const url of wanted) {
    try {
      svgs.set(url, await qrCode(url));
    } catch {
      return; // the box still shows the link; the next render tries again
    }
  }
  done();
}

// Reads again the seats of the hosted tables whose last read is older than SEEN_MS or of another status; `done()` after.
async function readSeats(token, event, tables, done) {
  const stale = tables.filter((table) => {
    const last = seen.get(table.game);
    return !last || last.status !== table.online || Date.now() - last.at > SEEN_MS;
  });
  if (!stale.length) return;
  for (const table of stale) seen.set(table.game, { ...(seen.get(table.game) || { bots: new Set() }), at: Date.now(), status: table.online });
  try {
    for (const table of stale) {
      const read = (await api("GET", `/events/${encodeURIComponent(event)}/games/${encodeURIComponent(table.game)}/play`, { token })).body;
      seen.set(table.game, { at: Date.now(), status: table.online, bots: new Set(read.seats.filter((seat) => seat.kind === "bot").map((seat) => seat.seat)) });
    }
  } catch {
    return; // the next render reads again
  }
  done();
}

// Hosts every table of `session` not hosted yet; the bots fill the short tables up to the largest when asked.
// Answers the refusals, {game: error}; the links issued are kept.
export async function hostSession(token, event, session) {
  const largest = Math.max(...session.tables.map((table) => table.seats.length));
  const refused = {};
  for (const table of session.tables) {
    if (table.online) continue;
    const bots = [];
    if (fill) for (let seat = table.seats.length; seat < largest; seat += 1) bots.push({ seat, level });
    try {
      const hosted = (await api("POST", `/events/${encodeURIComponent(event)}/games/${encodeURIComponent(table.game)}/play/host`, { token, body: { bots } })).body;
      remember(event, table.game, hosted.seats);
    } catch (error) {
      if (!(error instanceof ApiError && error.problem.code === "already_hosted")) refused[table.game] = error;
    }
  }
  return refused;
}

// A new link for `seat` of `game` (the old one revoked), kept on this device.
export async function renewSeat(token, event, game, seat) {
  const issued = (await api("POST", `/events/${encodeURIComponent(event)}/games/${encodeURIComponent(game)}/play/seats/${seat}/token`, { token })).body;
  remember(event, game, [issued]);
}

// The server's bot plays `seat` of `game` from now on (its player has not come): its link is no longer kept.
export async function seatToBot(token, event, game, seat) {
  await api("POST", `/events/${encodeURIComponent(event)}/games/${encodeURIComponent(game)}/play/seats/${seat}/bot`, { token, body: { level } });
  drop(event, game, seat);
  seen.get(game)?.bots.add(seat);
}

// The part of a session's box that plays it online: the form that hosts it, or each hosted table's seat links.
// `redraw()` draws the view again (a QR code or a table's seats came); `busy`: a write is in flight; `token`: the director's.
export function onlinePart(event, session, { token, busy, redraw }) {
  const hosted = session.tables.filter((table) => table.online);
  const part = el("div", { class: "online", "data-online": session.number });
  part.append(el("h4", {}, t("tournament.online.heading")));
  if (hosted.length < session.tables.length && !session.complete) part.append(hostForm(session, busy));
  if (!hosted.length) return part;
  const kept = keptSeats(event);
  const slips = el("div", { class: "seat-slips", "data-slips": session.number });
  for (const table of hosted) {
    const links = kept[table.game] || {};
    const status = t(`tournament.online.status.${table.online}`);
    const watch = el("a", { href: `/play/${encodeURIComponent(event)}/${encodeURIComponent(table.game)}`, target: "_blank", rel: "noopener", "data-watch": table.game }, t("tournament.online.watch", { game: table.game }));
    const group = el("div", { class: "online-table", "data-online-game": table.game }, el("p", {}, `${t("tournament.online.table", { game: table.game, status })} `, watch));
    for (const seat of table.seats) {
      const link = links[seat.seat];
      const key = `${table.game}/${seat.seat}`;
      if (seen.get(table.game)?.bots.has(seat.seat)) {
        group.append(el("p", { class: "seat-line", "data-seat-line": key, "data-bot": "true" }, t("tournament.online.is_bot", { name: seat.name })));
        continue;
      }
      const actions = table.online === "playing" || table.online === "waiting"
        ? [el("button", { type: "button", class: "quiet", "data-seat-renew": key, disabled: busy }, t("links.renew")), el("button", { type: "button", class: "quiet", "data-seat-bot": key, disabled: busy }, t("tournament.online.to_bot", { name: seat.name }))]
        : [];
      if (link && svgs.has(link.url)) {
        const heading = t("tournament.online.seat_heading", { name: seat.name, game: table.game, seat: seat.seat + 1 });
        group.append(
          linkBox({
            key: `seat-${table.game}-${seat.seat}`,
            heading,
            hint: t("tournament.online.seat_hint", { name: seat.name }),
            url: link.url,
            svg: svgs.get(link.url).cloneNode(true),
            actions,
            qrLabel: t("tournament.online.seat_qr", { name: seat.name }),
            fieldLabel: t("tournament.online.seat_field", { name: seat.name }),
          }),
        );
      } else {
        const said = link ? t("tournament.online.drawing", { name: seat.name }) : t("tournament.online.not_here", { name: seat.name });
        group.append(el("div", { class: "row seat-line", "data-seat-line": key }, el("span", {}, said), ...actions));
      }
    }
    slips.append(group);
  }
  part.append(slips);
  if (Object.keys(kept).some((game) => hosted.some((table) => table.game === game) && Object.keys(kept[game]).length)) {
    part.append(el("div", { class: "row" }, el("button", { type: "button", class: "quiet", "data-print-slips": session.number }, t("tournament.online.print_slips"))));
  }
  drawCodes(event, redraw);
  readSeats(token, event, hosted, redraw);
  return part;
}

function hostForm(session, busy) {
  const sizes = session.tables.map((table) => table.seats.length);
  const short = Math.min(...sizes) < Math.max(...sizes);
  const form = el("div", { class: "host-form" }, el("p", { class: "hint" }, t("tournament.online.help")));
  if (short) {
    const box = el("input", { type: "checkbox", id: `fill-${session.number}`, "data-fill": session.number, checked: fill });
    const select = el("select", { id: `level-${session.number}`, "data-level": session.number }, ...LEVELS.map((n) => el("option", { value: String(n), selected: n === level }, t("tournament.online.level", { n }))));
    form.append(
      el("label", { class: "check", for: box.id }, box, " ", t("tournament.online.fill")),
      el("label", { for: select.id }, t("tournament.online.bot_level")),
      select,
    );
  }
  form.append(el("div", { class: "row" }, el("button", { type: "button", "data-host": session.number, disabled: busy }, busy ? t("tournament.online.hosting") : t("tournament.online.host", { n: session.number }))));
  return form;
}

// The form's choices, as the director changes them.
export function chooseFill(checked) {
  fill = checked;
}

export function chooseLevel(value) {
  level = Number(value);
}

// Prints the seat links of session `number` as slips to cut out, one a player (the print style sheet: pages.css).
export function printSlips(number) {
  const slips = document.querySelector(`[data-slips="${CSS.escape(String(number))}"]`);
  if (slips) printBox(slips);
}
