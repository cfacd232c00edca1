// A hosted game replayed move by move (docs/pages.md, "The table": rematch and history). Each step is the service's
// GET .../play/replay?at=k: the game after k moves as this viewer may see it (its own hand only while the game is
// played); once the game is over and its seed revealed, every hand and the draw pile. The moves are described from
// GET .../play/log, every move as a spectator saw it.

import { api, compact, el, t, tn } from "./common.js";
import { seatName } from "./table_view.js";

const $ = (id) => document.getElementById(id);
const word = (faces) => compact(faces).toUpperCase();

// What move `m` did, as a sentence.
export function moveText(table, m) {
  const name = seatName(table, m.seat);
  const words = (m.words || []).map(word).join(" ");
  switch (m.kind) {
    case "draw":
      return t("table.move.draw", { name });
    case "take":
      return t("table.move.take", { name, card: (m.card || "").toUpperCase() });
    case "discard":
      return t("table.move.discard", { name, card: (m.card || "").toUpperCase() });
    case "go_out":
      return t("table.move.go_out", { name, words, card: (m.discard || "").toUpperCase() });
    case "lay_down":
      return m.discard ? t("table.move.lay_down", { name, words: words || "—", card: m.discard.toUpperCase() }) : t("table.move.lay_only", { name, words: words || "—" });
    case "challenge":
      return t("table.move.challenge", { name, player: seatName(table, m.player) });
    default:
      return t("table.move.pass", { name });
  }
}

// The replay of `view`'s game, opened at its first deal; `token` the seat's, if any.
export function openReplay(view, token) {
  const base = `/events/${encodeURIComponent(view.event)}/games/${encodeURIComponent(view.game)}/play`;
  const slider = $("replay-at");
  let moves = [];
  let total = 0;
  let asked = 0;

  async function show(at) {
    const mine = ++asked;
    const { body } = await api("GET", `${base}/replay?at=${at}`, { token });
    if (mine !== asked) return; // a later step was asked meanwhile
    total = body.moves;
    slider.max = String(total);
    slider.value = String(body.at);
    const state = body.state;
    const round = state.round;
    const m = body.at > 0 ? moves[body.at - 1] : null;
    const where = round ? t("table.replay_round", { round: round.number, at: body.at, moves: total }) : t("table.replay_end", { at: body.at, moves: total });
    $("replay-where").textContent = `${where}${m ? ` ${moveText(view.table, m)}` : ""}`;
    $("replay-hands").replaceChildren(
      ...view.table.seats.map((_, i) => {
        const held = body.hands ? body.hands[i] : i === state.viewer && round ? round.hand : null;
        const cards = held ? held.map((f) => f.toUpperCase()).join(" ") : round ? tn("table.cards", round.hand_counts[i]) : "";
        const laid = round ? round.words[i].map(word).join(" ") : "";
        return el("li", { class: "seat" }, el("span", { class: "name" }, seatName(view.table, i)), el("span", { class: "facts" }, cards), el("span", { class: "word" }, laid), el("span", { class: "total" }, t("table.total", { points: state.totals[i] })));
      }),
    );
    $("replay-pile").textContent = round ? t("table.replay_piles", { top: (round.discard_top || "—").toUpperCase(), n: round.draw_pile }) + (body.draw_pile ? ` ${body.draw_pile.map((f) => f.toUpperCase()).join(" ")}` : "") : "";
  }

  const step = (to) => show(Math.max(0, Math.min(total, to)));
  $("replay-first").onclick = () => step(0);
  $("replay-back").onclick = () => step(Number(slider.value) - 1);
  $("replay-next").onclick = () => step(Number(slider.value) + 1);
  $("replay-last").onclick = () => step(total);
  slider.oninput = () => step(Number(slider.value));
  $("replay").hidden = false;
  return api("GET", `${base}/log`, { token }).then(({ body }) => {
    moves = body.moves;
    total = moves.length;
    return show(0);
  });
}
