// Sign-in links (docs/pages.md, "Sign-in links"; docs/venue.md): the one way the console hands out a link that
// holds a token, for a table's referee, the director, the kiosk or the projector. A link is absolute on the
// venue's address (config.public_url, WORDSVC_PUBLIC_URL; else the address this page was opened at), its token
// in the fragment, which no browser sends; it is shown in a box with Copy, Print and its QR code (POST /qr),
// never as a bare token. A table's link is kept on this device (localStorage, per event, forgotten at sign-out),
// so a second click shows the link already issued rather than issuing another live token; a new one is issued
// only when asked, and the old one is revoked first.

import { ApiError, api, config, el, t } from "./common.js";

// Where this device keeps the links it issued, per event: a table's under its id ("table-links"), the kiosk's and
// the projector's under their kind ("room-links").
const SHELF = (event, shelf) => `wordsvc.${shelf}/${event}`;

// The address every link starts with, without a trailing slash.
export function linkBase() {
  return (config.public_url || location.origin).replace(/\/+$/, "");
}

// `relative` (a path from the service's root, "/console#…") on the venue's address.
export function absolute(relative) {
  return linkBase() + relative;
}

// Whether links made here point at this computer alone: 127.x, ::1, localhost (no phone reaches those).
export function loopback(base = linkBase()) {
  const host = new URL(base).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(host) || host === "::1";
}

// Shows in `node` what to do when links would point at a loopback address; hides it otherwise.
export function showLoopbackWarning(node) {
  const warn = loopback();
  node.hidden = !warn;
  node.textContent = warn ? t("links.loopback", { address: linkBase() }) : "";
}

const fragment = (pairs) => pairs.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join("&");

// The director's own sign-in link: the console, signed in to `event` with `token`.
export const directorLink = (event, token) => absolute(`/console#${fragment([["event", event], ["token", token]])}`);
// The judge kiosk's: a referee token of the event without a table (the kiosk asks which table it serves).
export const kioskLink = (event, token) => absolute(`/judge#${fragment([["event", event], ["token", token]])}`);
// The projector's: the display, with a viewer token in the fragment for a private event.
export const displayLink = (event, token = null) => absolute(`/events/${encodeURIComponent(event)}/display${token ? `#${fragment([["token", token]])}` : ""}`);

// `text` as a QR code drawn by the service (POST /qr): an <svg> for the page, named by the box it sits in.
export async function qrCode(text) {
  const response = await fetch("/qr", { method: "POST", headers: { "Content-Type": "application/json", Accept: "image/svg+xml" }, body: JSON.stringify({ text }), cache: "no-store" });
  if (!response.ok) throw new ApiError(response.status, {});
  const doc = new DOMParser().parseFromString(await response.text(), "image/svg+xml");
  const svg = doc.documentElement;
  if (svg.localName !== "svg") throw new ApiError(500, {});
  for (const title of svg.querySelectorAll("title")) title.remove(); // named by aria-label, in the page's language
  return document.importNode(svg, true);
}

// A link's box: its heading, a line of advice, the link in a read-only field (it wraps: the whole link is seen,
// on a phone too), Copy and Print, `actions` (more buttons), and the QR code; `qrLabel` and `fieldLabel` name the
// code and the field for a screen reader (by default after the heading); `level` is the heading's element, one below
// the section the box sits in (h4 under the console's h3s).
export function linkBox({ key, heading, hint, url, svg, actions = [], qrLabel = t("links.qr", { name: heading }), fieldLabel = t("links.field", { name: heading }), level = "h4" }) {
  const fieldId = `link-${key}`;
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", qrLabel);
  const field = el("textarea", { id: fieldId, class: "link-url", rows: 4, readonly: true, spellcheck: "false" }, url);
  const said = el("span", { role: "status" });
  const copy = el("button", { type: "button", "data-copy": key }, t("links.copy"));
  const print = el("button", { type: "button", class: "quiet", "data-print-link": key }, t("links.print"));
  const box = el(
    "div",
    { class: "signin-link", "data-link-box": key },
    el(level, {}, heading),
    hint ? el("p", { class: "hint" }, hint) : null,
    el("label", { for: fieldId, class: "visually-hidden" }, fieldLabel),
    field,
    el("div", { class: "row" }, copy, print, said, ...actions),
    el("div", { class: "qr" }, svg),
  );
  copy.addEventListener("click", () => copyLink(field, said));
  print.addEventListener("click", () => printBox(box));
  return box;
}

async function copyLink(field, said) {
  try {
    await navigator.clipboard.writeText(field.value);
    said.textContent = t("links.copied");
  } catch {
    field.select(); // no clipboard (a page over plain HTTP on the venue's network): the link is selected to copy by hand
    said.textContent = t("links.copy_failed");
  }
}

// The browser's print of this box alone: the print style sheet hides everything else while it is marked.
export function printBox(box) {
  document.body.classList.add("print-one");
  box.classList.add("print-target");
  const done = () => {
    document.body.classList.remove("print-one");
    box.classList.remove("print-target");
    window.removeEventListener("afterprint", done);
  };
  window.addEventListener("afterprint", done);
  window.print();
  setTimeout(done, 0); // a browser without afterprint (or whose print returns at once) unmarks it too
}

// --- a table's referee link, one per table and device --------------------------------------------------

function keptLinks(event, shelf = "table-links") {
  try {
    return JSON.parse(localStorage.getItem(SHELF(event, shelf)) || "{}");
  } catch {
    return {};
  }
}

function keepLinks(event, links, shelf = "table-links") {
  if (Object.keys(links).length) localStorage.setItem(SHELF(event, shelf), JSON.stringify(links));
  else localStorage.removeItem(SHELF(event, shelf));
}

// The kiosk's or the projector's link (`kind`) issued on this device for `event`, {id, url, at}, or null.
export const keptRoomLink = (event, kind) => keptLinks(event, "room-links")[kind] || null;

// Keeps `link` ({id, url, at}) as this device's `kind` link of `event`; null forgets it.
export function keepRoomLink(event, kind, link) {
  const links = keptLinks(event, "room-links");
  if (link) links[kind] = link;
  else delete links[kind];
  keepLinks(event, links, "room-links");
}

// The link issued on this device for `game` of `event`, {id, url, at}, or null.
export const keptTableLink = (event, game) => keptLinks(event)[game] || null;

// Forgets the links of `event` whose token is no longer live (`live`: the ids of the event's live tokens).
export function dropRevokedLinks(event, live) {
  const links = keptLinks(event);
  for (const [game, link] of Object.entries(links)) if (!live.has(link.id)) delete links[game];
  keepLinks(event, links);
}

// Forgets every link of `event` kept on this device, the tables' and the room's (signing out: a link holds a token).
export function forgetTableLinks(event) {
  localStorage.removeItem(SHELF(event, "table-links"));
  localStorage.removeItem(SHELF(event, "room-links"));
}

// The referee link of table `game`: the one issued on this device when there is one (`renew` false), else a new
// referee token limited to the table (POST /events/{e}/tokens); with `renew`, the old token is revoked first
// (DELETE /events/{e}/tokens/{id}), so one live link per table comes from this device. {id, url, at, again, svg}.
export async function tableLink(token, event, game, { renew = false } = {}) {
  const path = `/events/${encodeURIComponent(event)}/tokens`;
  const kept = keptTableLink(event, game);
  if (kept && !renew) return { ...kept, again: true, svg: await qrCode(kept.url) };
  if (kept) {
    try {
      await api("DELETE", `${path}/${encodeURIComponent(kept.id)}`, { token });
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 404)) throw error; // revoked already: nothing to undo
    }
  }
  const issued = (await api("POST", path, { token, body: { role: "referee", table: game } })).body;
  const link = { id: issued.id, url: absolute(issued.console), at: new Date().toISOString() };
  keepLinks(event, { ...keptLinks(event), [game]: link });
  return { ...link, again: false, svg: await qrCode(link.url) };
}

// The box of a table's link: what tableLink answered, with "Issue a new link" (data-renew) and "Hide" (data-hide).
export function tableLinkBox(game, link) {
  const at = new Date(link.at).toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" });
  return linkBox({
    key: `table-${game}`,
    qrLabel: t("dashboard.qr", { game }),
    fieldLabel: t("dashboard.link_field", { game }),
    heading: t("dashboard.link_heading", { game }),
    hint: link.again ? t("links.again", { time: at }) : t("dashboard.link_once", { game }),
    url: link.url,
    svg: link.svg,
    actions: [
      el("button", { type: "button", class: "quiet", "data-renew": game }, t("links.renew")),
      el("button", { type: "button", class: "quiet", "data-hide": game }, t("dashboard.hide_link")),
    ],
  });
}
