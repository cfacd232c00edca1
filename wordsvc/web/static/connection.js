// Whether the service can be reached (docs/pages.md, "Outages"). Every call of the console goes through
// `call`: a network error, a 502, 503 or 504, or no answer within TIMEOUT_MS marks the connection lost,
// and the page probes GET /health by itself, after 1, 2, 4… up to 15 seconds, until it answers; then
// every listener hears that the connection is back (the page checks every mark again and sends a
// waiting round). A refusal (any other 4xx or 5xx) is an answer: the connection is fine. The browser's own
// `offline` event (the device left its network) marks it lost at once, without waiting for a call to fail:
// a page fed by the stream may make none for minutes. `showConnection` keeps a banner saying so while it is lost.

import { ApiError, api, onLanguage, t } from "./common.js";

const TIMEOUT_MS = 10000; // longer than any answer of a healthy service on a venue's network
const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 15000;
const GATEWAY = new Set([502, 503, 504]);

let online = true;
let retryIn = FIRST_RETRY_MS;
let retryTimer = 0;
const listeners = [];

export const isOnline = () => online;

// `listener(online)` is called whenever the connection is lost or comes back.
export function onConnection(listener) {
  listeners.push(listener);
}

// Keeps `banner` shown, saying the connection is lost (the page's text `key`), while it is; in the page's language.
export function showConnection(banner, key = "console.connection_lost") {
  const render = () => {
    banner.hidden = online;
    banner.textContent = online ? "" : t(key);
  };
  onConnection(render);
  onLanguage(render);
}

// Whether `error` says the service was not reached (rather than that it refused).
export const unreachable = (error) => error instanceof ApiError && (error.status === 0 || GATEWAY.has(error.status));

function withTimeout(promise) {
  let timer = 0;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new ApiError(0, { detail: "timeout" })), TIMEOUT_MS);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

// `api` from common.js, with reachability noted: it throws as api does.
export async function call(method, path, options) {
  try {
    const answer = await withTimeout(api(method, path, options));
    if (!online) back();
    return answer;
  } catch (error) {
    if (unreachable(error)) lost();
    else if (!online && error instanceof ApiError) back(); // a refusal is an answer
    throw error;
  }
}

function notify() {
  for (const listener of listeners) listener(online);
}

function lost() {
  if (!online) return;
  online = false;
  retryIn = FIRST_RETRY_MS;
  notify();
  schedule();
}

function schedule() {
  clearTimeout(retryTimer);
  retryTimer = setTimeout(probe, retryIn);
  retryIn = Math.min(retryIn * 2, LAST_RETRY_MS);
}

async function probe() {
  if (online) return;
  try {
    await withTimeout(api("GET", "/health"));
    back();
  } catch {
    schedule();
  }
}

window.addEventListener("offline", lost);
window.addEventListener("online", () => {
  retryIn = FIRST_RETRY_MS;
  probe(); // the network is back; the service may not be yet
});

function back() {
  clearTimeout(retryTimer);
  if (online) return;
  online = true;
  notify();
}
