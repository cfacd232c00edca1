// Results as the console shows them (docs/pages.md), laid out to fit a phone: the preview of the round being
// typed (its bonuses one line each under the table, never a tied name on every row); the echo of a table,
// every stored round with its running totals, its receipt and its revisions (a round's scores on one row,
// its receipt and actions on the next); and a finished game's final totals and each round's bonus winners.

import { compact, el, t } from "./common.js";

// One line per bonus of a round's result: who won it and how much, or who tied for it (nobody scores a tie).
export function bonusLines(result, round = null) {
  const lines = [];
  for (const b of result.bonuses || []) {
    const bonus = t(`console.bonus.${b.kind}`);
    const where = round === null ? "" : `${t("console.round_short", { n: round })} · `;
    if (b.winners && b.winners.length) lines.push(where + t("console.bonus_won", { bonus, players: b.winners.join(", "), points: b.points }));
    else if (b.tied && b.tied.length) lines.push(where + t("console.bonus_tied", { bonus, players: b.tied.join(", ") }));
  }
  return lines;
}

// The bonuses one player won in a result, for that player's row.
export const wonBy = (player) => player.bonuses.map((b) => `${t(`console.bonus.${b.kind}`)} +${b.points}`).join("; ");

// What adds up but looks wrong on a slip: nobody went out, or a player who went out holds an invalid word or cards.
export function suspicions(result) {
  const lines = [];
  if (!result.players.some((p) => p.went_out_valid !== null)) lines.push({ text: t("console.nobody_out") });
  for (const p of result.players) if (p.went_out_valid === false) lines.push({ text: t("console.out_failed", { player: p.name }) });
  return lines;
}

// A preview's answer (POST .../preview) in its table and its bonus list.
export function renderPreview(table, bonuses, answer) {
  const totals = Object.fromEntries(answer.running_totals.map((r) => [r.name, r.total]));
  const wordsText = (p) => p.words.map((w) => `${w.word} ${w.counted ? "✓" : "✗"} ${w.points}`).join(", ");
  table.tBodies[0].replaceChildren(
    ...answer.result.players.map((p) => {
      const won = wonBy(p);
      return el(
        "tr",
        { "data-player": p.name },
        el("th", { scope: "row" }, p.name),
        el("td", { class: "words" }, wordsText(p), won ? el("span", { class: "won" }, won) : null),
        el("td", { class: "n" }, p.unused_points ? `−${p.unused_points}` : "0"),
        el("td", { class: "n" }, String(p.total)),
        el("td", { class: "n" }, String(totals[p.name])),
      );
    }),
  );
  bonuses.replaceChildren(...bonusLines(answer.result).map((line) => el("li", {}, line)));
}

// A stored round's receipt (docs/ledger.md): its audit entry and the first 12 hex digits of the tree's root, the whole JSON on opening.
// Kept, it lets anyone check later that the ledger still holds the round: wordsvc audit verify --receipt FILE.
function receiptBox(receipt) {
  if (!receipt) return null;
  const short = t("console.receipt_short", { seq: receipt.seq, root: receipt.root.slice(0, 12) });
  const unsigned = receipt.checkpoint.signature === null ? ` · ${t("console.receipt_unsigned")}` : "";
  return el("details", { class: "receipt" }, el("summary", {}, short + unsigned), el("pre", { class: "receipt-json" }, JSON.stringify(receipt, null, 2)));
}

// The stored rounds' table: `game` as GET /events/{e}/games/{g} answers, `mayCorrect` whether to offer corrections.
export function renderStored(table, game, mayCorrect) {
  table.tHead.replaceChildren(
    el("tr", {}, el("th", { scope: "col", class: "n" }, t("page.round")), ...game.players.map((p) => el("th", { scope: "col", class: "n" }, p))),
  );
  const columns = game.players.length + 1;
  table.tBodies[0].replaceChildren(
    ...game.rounds.flatMap((r) => {
      const scores = Object.fromEntries(r.result.players.map((p) => [p.name, p.total]));
      const running = Object.fromEntries(r.running_totals.map((p) => [p.name, p.total]));
      const scoresRow = el(
        "tr",
        { "data-round": r.round },
        el("th", { scope: "row", class: "n" }, String(r.round)),
        ...game.players.map((p) => el("td", { class: "n" }, `${scores[p]} → ${running[p]}`)),
      );
      const actions = el(
        "div",
        { class: "actions" },
        el("button", { type: "button", class: "quiet", "data-history": r.round }, t("console.revisions", { count: r.revisions })),
        mayCorrect ? el("button", { type: "button", class: "quiet", "data-correct": r.round }, t("console.correct", { n: r.round })) : null,
      );
      const moreRow = el("tr", { "data-round": r.round, class: "more" }, el("td", { colspan: columns, class: "receipt" }, receiptBox(r.receipt), actions));
      return [scoresRow, moreRow];
    }),
  );
}

// A round's revisions, oldest first: when, by which token, the words, the reason.
export function renderHistory(list, revisions) {
  list.replaceChildren(
    ...revisions.map((rev) => {
      const item = el("li", {}, t("console.revision_line", { revision: rev.revision, at: new Date(rev.at).toLocaleString(document.documentElement.lang), actor: rev.actor }));
      const words = rev.body.players.map((p) => `${p.name}: ${p.words.map(compact).join(" ")}${p.unused.length ? ` (${compact(p.unused)})` : ""}`).join(" · ");
      item.append(el("br"), words);
      if (rev.reason) item.append(el("br"), t("console.reason", { reason: rev.reason }));
      return item;
    }),
  );
}

// A finished game: its final totals (highest first) and each round's bonus lines.
export function renderFinished(box, game) {
  const last = game.rounds[game.rounds.length - 1];
  const totals = [...(last ? last.running_totals : [])].sort((a, b) => b.total - a.total);
  box.querySelector("#final-totals").replaceChildren(...totals.map((p) => el("li", {}, t("console.final_total", { player: p.name, total: p.total }))));
  box.querySelector("#final-bonuses").replaceChildren(...game.rounds.flatMap((r) => bonusLines(r.result, r.round)).map((line) => el("li", {}, line)));
}
