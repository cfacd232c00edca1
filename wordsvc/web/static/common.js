// What the pages share: the page's configuration, its words in the chosen
// language, the language switch, and calls to the service that served the page
// (docs/pages.md). No other origin is ever asked for anything.

export const config = JSON.parse(document.getElementById("page-config").textContent);

const LOCALE_KEY = "wordsvc.locale";
let locale = pickLocale();
const listeners = [];
const switches = []; // the page's language switch, kept in step with the language shown

function pickLocale() {
  const kept = localStorage.getItem(LOCALE_KEY);
  return kept && config.strings[kept] ? kept : config.locale;
}

// The locale a language tag names, by its primary subtag (`de-DE` and `de` are `de`, `en-US` is `en`), when the
// service speaks it; else null. An event's lexicon id is such a tag: it names the table's language.
export function localeOf(tag) {
  const primary = String(tag || "").toLowerCase().split("-")[0];
  return primary in config.locales ? primary : null;
}

// Whether someone chose the page's language: with the switch (kept in this browser), in the address (?locale=),
// or by setting the browser to a language the service speaks other than English (English is what a device
// speaks when nobody chose). A page that speaks its event's language yields to such a choice.
export function languageChosen() {
  const kept = localStorage.getItem(LOCALE_KEY);
  return Boolean((kept && config.strings[kept]) || localeOf(new URLSearchParams(location.search).get("locale")) || config.locale !== "en");
}

// The text of `key` in the chosen language, its {fields} filled from `params`.
export function t(key, params = {}) {
  const text = config.strings[locale][key] ?? config.strings.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

// The text of `key` that holds the count `n`, in the chosen language, filled with `n` and `params`. The catalogue
// sends such a text as one form per CLDR plural category of the language ({one: ..., few: ..., many: ..., other:
// ...}); the browser's Intl.PluralRules, for the language whose rules the catalogue follows (config.plural_rules:
// pt-PT for pt), names the category, and "other", which every language has, stands in for one the browser's CLDR
// does not know (docs/translations.md).
export function tn(key, n, params = {}) {
  const forms = config.strings[locale][key] ?? config.strings.en[key];
  if (!forms) return key;
  const category = new Intl.PluralRules(config.plural_rules[locale] ?? locale).select(n);
  const text = forms[category] ?? forms.other;
  const fields = { ...params, n };
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in fields ? String(fields[name]) : whole));
}

// A standings number as every page and printed document shows it (docs/standings.md, "Numbers shown"): at most
// `decimals` decimals (the tournament format's; 2 when none is known), half away from zero from the number's
// shortest decimal form, no digit grouping: the digits wordsvc.core.standings.rounded gives the PDFs.
export function formatNumber(value, decimals = 2) {
  if (value === null || value === undefined) return "";
  const options = { maximumFractionDigits: decimals, useGrouping: false, roundingMode: "halfExpand", signDisplay: "negative" };
  return Number(value).toLocaleString(document.documentElement.lang, options);
}

// Gives every element that names a key (data-t) its text in the chosen language.
function translate() {
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
}

// Calls `render` now and whenever the language changes.
export function onLanguage(render) {
  listeners.push(render);
  render();
}

// Shows the page in `code` (a locale of config.locales) from now on: every element that names a key, and every render.
export function setLocale(code) {
  locale = code;
  document.documentElement.lang = locale;
  for (const select of switches) select.value = locale;
  translate();
  for (const render of listeners) render();
}

// The language switch: a <select> of every locale the service speaks; the choice is kept in this browser.
export function languageSwitch(select) {
  select.replaceChildren(
    ...Object.entries(config.locales).map(([code, name]) => {
      const option = document.createElement("option");
      option.value = code;
      option.textContent = name;
      option.lang = code;
      return option;
    }),
  );
  select.value = locale;
  switches.push(select);
  select.addEventListener("change", () => {
    localStorage.setItem(LOCALE_KEY, select.value);
    setLocale(select.value);
  });
  document.documentElement.lang = locale;
  translate();
}

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }

  // Every problem the service listed, as "field: message" lines.
  lines() {
    return this.entries().map(({ path, message }) => (path ? `${path}: ${message}` : message));
  }

  // Every problem the service listed, in order: {path, code, message}. A page chooses its words by `code`
  // (docs/problems.md), never by the message, which is English for people and may be reworded.
  entries() {
    const out = [];
    for (const [path, entries] of Object.entries(this.problem.errors || {})) {
      for (const entry of [].concat(entries)) out.push({ path, code: entry?.code ?? this.problem.code, message: entry?.message ?? String(entry) });
    }
    return out;
  }
}

// One call to the service: JSON in, JSON out; an ApiError for any 4xx or 5xx
// (with the problem+json the service sent), and for a network failure (status 0).
export async function api(method, path, { token, body, headers = {} } = {}) {
  const sent = { Accept: "application/json", "Accept-Language": locale, ...headers };
  if (token) sent.Authorization = `Bearer ${token}`;
  if (body !== undefined) sent["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(path, { method, headers: sent, body: body === undefined ? undefined : JSON.stringify(body), cache: "no-store" });
  } catch {
    throw new ApiError(0, { detail: t("page.offline") });
  }
  const text = await response.text();
  let data = {};
  try {
    data = text ? JSON.parse(text) : {};
  } catch {
    data = { detail: text.slice(0, 200) };
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return { status: response.status, body: data, etag: response.headers.get("ETag"), date: response.headers.get("Date") };
}

// `read` (a page's reading of what it shows, then its drawing) made so that an answer read before a change is never
// drawn over one read after it: every call starts at once, and `read(current)` calls `current()` when it has its answer
// and is about to draw it; `current()` is false when a read started later has been drawn already (two reads in flight
// can be answered out of order: a slow one begun before a round was stored would be drawn over the totals read after
// it). Nothing waits on another read, so a read that never ends (a network that drops it) holds nothing up.
export function newestWins(read) {
  let started = 0;
  let drawn = 0;
  return (...args) => {
    const mine = ++started;
    const current = () => {
      if (mine < drawn) return false;
      drawn = mine;
      return true;
    };
    return read(current, ...args);
  };
}

// A new element: el("td", {class: "n"}, "text", child, ...).
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === false || value === null || value === undefined) continue;
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

// The double-letter cards of a ruleset snapshot's deck, as the faces a player reads: QU, IN, ER, CL, TH.
export function doubleCards(snapshot) {
  return Object.keys(snapshot.deck)
    .filter((face) => [...face].length > 1)
    .map((face) => face.toUpperCase())
    .sort();
}

// A stored face list as compact notation: ["qu", "i", "z"] is "(qu)iz".
export function compact(faces) {
  return faces.map((face) => ([...face].length > 1 ? `(${face})` : face)).join("");
}
