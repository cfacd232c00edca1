// What the console keeps in this browser (docs/pages.md, "Nothing typed is lost"): the round being typed at
// each table, per (event, table, round), until it is stored or discarded on purpose; and the sign-in, so a
// new tab of the same console does not ask again. localStorage, per origin: a reload, a closed tab, a lost
// network or a restarted server leave it; Sign out forgets the sign-in, never a draft.

const SIGN_IN_KEY = "wordsvc.console.signin";
const DRAFT_PREFIX = "wordsvc.console.draft/";

const draftKey = (event, table, round) => `${DRAFT_PREFIX}${encodeURIComponent(event)}/${encodeURIComponent(table)}/${round}`;

function read(key) {
  try {
    return JSON.parse(localStorage.getItem(key) || "null");
  } catch {
    return null; // a value another version wrote: as if none
  }
}

// A draft: each player's fields as typed ({name, words, unused, went_out}, the words and unused as text) and when.
// One with nothing typed is no draft: it is removed rather than kept.
export function keepDraft(event, table, round, players) {
  const typed = players.some((p) => p.words.trim() || p.unused.trim() || p.went_out);
  if (!typed) return dropDraft(event, table, round);
  localStorage.setItem(draftKey(event, table, round), JSON.stringify({ players, saved_at: new Date().toISOString() }));
}

export const draftOf = (event, table, round) => read(draftKey(event, table, round));

export function dropDraft(event, table, round) {
  localStorage.removeItem(draftKey(event, table, round));
}

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
