// The dashboard's sign-in links for the room (docs/pages.md, "Sign-in links"; docs/venue.md): the director's own
// (the console signed in with the token it holds, to keep, print or open on another device), the judge kiosk's (a
// referee token of the event without a table: the kiosk asks which table it serves) and the projector's (the
// display; a private event's with a viewer token). Each is shown in the box of signin_links.js, link, QR code,
// Copy and Print, and is issued once while the page is open: a second click shows the same link. A warning says
// when the links would point at this computer alone (a loopback address) and what to do.

import { ApiError, api, onLanguage, t } from "./common.js";
import { directorLink, displayLink, kioskLink, linkBox, qrCode, showLoopbackWarning } from "./signin_links.js";

const $ = (id) => document.getElementById(id);
const KINDS = ["director", "kiosk", "projector"];

let ctx = null; // {token, event, who} from the dashboard
let shown = new Map(); // kind -> {url, svg}: the links issued or made since signing in
let created = false; // the event was just created here: the director's link says so

async function linkOf(kind) {
  const event = ctx.event.id;
  const tokens = `/events/${encodeURIComponent(event)}/tokens`;
  if (kind === "director") return directorLink(event, ctx.token);
  if (kind === "kiosk") return kioskLink(event, (await api("POST", tokens, { token: ctx.token, body: { role: "referee", label: t("links.kiosk") } })).body.token);
  if (!ctx.event.private) return displayLink(event);
  return displayLink(event, (await api("POST", tokens, { token: ctx.token, body: { role: "viewer", label: t("links.projector") } })).body.token);
}

// Shows the link of `kind`, making it first if this page has not yet.
async function show(kind) {
  $("venue-links-error").textContent = "";
  try {
    if (!shown.has(kind)) {
      const url = await linkOf(kind);
      shown.set(kind, { url, svg: await qrCode(url) });
    }
  } catch (error) {
    $("venue-links-error").textContent = error instanceof ApiError && (error.status === 401 || error.status === 403) ? t("page.token_invalid") : t("page.error", { detail: error.message });
    return;
  }
  render();
  $(`link-venue-${kind}`)?.focus();
}

function hint(kind) {
  if (kind === "director") return created ? `${t("links.created", { name: ctx.event.name })} ${t("links.director_hint")}` : t("links.director_hint");
  if (kind === "projector") return t(ctx.event.private ? "links.projector_private_hint" : "links.projector_hint");
  return t("links.kiosk_hint");
}

function render() {
  if (!ctx) return;
  showLoopbackWarning($("loopback-warning"));
  $("venue-link-director").hidden = ctx.who.role !== "director"; // an administrator's token is never put in a link
  const boxes = KINDS.filter((kind) => shown.has(kind)).map((kind) =>
    linkBox({ key: `venue-${kind}`, heading: t(`links.${kind}`), hint: hint(kind), url: shown.get(kind).url, svg: shown.get(kind).svg }),
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
onLanguage(render);
