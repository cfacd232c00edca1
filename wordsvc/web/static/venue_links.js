// The dashboard's sign-in links for the room (docs/pages.md, "Sign-in links"; docs/venue.md): the director's own
// (the console signed in with the token it holds, to keep, print or open on another device), the judge kiosk's (a
// kiosk token of the event without a table, which records rulings and stores no round: the kiosk asks which
// table it serves) and the projector's (the
// display; a private event's with a viewer token). Each is shown in the box of signin_links.js, link, QR code,
// Copy and Print. A link holding a token is issued once on this device: it is kept (signin_links.js, forgotten
// at sign-out) and shown again, after a reload too, while its token is live. A warning says when the links would
// point at this computer alone (a loopback address) and what to do.

import { ApiError, api, el, onLanguage, t } from "./common.js";
import { directorLink, displayLink, keepRoomLink, keptRoomLink, kioskLink, linkBox, qrCode, showLoopbackWarning } from "./signin_links.js";

const $ = (id) => document.getElementById(id);
const KINDS = ["director", "kiosk", "projector"];

let ctx = null; // {token, event, who} from the dashboard
let shown = new Map(); // kind -> {url, svg, at}: the links shown since signing in (`at`: when an earlier one was issued here)
let created = false; // the event was just created here: the director's link says so

// The link of `kind`: {url, at}, `at` set when it is the one this device issued before (its token still live).
async function linkOf(kind) {
  const event = ctx.event.id;
  const tokens = `/events/${encodeURIComponent(event)}/tokens`;
  if (kind === "director") return { url: directorLink(event, ctx.token) };
  if (kind === "projector" && !ctx.event.private) return { url: displayLink(event) };
  const kept = keptRoomLink(event, kind);
  if (kept) {
    const live = (await api("GET", tokens, { token: ctx.token })).body.tokens;
    if (live.some((tk) => tk.id === kept.id && tk.revoked_at === null)) return { url: kept.url, at: kept.at };
    keepRoomLink(event, kind, null); // revoked meanwhile: a new one
  }
  const body = kind === "kiosk" ? { role: "kiosk", label: t("links.kiosk") } : { role: "viewer", label: t("links.projector") };
  const issued = (await api("POST", tokens, { token: ctx.token, body })).body;
  const url = kind === "kiosk" ? kioskLink(event, issued.token) : displayLink(event, issued.token);
  keepRoomLink(event, kind, { id: issued.id, url, at: new Date().toISOString() });
  return { url };
}

// Shows the link of `kind`, making it first if this page has not yet.
async function show(kind) {
  $("venue-links-error").textContent = "";
  try {
    if (!shown.has(kind)) {
      const link = await linkOf(kind);
      shown.set(kind, { ...link, svg: await qrCode(link.url) });
    }
  } catch (error) {
    $("venue-links-error").textContent = error instanceof ApiError && (error.status === 401 || error.status === 403) ? t("page.token_invalid") : t("page.error", { detail: error.message });
    return;
  }
  render();
  $(`link-venue-${kind}`)?.focus();
}

// A new link of `kind` in place of the one this device issued, whose token is revoked first.
async function renew(kind) {
  const kept = keptRoomLink(ctx.event.id, kind);
  $("venue-links-error").textContent = "";
  try {
    if (kept) await api("DELETE", `/events/${encodeURIComponent(ctx.event.id)}/tokens/${encodeURIComponent(kept.id)}`, { token: ctx.token });
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) {
      $("venue-links-error").textContent = t("page.error", { detail: error.message });
      return;
    }
  }
  keepRoomLink(ctx.event.id, kind, null);
  shown.delete(kind);
  await show(kind);
}

// Whether the link of `kind` holds a token this device issued (the kiosk's; a private event's projector): it can be renewed.
const issuedHere = (kind) => kind === "kiosk" || (kind === "projector" && ctx.event.private);

function hint(kind) {
  const at = shown.get(kind).at;
  if (at) return t("links.again", { time: new Date(at).toLocaleTimeString(document.documentElement.lang, { hour: "2-digit", minute: "2-digit" }) });
  if (kind === "director") return created ? `${t("links.created", { name: ctx.event.name })} ${t("links.director_hint")}` : t("links.director_hint");
  if (kind === "projector") return t(ctx.event.private ? "links.projector_private_hint" : "links.projector_hint");
  return t("links.kiosk_hint");
}

function render() {
  if (!ctx) return;
  showLoopbackWarning($("loopback-warning"));
  $("venue-link-director").hidden = ctx.who.role !== "director"; // an administrator's token is never put in a link
  const boxes = KINDS.filter((kind) => shown.has(kind)).map((kind) =>
    linkBox({
      key: `venue-${kind}`,
      heading: t(`links.${kind}`),
      hint: hint(kind),
      url: shown.get(kind).url,
      svg: shown.get(kind).svg,
      actions: issuedHere(kind) ? [el("button", { type: "button", class: "quiet", "data-renew-room": kind }, t("links.renew"))] : [],
    }),
  );
  $("venue-link-boxes").replaceChildren(...boxes);
}

// Called by the dashboard for a director (or an administrator): the section, links not made yet.
export function showVenueLinks(context) {
  ctx = context;
  shown = new Map();
  created = false;
  $("venue-links").hidden = false;
  render();
}

// The event was just created from this page: its director's link is shown at once, saying so.
export function showCreatedLink() {
  created = true;
  return show("director");
}

export function hideVenueLinks() {
  ctx = null;
  shown = new Map(); // a link holds a token: gone with the sign-out
  $("venue-links").hidden = true;
  $("venue-link-boxes").replaceChildren();
}

for (const kind of KINDS) $(`venue-link-${kind}`).addEventListener("click", () => ctx && show(kind));
$("venue-link-boxes").addEventListener("click", (e) => {
  const button = e.target.closest("button[data-renew-room]");
  if (button && ctx) renew(button.dataset.renewRoom);
});
onLanguage(render);
