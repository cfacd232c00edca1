// An event's stream of changes, GET /events/{event}/stream (docs/streams.md), read with fetch and a
// ReadableStream rather than EventSource, which cannot send the Authorization header a private event needs.
// Each Server-Sent Events message goes to `onMessage(type, data, id)`, its data parsed as JSON. After a drop
// the stream is opened again with Last-Event-ID, so nothing is missed and nothing comes twice, after the
// server's `retry:` at first, then doubling up to LAST_RETRY_MS. When the stream cannot be had (the network,
// an answer other than the stream, no ReadableStream in this browser) `onPoll()` is called every
// WORDSVC_STANDINGS_POLL_SECONDS instead, while the stream is tried again in the background; polling stops as
// soon as it is back. `onState(state)` hears "live", "reconnecting" (dropped, trying again), "polling" or
// "refused" (401, 403, or no such event: no read would be answered, so nothing more is tried).

import { config } from "./common.js";

const FIRST_RETRY_MS = 2000; // until the server says otherwise (`retry:`); the HTML standard leaves it to the browser
const LAST_RETRY_MS = 15000; // the longest wait between two tries, as connection.js waits for /health
const STALE_MS = 45000; // three of the server's 15-second heartbeats missed: the connection is dead, though no error came
const REFUSED = new Set([401, 403]);

const supported = () => typeof ReadableStream === "function" && typeof TextDecoderStream === "function" && "body" in Response.prototype;

// A stream of the event's changes until `close()`; see the head of this module.
// `path` names another stream of the event's (a hosted table's: /events/{event}/games/{game}/play/stream).
export function subscribe(eventId, { token = null, path = null, onMessage = () => {}, onPoll = () => {}, onState = () => {} } = {}) {
  const url = path ?? `/events/${encodeURIComponent(eventId)}/stream`;
  let lastId = null; // the id of the last message had: sent as Last-Event-ID
  let retryMs = FIRST_RETRY_MS;
  let failures = 0; // tries in a row that did not open the stream
  let state = null;
  let controller = null;
  let retryTimer = 0;
  let pollTimer = 0;
  let staleTimer = 0;
  let closed = false;

  function tell(next) {
    if (next === state || closed) return;
    state = next;
    onState(state);
  }

  function poll() {
    if (pollTimer || closed) return;
    tell("polling");
    onPoll();
    pollTimer = setInterval(onPoll, config.standings_poll_seconds * 1000);
  }

  function stopPolling() {
    clearInterval(pollTimer);
    pollTimer = 0;
  }

  function again() {
    if (closed) return;
    clearTimeout(retryTimer);
    retryTimer = setTimeout(open, Math.min(retryMs * 2 ** Math.max(0, failures - 1), LAST_RETRY_MS)); // 2, 2, 4, 8, 15 s
  }

  // Aborts the read when nothing, not even a heartbeat, has come for STALE_MS.
  function alive() {
    clearTimeout(staleTimer);
    staleTimer = setTimeout(() => controller?.abort(), STALE_MS);
  }

  async function open() {
    if (closed) return;
    controller = new AbortController();
    const headers = { Accept: "text/event-stream" };
    if (token) headers.Authorization = `Bearer ${token}`;
    if (lastId) headers["Last-Event-ID"] = lastId;
    let response;
    try {
      response = await fetch(url, { headers, cache: "no-store", signal: controller.signal });
    } catch {
      return cannotConnect();
    }
    if (await refused(response)) {
      tell("refused");
      return close();
    }
    if (response.status !== 200 || !(response.headers.get("Content-Type") || "").startsWith("text/event-stream")) {
      controller.abort(); // not the stream: its body is not read
      return cannotConnect();
    }
    failures = 0;
    stopPolling();
    tell("live");
    try {
      await read(response.body);
    } catch {
      // a dropped connection, or the read aborted as stale: opened again below
    }
    clearTimeout(staleTimer);
    if (closed) return;
    tell("reconnecting");
    again();
  }

  function cannotConnect() {
    if (closed) return;
    failures += 1;
    poll();
    again();
  }

  // 401 or 403, or a 404 that names the event (a 404 without it is a service from before the stream: polled).
  async function refused(response) {
    if (REFUSED.has(response.status)) return true;
    if (response.status !== 404) return false;
    try {
      return (await response.clone().json()).code === "event_not_found";
    } catch {
      return false;
    }
  }

  // Reads the body to its end, one line at a time (CR LF, LF or CR ends a line), dispatching each message.
  async function read(body) {
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    const message = newMessage();
    let rest = "";
    let first = true;
    let endedOnCR = false; // a chunk ended with CR: an LF that starts the next one ends no second line
    alive();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      alive();
      let text = rest + (first ? value.replace(/^\uFEFF/, "") : value);
      first = false;
      if (endedOnCR && text.startsWith("\n")) text = text.slice(1);
      endedOnCR = text.endsWith("\r");
      const lines = text.split(/\r\n|\r|\n/);
      rest = lines.pop(); // an unfinished line ("" after a line end)
      for (const line of lines) field(message, line);
    }
  }

  // One line of the stream (the HTML standard's "interpret the event stream").
  function field(message, line) {
    if (line === "") return dispatch(message);
    if (line.startsWith(":")) return; // a comment: the heartbeat
    const colon = line.indexOf(":");
    const name = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (name === "data") message.data.push(value);
    else if (name === "event") message.type = value;
    else if (name === "id" && !value.includes("\0")) message.id = value;
    else if (name === "retry" && /^\d+$/.test(value)) retryMs = Number(value);
  }

  function dispatch(message) {
    if (message.id !== null) lastId = message.id;
    const { type, data } = message;
    Object.assign(message, newMessage());
    if (!data.length || closed) return;
    const text = data.join("\n");
    let parsed = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: handed over as the text it is
    }
    onMessage(type || "message", parsed, lastId);
  }

  function close() {
    closed = true;
    stopPolling();
    clearTimeout(retryTimer);
    clearTimeout(staleTimer);
    controller?.abort();
  }

  if (supported()) open();
  else poll(); // nothing to try in the background: this browser cannot read a stream
  return { close };
}

const newMessage = () => ({ type: "", data: [], id: null });
