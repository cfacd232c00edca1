// What a device keeps of the games it plays (docs/pages.md, "Playing in the browser"): the player's name, each
// seat's token, and this device's id. The lobby and the table page share it: a table made in the lobby is sat at
// by the table page with the same token, and a seat link (`/play/E/G#token=wsv_...`) is taken into it.
//
// Kept in localStorage (per origin): a reload, a closed tab reopened or a restarted browser finds the seat again.
// A seat token is a bearer token: it stays on this device, never in an address once the page has read it.

const NAME_KEY = "wordsvc.play.name";
const SEATS_KEY = "wordsvc.play.seats";
const DEVICE_KEY = "wordsvc.play.device";

function read(key, fallback) {
  try {
    return JSON.parse(localStorage.getItem(key)) ?? fallback;
  } catch {
    return fallback;
  }
}

// The name this device plays under ("" until one is given).
export function playerName() {
  return String(read(NAME_KEY, "") || "");
}

export function keepPlayerName(name) {
  localStorage.setItem(NAME_KEY, JSON.stringify(String(name).trim()));
}

const tableKey = (event, game) => `${event}/${game}`;

// The seat this device holds at a table: {token, token_id, seat, name}, or null.
export function keptSeat(event, game) {
  return read(SEATS_KEY, {})[tableKey(event, game)] ?? null;
}

export function keepSeat(event, game, seat) {
  const seats = read(SEATS_KEY, {});
  seats[tableKey(event, game)] = { token: seat.token, token_id: seat.token_id ?? null, seat: seat.seat ?? null, name: seat.name ?? null };
  localStorage.setItem(SEATS_KEY, JSON.stringify(seats));
}

export function forgetSeat(event, game) {
  const seats = read(SEATS_KEY, {});
  delete seats[tableKey(event, game)];
  localStorage.setItem(SEATS_KEY, JSON.stringify(seats));
}

// This device's id: random, made once and kept. A seat is played from one device at a time.
export function deviceId() {
  let id = read(DEVICE_KEY, null);
  if (!id) {
    const bytes = crypto.getRandomValues(new Uint8Array(12));
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(DEVICE_KEY, JSON.stringify(id));
  }
  return id;
}

// A table page's address: /play/{event}/{game}.
export function tablePath(event, game) {
  return `/play/${encodeURIComponent(event)}/${encodeURIComponent(game)}`;
}
