// A page's one stream of its event's changes (stream.js, docs/pages.md "Live updates"), shared by its views
// (the console's standings, dashboard, tournament view and open table; the display): each view says which
// messages concern it and what to read again. A burst of messages (five tables storing a round at once)
// costs a view one read, DEBOUNCE_MS after the last; the stream's first message (`ready`, also after a
// reconnection) reads every view again, for what changed while nothing was listening; and when the stream
// cannot be had, every view reads again on the poll stream.js falls back to.

import { subscribe } from "./stream.js";

const DEBOUNCE_MS = 200;
const views = new Set(); // {types, refresh, concerns, timer}
let subscription = null;

// Follows event `eventId` with `token` (null for a public event) until `unfollow()` or the next `follow`;
// `onState` hears the stream's state (stream.js).
export function follow(eventId, token, onState = () => {}) {
  unfollow();
  subscription = subscribe(eventId, { token, onState, onMessage: heard, onPoll: () => views.forEach((view) => view.refresh()) });
}

export function unfollow() {
  subscription?.close();
  subscription = null;
}

// Calls `refresh()` after a message of one of `types` ("*": of any type) for which `concerns(data, type)` holds.
// Returns the function that stops it.
export function watch(types, refresh, concerns = () => true) {
  const view = { types, refresh, concerns, timer: 0 };
  views.add(view);
  return () => {
    clearTimeout(view.timer);
    views.delete(view);
  };
}

function heard(type, data) {
  for (const view of views) {
    const wanted = type === "ready" || ((view.types === "*" || view.types.includes(type)) && view.concerns(data, type));
    if (!wanted) continue;
    clearTimeout(view.timer);
    view.timer = setTimeout(view.refresh, DEBOUNCE_MS);
  }
}
