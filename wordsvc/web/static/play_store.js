// What a device keeps of the games it plays (docs/pages.md, "The lobby" and "The table"): the player's name, each
// seat's token, and the tables it made. The lobby and the table page share it: a table made in the lobby is sat at
// by the table page with the same token, and a seat link (`/play/E/G#token=wsv_...`) is taken into it.
//
// Kept in localStorage (per origin): a reload, a closed tab reopened or a restarted browser finds the seat again.
// A seat token is a bearer token: it stays on this device, never in an address once the page has read it.

const NAME_KEY = "wordsvc.play.name";
const SEATS_KEY = "wordsvc.play.seats";

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

// A table page's address: /play/{event}/{game}.
export function tablePath(event, game) {
  return `/play/${encodeURIComponent(event)}/${encodeURIComponent(game)}`;
}

// --- the tables this device made (the lobby): the director's token, and the seat links it issued -------------------

const TABLES_KEY = "wordsvc.play.tables";

// A table made on this device: {token, token_id, public, invites, at}, or null. `token` is the table's event's director
// token (POST /tables answers it once): the one that issues a private table's seats; `invites` the seat links issued
// with it, {seat: {name, url}}, so a reload of the lobby shows them again rather than issuing more.
export function keptTable(event, game) {
  return read(TABLES_KEY, {})[tableKey(event, game)] ?? null;
}

// Keeps what `keptTable` answers; `table.at` (when it was made) defaults to now, `invites` to none.
export function keepTable(event, game, table) {
  const tables = read(TABLES_KEY, {});
  tables[tableKey(event, game)] = {
    token: table.token,
    token_id: table.token_id ?? null,
    public: Boolean(table.public),
    invites: table.invites ?? {},
    at: table.at ?? new Date().toISOString(),
  };
  localStorage.setItem(TABLES_KEY, JSON.stringify(tables));
}

// The tables this device made, newest first: [{event, game, ...keptTable}].
export function keptTables() {
  return Object.entries(read(TABLES_KEY, {}))
    .map(([key, table]) => {
      const cut = key.lastIndexOf("/");
      return { event: key.slice(0, cut), game: key.slice(cut + 1), ...table };
    })
    .sort((a, b) => String(b.at).localeCompare(String(a.at)));
}
