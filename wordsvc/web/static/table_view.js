// Drawing a hosted table into the page (docs/pages.md, "The table"): the seats with their card counts, presence and
// clocks, the piles, whose turn it is, the words laid this round, the scoreboard, each round's scores with the best
// play each hand had, and the end. Everything drawn comes from the projection the service sent for this viewer:
// another seat's cards are never in it, so they can never be drawn.

import { compact, el, t, tn } from "./common.js";

const $ = (id) => document.getElementById(id);

// A seat's name as the page shows it: a person's own name; a bot by its level, in the page's language.
export function seatName(table, i) {
  const seat = table.seats[i];
  if (seat.kind === "bot" && !seat.handed) return t("table.bot", { level: t(`play.level.${seat.level}`), seat: i + 1 });
  return seat.name ?? t("table.open_seat", { seat: i + 1 });
}

const word = (faces) => compact(faces).toUpperCase();

// Time left as m:ss (h:mm:ss past an hour); never below zero.
export function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const [h, m, r] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  return h ? `${h}:${String(m).padStart(2, "0")}:${String(r).padStart(2, "0")}` : `${m}:${String(r).padStart(2, "0")}`;
}

export function drawSeats(view) {
  const { table, state, me, now } = view;
  const round = state?.round;
  $("seats").replaceChildren(
    ...table.seats.map((seat, i) => {
      const bits = [];
      if (round) bits.push(tn("table.cards", round.hand_counts[i]));
      if (seat.kind === "person") bits.push(t(seat.present ? "table.here" : "table.away"));
      if (seat.handed) bits.push(t(`table.handed.${seat.handed}`));
      if (round && round.out === i) bits.push(t("table.went_out"));
      if (round && round.dealer === i) bits.push(t("table.dealer"));
      const ends = seat.deadline_ms;
      const toMove = round && round.turn === i && table.status === "playing";
      const clock = ends && toMove ? el("span", { class: "clock", role: "timer" }, t("table.time_left", { time: clockText(ends - now()) })) : null;
      const bank = seat.bank_ms !== null && seat.bank_ms !== undefined ? el("span", { class: "bank" }, t("table.bank", { time: clockText(seat.bank_ms) })) : null;
      return el(
        "li",
        { class: `seat${toMove ? " to-move" : ""}${i === me ? " me" : ""}`, "aria-current": toMove ? "step" : null },
        el("span", { class: "name" }, seatName(table, i) + (i === me ? ` (${t("table.you")})` : "")),
        el("span", { class: "total" }, t("table.total", { points: state ? state.totals[i] : 0 })),
        el("span", { class: "facts" }, bits.join(" · ")),
        clock,
        bank,
      );
    }),
  );
}

// The sentence that says whose turn it is and what they may do.
export function turnLine(view) {
  const { table, state, me } = view;
  if (table.status === "waiting") return tn("table.waiting", table.seats.filter((s) => s.kind === "open" || s.kind === "reserved").length);
  if (table.status === "aborted") return t("table.aborted");
  if (!state || state.over) return "";
  const round = state.round;
  const header = t("table.round_of", { round: round.number, rounds: view.rounds, cards: round.hand_size });
  if (round.phase === "challenges") return `${header} ${t(me !== null && !round.passed.includes(me) ? "table.challenge_now" : "table.challenge_wait")}`;
  if (round.turn !== me) return `${header} ${t("table.to_move", { name: seatName(table, round.turn) })}`;
  if (round.phase === "draw") return `${header} ${round.out === null ? t("table.your_draw") : t("table.your_last_draw", { name: seatName(table, round.out) })}`;
  if (round.phase === "lay") return `${header} ${t("table.your_lay")}`;
  return `${header} ${round.out === null ? t("table.your_discard") : t("table.your_last_discard")}`;
}

export function drawLaid(view) {
  const round = view.state?.round;
  const laid = round ? round.words.flatMap((words, i) => words.map((w) => ({ seat: i, w }))) : [];
  $("laid-panel").hidden = !round;
  $("laid").replaceChildren(
    ...(laid.length
      ? laid.map(({ seat, w }) => el("li", {}, el("span", { class: "who" }, `${seatName(view.table, seat)}: `), el("span", { class: "word" }, word(w))))
      : [el("li", { class: "none" }, t("table.nothing_laid"))]),
  );
}

export function drawScores(view) {
  const { state, table } = view;
  $("scores-panel").hidden = !state;
  if (!state) return;
  const numbers = state.rounds.map((r) => r.number);
  const head = el("tr", {}, el("th", { scope: "col" }, t("table.player")), ...numbers.map((n) => el("th", { scope: "col" }, String(n))), el("th", { scope: "col" }, t("table.total_head")));
  const rows = table.seats.map((_, i) =>
    el("tr", {}, el("th", { scope: "row" }, seatName(table, i)), ...state.rounds.map((r) => el("td", { class: "n" }, String(r.totals[i]))), el("td", { class: "n" }, String(state.totals[i]))),
  );
  $("scores").replaceChildren(el("caption", { class: "visually-hidden" }, t("table.scoreboard")), el("thead", {}, head), el("tbody", {}, ...rows));
}

// The last round scored: each seat's words, cards left and score, and from the analysis the best play its cards had.
export function drawRoundResult(view, analysis) {
  const { state, table } = view;
  const last = state?.rounds.at(-1);
  $("round-result").hidden = !last;
  if (!last) return;
  $("round-result-heading").textContent = t("table.round_scores", { round: last.number });
  const best = analysis?.round === last.number ? analysis.players : null;
  const head = el(
    "tr",
    {},
    ...[t("table.player"), t("table.laid_head"), t("table.left_head"), t("table.score_head"), t("table.best_head")].map((h) => el("th", { scope: "col" }, h)),
  );
  const rows = table.seats.map((_, i) => {
    const b = best?.[i];
    const bestText = !best ? t("table.best_loading") : b.best_words.length ? `${b.best_words.map((w) => w.word.toUpperCase()).join(" ")} (${b.best})` : t("table.best_none");
    return el(
      "tr",
      {},
      el("th", { scope: "row" }, seatName(table, i) + (last.out === i ? ` · ${t("table.went_out")}` : "")),
      el("td", {}, last.words[i].map(word).join(" ") || "—"),
      el("td", {}, last.unused[i].map((f) => f.toUpperCase()).join(" ") || "—"),
      el("td", { class: "n" }, String(last.totals[i])),
      el("td", {}, bestText),
    );
  });
  $("round-table").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
}

// The end of the game: who won, and (for a seat) the rematch; the seeds revealed and the game log to check the deal.
export function drawEnd(view) {
  const { table, state, me } = view;
  const over = table.status === "over" || table.status === "aborted";
  $("end").hidden = !over;
  if (!over) return;
  if (table.status === "aborted") {
    $("end-heading").textContent = t("table.aborted_heading");
    $("end-text").textContent = t("table.aborted");
  } else {
    const top = Math.max(...state.totals);
    const winners = table.seats.map((_, i) => i).filter((i) => state.totals[i] === top);
    $("end-heading").textContent = t("table.game_over");
    $("end-text").textContent = winners.length === 1 ? t("table.winner", { name: seatName(table, winners[0]), points: top }) : t("table.tie", { names: winners.map((i) => seatName(table, i)).join(", "), points: top });
  }
  const person = me !== null && table.seats[me]?.kind === "person" && !table.seats[me].handed;
  $("rematch").hidden = !(person && table.status === "over" && !view.rematchKept);
  $("rematch-link").hidden = !view.rematchKept;
  if (view.rematchKept) $("rematch-link").href = view.rematchKept;
  $("verify").hidden = !table.server_seed;
  $("log-link").href = `/events/${encodeURIComponent(view.event)}/games/${encodeURIComponent(view.game)}/play/log`;
  $("replay-open").hidden = !state;
}
