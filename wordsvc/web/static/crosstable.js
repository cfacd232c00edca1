// The crosstable on screen, in the director's tournament view (docs/pages.md, "The tournament"): who met whom, from
// GET /events/{e}/crosstable, the very data the printed crosstable is made from. A grid of a column an opponent does
// not fit a phone, so it is a list a player: the players in the order of the standings, each with a row a game
// against an opponent (the opponent, the table, the score, the result), as the printed list of a large field.

import { el, formatNumber, t } from "./common.js";

const $ = (id) => document.getElementById(id);

// Draws `view` (the crosstable's answer, or null before the first read); `nameOf(id)` names a player.
export function renderCrosstable(view, nameOf) {
  const table = $("crosstable");
  const players = view ? view.players : [];
  const met = (id) => Object.entries((view && view.meetings[id]) || {}).flatMap(([opponent, games]) => games.map((game) => ({ opponent, ...game })));
  const any = players.some((id) => met(id).length);
  $("crosstable-empty").hidden = any;
  table.hidden = !any;
  const order = new Map(players.map((id, i) => [id, i]));
  table.replaceChildren(
    table.tHead,
    ...players.map((id) => {
      const games = met(id).sort((a, b) => a.session - b.session || order.get(a.opponent) - order.get(b.opponent));
      const rows = games.map((game) =>
        el(
          "tr",
          { "data-opponent": game.opponent, "data-session": game.session },
          el("td", {}, nameOf(game.opponent)),
          el("td", {}, game.table),
          el("td", { class: "n" }, `${formatNumber(game.score)} : ${formatNumber(game.opponent_score)}`),
          el("td", {}, t(`tournament.result.${game.result}`)),
        ),
      );
      if (!rows.length) rows.push(el("tr", {}, el("td", { colspan: 4 }, "—")));
      return el("tbody", { "data-player": id }, el("tr", {}, el("th", { scope: "rowgroup", colspan: 4 }, nameOf(id))), ...rows);
    }),
  );
}
