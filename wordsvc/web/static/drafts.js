// What the console keeps in this browser (docs/pages.md, "Nothing typed is lost"): the round being typed at
// each table, per (event, table, round, device), until it is stored or discarded on purpose; and the sign-in,
// so a new tab of the same console does not ask again. localStorage, per origin: a reload, a closed tab, a
// lost network or a restarted server leave it; Sign out forgets the sign-in, never a draft.
//
// A draft belongs to the device it was typed on, and each tab is a device of its own: two tabs of one
// browser are two referees' screens as much as two phones are, and must not fill each other's form. A tab's
// id is random and kept in sessionStorage (a reload keeps it, another tab has its own); a tab says it is
// open by writing the time under its id in localStorage every few seconds, and takes it away when the page
// is left (`pagehide`). A draft whose tab is gone (closed, or silent for GONE_MS) is nobody's: the next tab
// that opens its table takes it over, so closing a tab mid-round still loses nothing.

const SIGN_IN_KEY = "wordsvc.console.signin";
const DRAFT_PREFIX = "wordsvc.console.draft/";
const DEVICE_KEY = "wordsvc.console.device"; // sessionStorage: this tab's id
const ALIVE_PREFIX = "wordsvc.console.alive/"; // localStorage: a tab's id -> when it last said it is open (ms)
const BEAT_MS = 5000;
const GONE_MS = 4 * BEAT_MS; // four beats missed: the tab is closed, or its browser stopped

const tableKey = (event, table) => `${DRAFT_PREFIX}${encodeURIComponent(event)}/${encodeURIComponent(table)}/`;
const draftKey = (event, table, round, device) => `${tableKey(event, table)}${round}/${device}`;

function read(key, store = localStorage) {
  try {
    return JSON.parse(store.getItem(key) || "null");
  } catch {
    return null; // a value another version wrote: as if none
  }
}

// --- this tab as a device ------------------------------------------------------------------------------

function randomId() {
  const bytes = crypto.getRandomValues(new Uint8Array(8)); // getRandomValues, unlike randomUUID, works over plain http at a venue
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const alive = (id) => Date.now() - Number(localStorage.getItem(ALIVE_PREFIX + id) || 0) < GONE_MS;

let deviceId = null;

// This tab's id. A duplicated tab starts with a copy of the original's sessionStorage: while that id is
// still beating elsewhere, this tab takes an id of its own.
export function device() {
  if (deviceId) return deviceId;
  deviceId = sessionStorage.getItem(DEVICE_KEY);
  if (!deviceId || alive(deviceId)) {
    deviceId = randomId();
    sessionStorage.setItem(DEVICE_KEY, deviceId);
  }
  return deviceId;
}

// Says, as long as the page is shown, that this tab is open; forgets tabs gone long ago.
export function keepDeviceAlive() {
  const beat = () => localStorage.setItem(ALIVE_PREFIX + device(), String(Date.now()));
  beat();
  setInterval(beat, BEAT_MS);
  addEventListener("pageshow", beat);
  addEventListener("pagehide", () => localStorage.removeItem(ALIVE_PREFIX + device()));
  for (const key of Object.keys(localStorage)) {
    if (key.startsWith(ALIVE_PREFIX) && !alive(key.slice(ALIVE_PREFIX.length))) localStorage.removeItem(key);
  }
}

// --- drafts --------------------------------------------------------------------------------------------

// A draft: each player's fields as typed ({name, words, unused, went_out}, the words and unused as text), the
// round it was typed for and when. One with nothing typed is no draft: it is removed rather than kept.
export function keepDraft(event, table, round, players) {
  const typed = players.some((p) => p.words.trim() || p.unused.trim() || p.went_out);
  if (!typed) return dropDraft(event, table, round);
  localStorage.setItem(draftKey(event, table, round, device()), JSON.stringify({ round, players, saved_at: new Date().toISOString() }));
}

// This tab's draft of round `round`; if it has none, the newest a closed tab left of that round, taken over.
export function draftOf(event, table, round) {
  const own = read(draftKey(event, table, round, device()));
  if (own) return own;
  const prefix = `${tableKey(event, table)}${round}`;
  const left = Object.keys(localStorage)
    .filter((key) => key === prefix || (key.startsWith(`${prefix}/`) && !alive(key.slice(prefix.length + 1)))) // no device: a draft from before devices
    .map((key) => [key, read(key)])
    .filter(([, draft]) => draft && Array.isArray(draft.players))
    .sort(([, a], [, b]) => String(b.saved_at).localeCompare(String(a.saved_at)));
  if (!left.length) return null;
  const [key, draft] = left[0];
  localStorage.removeItem(key);
  localStorage.setItem(draftKey(event, table, round, device()), JSON.stringify({ ...draft, round }));
  return { ...draft, round };
}

// Forgets this tab's draft of the round; another tab's is its own business.
export function dropDraft(event, table, round) {
  localStorage.removeItem(draftKey(event, table, round, device()));
}

// --- the sign-in ---------------------------------------------------------------------------------------

// The sign-in this console keeps: {token, event, table}.
export const keptSignIn = () => read(SIGN_IN_KEY);

export function keepSignIn(token, event, table) {
  localStorage.setItem(SIGN_IN_KEY, JSON.stringify({ token, event, table }));
}

export function forgetSignIn() {
  localStorage.removeItem(SIGN_IN_KEY);
}

// A sign-in link's fragment, /console#event=E&table=T&token=wsv_…: read once, then taken out of the address
// and of the history (replaceState), so the token is never in the page's URL once it has loaded. The
// fragment never reaches the server: browsers do not send it.
export function takeSignInLink() {
  const fragment = new URLSearchParams(location.hash.replace(/^#/, ""));
  if (!fragment.has("token")) return null;
  history.replaceState(history.state, "", location.pathname + location.search);
  return { token: (fragment.get("token") || "").trim(), event: fragment.get("event") || null, table: fragment.get("table") || null };
}
