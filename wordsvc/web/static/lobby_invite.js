// The invite to a table made in the lobby (docs/pages.md, "The lobby (/play)"). A public table is one link for
// everyone: the table page's address, where whoever holds no seat takes one. A private table's seats are issued by its
// director alone, so each remaining person's seat gets a link of its own: the lobby asks that player's name, takes the
// seat with the director token kept on this device (POST .../play/seats) and shows the table page's address with the
// seat's token in its fragment (`#token=wsv_...`, which no browser sends; the table page keeps it and takes it out
// of the address). Each link is shown with its QR code and Copy; the links issued are kept with the table, so a
// reload shows them again rather than issuing a token that nobody receives.

import { api, el, t } from "./common.js";
import { problemText } from "./lobby_problems.js";
import { keepTable, keptTable, tablePath } from "./play_store.js";
import { absolute, linkBox, qrCode, showLoopbackWarning } from "./signin_links.js";

const $ = (id) => document.getElementById(id);

// A seat link: the table page on the venue's address (WORDSVC_PUBLIC_URL), the seat's token in the fragment.
export const seatLink = (event, game, token) => `${absolute(tablePath(event, game))}#token=${encodeURIComponent(token)}`;

// 16 random bytes as hex: the nonce a seat mixes into the game's seed (docs/play.md, "Verifiable deals").
export function nonce() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

let shown = null; // the table whose invite is shown: its view (GET .../play or the seat's answer)

// Shows the invite of `table` (a table view: event, game, setup, seats) made on this device, and moves the focus to it.
export async function showInvite(table, { focus = true } = {}) {
  shown = table;
  const { event, game } = table;
  $("invite").hidden = false;
  $("go-to-table").href = tablePath(event, game);
  showLoopbackWarning($("invite-loopback"));
  await drawLinks();
  if (focus) $("invite").focus();
}

export function hideInvite() {
  shown = null;
  $("invite").hidden = true;
  $("invite-links").replaceChildren();
}

// Draws the shown table's links again (the language changed, or a seat link was issued).
export async function drawLinks() {
  if (!shown) return;
  const table = shown;
  const { event, game } = table;
  const kept = keptTable(event, game) || { invites: {} };
  if (table.setup.public) {
    $("invite-hint").textContent = t(table.status === "waiting" ? "lobby.invite.public_hint" : "lobby.invite.started");
    const url = absolute(tablePath(event, game));
    const heading = t("lobby.invite.public_link");
    $("invite-links").replaceChildren(linkBox({ key: "table", heading, url, svg: await qrCode(url), level: "h3" }));
    return;
  }
  $("invite-hint").textContent = t("lobby.invite.private_hint");
  const boxes = [];
  for (const seat of table.seats) {
    const invite = kept.invites[seat.seat];
    if (invite) {
      const heading = t("lobby.invite.seat_link", { seat: seat.seat + 1, name: invite.name });
      boxes.push(linkBox({ key: `seat-${seat.seat}`, heading, hint: t("lobby.invite.seat_hint", { name: invite.name }), url: invite.url, svg: await qrCode(invite.url), level: "h3" }));
    } else if (seat.kind === "open") {
      boxes.push(seatForm(seat.seat));
    }
  }
  if (shown === table) $("invite-links").replaceChildren(...boxes);
}

// The form that issues seat `seat`'s link: the invited player's name, and "Make the link".
function seatForm(seat) {
  const id = `invitee-${seat}`;
  const input = el("input", { id, type: "text", autocomplete: "off", maxlength: 64, required: true, "aria-describedby": `${id}-error` });
  const error = el("p", { id: `${id}-error`, class: "error", role: "alert" });
  const button = el("button", { type: "submit" }, t("lobby.invite.make_link"));
  const form = el(
    "form",
    { class: "invitee", "data-seat": seat, novalidate: true },
    el("label", { for: id }, t("lobby.invite.seat_name", { seat: seat + 1 })),
    el("div", { class: "row" }, input, button),
    error,
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const name = input.value.trim();
    if (!name) {
      error.textContent = t("lobby.problem.invitee_needed", { seat: seat + 1 });
      input.setAttribute("aria-invalid", "true");
      input.focus();
      return;
    }
    error.textContent = "";
    input.removeAttribute("aria-invalid");
    button.disabled = true;
    try {
      await issueSeat(seat, name);
    } catch (err) {
      error.textContent = problemText(err, { name, director: true });
      input.setAttribute("aria-invalid", "true");
      button.disabled = false;
      input.focus();
    }
  });
  return form;
}

// Takes seat `seat` of the shown private table for `name` with the director token, keeps its link, draws the links.
async function issueSeat(seat, name) {
  const { event, game } = shown;
  const kept = keptTable(event, game);
  const path = `/events/${encodeURIComponent(event)}/games/${encodeURIComponent(game)}/play/seats`;
  const taken = (await api("POST", path, { token: kept.token, body: { seat, name, nonce: nonce() } })).body;
  const again = keptTable(event, game);
  keepTable(event, game, { ...again, invites: { ...again.invites, [taken.seat]: { name, url: seatLink(event, game, taken.token) } } });
  shown = taken.table;
  await drawLinks();
  const box = document.querySelector(`[data-link-box="seat-${taken.seat}"] textarea`);
  if (box) box.focus();
}
