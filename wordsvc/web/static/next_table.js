// Where a referee goes once a table's game is finished (docs/pages.md, "A finished game"): in a tournament,
// the next session's table of the same players (GET /events/{e}/sessions), if it is seated; otherwise a
// table of the event with rounds still to store. Only a table the token may open is offered: a referee's
// token limited to one table offers none (the director hands out the next table's link).

import { call } from "./connection.js";

// {id, players} of the table to offer after `table`, or null.
export async function nextTable({ token, who, event, table, rounds }) {
  if (who.table) return null;
  const path = `/events/${encodeURIComponent(event.id)}`;
  const here = event.games.find((g) => g.id === table);
  try {
    const { sessions } = (await call("GET", `${path}/sessions`, { token })).body;
    const current = sessions.find((s) => s.tables.some((t) => t.game === table));
    const following = current && sessions.find((s) => s.number === current.number + 1);
    if (following && here) {
      const names = new Set(here.players);
      const seats = (t) => t.seats.flatMap((s) => [s.player, s.name]);
      const same = following.tables.find((t) => seats(t).some((p) => names.has(p)));
      if (same) return { id: same.game, players: same.seats.map((s) => s.name) };
    }
  } catch {
    // no tournament, or not reachable now: the event's tables below
  }
  const fresh = (await call("GET", path, { token })).body;
  const open = fresh.games.find((g) => g.id !== table && g.rounds_played < rounds);
  return open ? { id: open.id, players: open.players } : null;
}
