// "New event" on the console's sign-in screen (docs/pages.md, "A new event"): an event made from the page, as
// POST /events takes it, every field a choice (a language of GET /languages, with its own deck by default; a
// ruleset of GET /rulesets for that language; a tournament format; seeded deals, duplicate, private) and only the
// name typed. It is sent with no token: the service's policy (WORDSVC_EVENT_CREATION, config.event_creation)
// says whether anyone may; the answer's director token signs this page in (the console's own sign-in, given by
// `created`), and its sign-in link is shown to keep or print, never the bare token.

import { ApiError, api, config, el, onLanguage, t } from "./common.js";
import { showLoopbackWarning } from "./signin_links.js";

const $ = (id) => document.getElementById(id);
// The tournament formats of formats/, by id, each named by its ranking's word (docs/standings.md); `total` is the default.
const FORMATS = ["total", "table-points", "wins", "average"];

let languages = []; // GET /languages
let rulesets = []; // GET /rulesets
let created = async () => {};
let busy = false;

// The rulesets of `rulesets` (GET /rulesets) that play `lexicon`'s language (GET /languages): its own first, then those of
// the same language. The lobby offers the same choice for a table.
export function rulesetsOf(lexicon, rulesets) {
  const same = rulesets.filter((r) => r.id !== lexicon.ruleset && (r.language === lexicon.id || lexicon.tags.includes(r.language)));
  const own = rulesets.find((r) => r.id === lexicon.ruleset);
  return own ? [own, ...same] : same;
}

function fillRulesets() {
  const lexicon = languages.find((l) => l.id === $("new-event-lang").value);
  if (!lexicon) return;
  $("new-event-ruleset").replaceChildren(...rulesetsOf(lexicon, rulesets).map((r) => el("option", { value: r.id, text: r.name })));
}

function fillFormats() {
  const chosen = $("new-event-format").value || "total";
  $("new-event-format").replaceChildren(...FORMATS.map((id) => el("option", { value: id, text: t(`tournament.measure.${id.replace("-", "_")}`) })));
  $("new-event-format").value = chosen;
}

// The language the page speaks picks the lexicon first offered: the first whose tags begin with it.
function defaultLexicon() {
  const lang = document.documentElement.lang;
  return languages.find((l) => l.tags.some((tag) => tag.toLowerCase().split("-")[0] === lang)) || languages[0];
}

async function load() {
  try {
    [languages, rulesets] = await Promise.all([api("GET", "/languages"), api("GET", "/rulesets")]).then(([l, r]) => [l.body.languages, r.body.rulesets]);
  } catch (error) {
    say(error);
    return;
  }
  $("new-event-lang").replaceChildren(...languages.map((l) => el("option", { value: l.id, text: l.name })));
  $("new-event-lang").value = defaultLexicon()?.id ?? "";
  fillRulesets();
  $("new-event-submit").disabled = false;
}

// What went wrong, in the page's words, by the problem's code and field (the service's text only beside an unknown one).
function say(error) {
  const box = $("new-event-error");
  if (!error) {
    box.textContent = "";
    return;
  }
  const problem = error instanceof ApiError ? error.problem : {};
  const fieldsAtFault = Object.keys(problem.errors || {});
  if (problem.code === "open_events_exhausted") box.textContent = t("newevent.exhausted");
  else if (error instanceof ApiError && [401, 403].includes(error.status)) box.textContent = t("newevent.closed");
  else if (fieldsAtFault.includes("name")) box.textContent = t("newevent.name_needed");
  else if (error instanceof ApiError && error.status === 0) box.textContent = error.message;
  else box.textContent = t("page.error", { detail: error.message });
}

async function submit(e) {
  e.preventDefault();
  if (busy) return;
  const name = $("new-event-name").value.trim();
  if (!name) {
    $("new-event-error").textContent = t("newevent.name_needed");
    $("new-event-name").setAttribute("aria-invalid", "true");
    $("new-event-name").focus();
    return;
  }
  $("new-event-name").removeAttribute("aria-invalid");
  const seeded = $("new-event-seeded").checked;
  const body = {
    name,
    lang: $("new-event-lang").value,
    ruleset: $("new-event-ruleset").value,
    format: $("new-event-format").value,
    deals: seeded ? "seeded" : "none",
    duplicate: seeded && $("new-event-duplicate").checked,
    private: $("new-event-private").checked,
  };
  busy = true;
  $("new-event-submit").disabled = true;
  say(null);
  try {
    const answer = (await api("POST", "/events", { body })).body;
    $("new-event-name").value = ""; // the choices stay as they were, for the next event
    await created(answer.director_token.token, answer.id);
  } catch (error) {
    say(error);
  } finally {
    busy = false;
    $("new-event-submit").disabled = false;
  }
}

// Wires the form; `onCreated(token, eventId)` signs the console in as the new event's director.
export function wireNewEvent(onCreated) {
  created = onCreated;
  const open = config.event_creation !== "admin";
  $("new-event-form").hidden = !open;
  $("new-event-closed").hidden = open;
  $("new-event-submit").disabled = true; // until the languages are read
  $("new-event-form").addEventListener("submit", submit);
  $("new-event-lang").addEventListener("change", fillRulesets);
  $("new-event-seeded").addEventListener("change", () => {
    $("new-event-duplicate").disabled = !$("new-event-seeded").checked;
    if (!$("new-event-seeded").checked) $("new-event-duplicate").checked = false;
  });
  $("new-event-duplicate").disabled = true;
  onLanguage(() => {
    fillFormats();
    showLoopbackWarning($("new-event-loopback"));
  });
  if (open) load();
}
