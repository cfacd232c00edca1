// A hosted table's page, /play/{event}/{game} (docs/pages.md, "The table"): a seat plays its hand, anyone else
// watches. The page holds the seat's token (play_store.js: from the lobby, from a seat link's fragment, or taken
// here), reads the table and its own projection (GET .../play), follows the table's stream and reads again at each
// message, and sends moves through table_moves.js. Another seat's cards never reach it: the service projects them away.

import { ApiError, api, el, languageSwitch, newestWins, onLanguage, t, tn } from "./common.js";
import { onConnection, showConnection } from "./connection.js";
import { forgetSeat, keepPlayerName, keepSeat, keptSeat, playerName, tablePath } from "./play_store.js";
import { subscribe } from "./stream.js";
import {
  available,
  cardButton,
  clearForming,
  dropKept,
  forgetVerdicts,
  hand,
  keepForming,
  keepTyped,
  onHandChange,
  resetHand,
  setHand,
  tapCard,
  untapCard,
  verdictLine,
} from "./table_hand.js";
import { seatMoves } from "./table_moves.js";
import { moveText, openReplay } from "./table_replay.js";
import { drawEnd, drawLaid, drawRoundResult, drawScores, drawSeats, seatName, turnLine } from "./table_view.js";

const $ = (id) => document.getElementById(id);
const [eventId, gameId] = location.pathname.split("/").slice(2, 4).map(decodeURIComponent);
const base = `/events/${encodeURIComponent(eventId)}/games/${encodeURIComponent(gameId)}`;
const view = { event: eventId, game: gameId, table: null, state: null, me: null, rounds: 0, rematchKept: null, skew: 0, now: () => Date.now() + view.skew };
let seat = null; // {token, token_id, seat, name} this device holds here, or null: a spectator
let fromLink = false; // the seat came in this page's address: another device may hold it
let analysis = null;
let waitingSaid = false; // the notice is the one of a move waiting for the network

// A seat link's token (`#token=wsv_...`) is kept on the device and taken out of the address at once.
function takeLinkToken() {
  const token = new URLSearchParams(location.hash.slice(1)).get("token");
  if (!token) return;
  const had = keptSeat(eventId, gameId);
  if (had?.token !== token) {
    keepSeat(eventId, gameId, { token });
    fromLink = true;
  }
  history.replaceState(null, "", location.pathname + location.search);
}

// Says `text` under the title: as a status, or as a refusal (`role="alert"`); each replaces the other.
function say(text, isProblem = false) {
  $("notice").textContent = isProblem ? "" : text;
  $("problem").textContent = isProblem ? text : "";
}

// A refusal as a sentence in the page's language: the page's own words for the codes it knows; for a move the rules
// refused, the service's sentence, which it writes in the page's language (the request's Accept-Language); else the
// page's `fallback`. Never the detail of another problem, which the service writes in English, nor a field path.
function refusalText(error, fallback = "table.refused") {
  if (!(error instanceof ApiError)) return t(fallback);
  if (error.status === 0) return t("table.offline");
  const own = `table.problem.${error.problem.code}`;
  if (t(own) !== own) return t(own);
  if (error.status === 422 && error.problem.refusal && error.problem.detail) return error.problem.detail;
  return t(fallback);
}

const moves = seatMoves({
  event: eventId,
  game: gameId,
  token: () => seat?.token,
  onAnswer: (body) => {
    if (!view.state || body.state.seq >= view.state.seq) view.state = body.state;
    render();
    refresh();
  },
  onRefused: (error, move) => {
    const what = moveText(view.table, { ...move, seat: view.me });
    say(error.problem?.code === "stale_move" ? t("table.moved_on", { move: what }) : `${refusalText(error)} (${what})`, true);
    refresh();
  },
  onWaiting: (move) => {
    if (move) say(t("table.waiting_to_send", { move: moveText(view.table, { ...move.move, seat: view.me }) }));
    else if (waitingSaid) say("");
    waitingSaid = Boolean(move);
    render();
  },
});

async function loadEvent() {
  const { body } = await api("GET", `/events/${encodeURIComponent(eventId)}`, { token: seat?.token });
  view.rounds = body.ruleset.rounds.length;
  view.values = Object.fromEntries(Object.entries(body.ruleset.snapshot.deck).map(([face, card]) => [face, card.value]));
  view.judge = { ruleset: body.ruleset.id, lang: body.lexicon.id };
}

// Who was present before this device used a seat link's token (its own reads make the seat present): a seat
// present then is being played on another device, and the page asks which device keeps it.
let presentBefore = null;
async function lookBeforeSitting() {
  if (!fromLink) return;
  try {
    presentBefore = (await api("GET", `${base}/play`)).body.seats.map((s) => s.present);
  } catch {
    presentBefore = null; // a private table shows nothing to a spectator: the question is not asked
  }
}

const refresh = newestWins(async (current) => {
  let answer;
  try {
    answer = await api("GET", `${base}/play`, { token: seat?.token });
  } catch (error) {
    if (!current()) return;
    if (error.status === 401 && seat) {
      forgetSeat(eventId, gameId);
      seat = null;
      say(t("table.link_revoked"), true);
      startStream(); // the stream of the revoked token was refused: a spectator's from now on
      return refresh();
    }
    if (error.status === 404 || error.status === 403) say(t(error.status === 404 ? "table.not_found" : "table.private"), true);
    else if (error.status === 409) say(refusalText(error, "table.not_done"), true);
    return;
  }
  if (!current()) return;
  const date = Date.parse(answer.date || "");
  if (!Number.isNaN(date)) view.skew = date - Date.now();
  const { state, ...table } = answer.body;
  view.table = table;
  if (state && (!view.state || state.seq >= view.state.seq)) view.state = state; // a read begun before a move's answer is older than it
  if (!state) view.state = null;
  view.me = view.state?.viewer ?? seat?.seat ?? null;
  if (seat && view.me !== null && seat.seat !== view.me) keepSeat(eventId, gameId, { ...seat, seat: view.me });
  if (!view.values) await loadEvent().catch(() => {});
  view.rematchKept = table.rematch && keptSeat(eventId, table.rematch) ? tablePath(eventId, table.rematch) : null;
  const last = view.state?.rounds.at(-1);
  if (last && analysis?.round !== last.number) loadAnalysis(last.number);
  render();
});

async function loadAnalysis(number) {
  analysis = { round: number, players: null };
  try {
    const { body } = await api("GET", `${base}/rounds/${number}/analysis`, { token: seat?.token });
    analysis = body;
  } catch {
    analysis = { round: number, players: null, failed: true };
  }
  drawRoundResult(view, analysis.players ? analysis : null);
}

function myTurn() {
  const round = view.state?.round;
  return Boolean(round && view.me !== null && view.table?.status === "playing" && round.turn === view.me && !view.table.seats[view.me].handed);
}

function send(move) {
  if (!moves.send(view.state.seq, move)) return;
  hand.discarding = false;
  say("");
  render();
}

function drawPlay() {
  const round = view.state?.round;
  const playing = view.me !== null && round && view.table.status === "playing";
  $("play").hidden = !playing;
  $("turn-line").textContent = turnLine(view);
  if (!playing) return;
  if (hand.round !== round.number) {
    resetHand();
    hand.round = round.number;
  }
  setHand(round.hand ?? [], view.judge, view.values ?? {});
  const mine = myTurn() && !moves.waiting();
  const phase = round.phase;
  const draw = $("draw");
  draw.textContent = tn("table.draw_pile", round.draw_pile);
  draw.disabled = !(mine && phase === "draw");
  const take = $("take");
  take.textContent = round.discard_top ? t("table.take", { card: round.discard_top.toUpperCase() }) : t("table.discard_empty");
  take.disabled = !(mine && phase === "draw" && round.discard_top);
  const free = available();
  const canDiscard = mine && phase === "discard";
  $("hand").replaceChildren(
    ...free.map((face) => {
      const button = cardButton(face, { class: `card${face.length > 1 ? " double" : ""}${hand.discarding ? " discarding" : ""}` });
      button.addEventListener("click", () => {
        const discarded = tapCard(face);
        if (discarded) discard(discarded);
      });
      return button;
    }),
  );
  $("forming").replaceChildren(
    ...hand.forming.map((face, i) => {
      const button = cardButton(face, { "aria-description": t("table.tap_to_remove") });
      button.addEventListener("click", () => untapCard(i));
      return button;
    }),
  );
  $("forming-verdict").textContent = hand.forming.length ? verdictLine(hand.forming) : t("table.forming_help");
  $("keep-word").disabled = hand.forming.length === 0;
  $("clear-word").disabled = hand.forming.length === 0;
  $("kept").replaceChildren(
    ...hand.kept.map((word, i) =>
      el(
        "li",
        {},
        el("span", { class: "word" }, word.map((f) => (f.length > 1 ? `(${f})` : f)).join("").toUpperCase()),
        el("span", { class: "verdict" }, verdictLine(word)),
        el("button", { type: "button", class: "quiet", "data-word": String(i), "aria-label": t("table.take_back_label", { word: word.join("").toUpperCase() }) }, t("table.take_back")),
      ),
    ),
  );
  for (const button of $("kept").querySelectorAll("button[data-word]")) button.addEventListener("click", () => dropKept(Number(button.dataset.word)));
  const discardButton = $("discard");
  discardButton.disabled = !canDiscard;
  discardButton.textContent = t(hand.discarding ? "table.discard_cancel" : round.out === null ? "table.discard" : "table.discard_last");
  discardButton.setAttribute("aria-pressed", hand.discarding ? "true" : "false");
  const goOut = $("go-out");
  goOut.hidden = round.out !== null;
  goOut.disabled = !(canDiscard && hand.kept.length && free.length === 1 && !hand.forming.length);
  goOut.textContent = free.length === 1 && hand.kept.length ? t("table.go_out_with", { card: free[0].toUpperCase() }) : t("table.go_out");
  $("lay-down").hidden = phase !== "lay";
  $("lay-down").disabled = !(mine && phase === "lay");
  drawChallenges(round);
}

function drawChallenges(round) {
  const open = round.phase === "challenges";
  $("challenge-panel").hidden = !open;
  if (!open) return;
  const can = view.me !== null && !round.passed.includes(view.me) && !moves.waiting();
  const items = round.words.flatMap((words, player) =>
    player === view.me
      ? []
      : words.map((w, index) => {
          const challenged = round.challenges.some(([, p, i]) => p === player && i === index);
          const button = el("button", { type: "button", disabled: !can || challenged }, t(challenged ? "table.challenged" : "table.challenge"));
          button.addEventListener("click", () => send({ kind: "challenge", player, word: index }));
          return el("li", {}, el("span", { class: "who" }, `${seatName(view.table, player)}: `), el("span", { class: "word" }, w.join("").toUpperCase()), button);
        }),
  );
  $("challengeable").replaceChildren(...items);
  $("pass").disabled = !can;
}

function discard(face) {
  const round = view.state.round;
  hand.discarding = false;
  if (round.out !== null && hand.kept.length) send({ kind: "lay_down", words: hand.kept, discard: face });
  else send({ kind: "discard", card: face });
}

function render() {
  const table = view.table;
  if (!table) return;
  document.body.dataset.status = table.status;
  document.body.dataset.seq = String(view.state?.seq ?? 0); // the move count drawn: what a test waits on
  $("where").textContent = t("table.where", { table: gameId, seats: table.seats.length });
  const open = table.seats.some((s) => s.kind === "open");
  $("join").hidden = !(table.status === "waiting" && !seat && open && table.setup.public);
  if (!$("join").hidden && !$("join-name").value) $("join-name").value = playerName();
  $("device").hidden = !(fromLink && seat && presentBefore?.[view.me ?? -1] && table.status === "playing");
  drawSeats(view);
  drawPlay();
  drawLaid(view);
  drawScores(view);
  drawRoundResult(view, analysis?.players ? analysis : null);
  drawEnd(view);
}

onHandChange(render);

$("join-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const name = $("join-name").value.trim();
  if (!name) return say(t("table.name_needed"), true);
  try {
    const nonce = Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
    const { body } = await api("POST", `${base}/play/seats`, { body: { name, nonce } });
    keepPlayerName(name);
    seat = { token: body.token, token_id: body.token_id, seat: body.seat, name };
    keepSeat(eventId, gameId, seat);
    say(t("table.seated", { seat: body.seat + 1 }));
    startStream();
    refresh();
  } catch (error) {
    say(refusalText(error, "table.join_refused"), true);
  }
});

// This device takes the seat over: the token both devices held is replaced by a new one kept here, so the other
// device's next read is refused and it says so ("replaced"), watching from then on. One device plays a seat at a time.
$("device-here").addEventListener("click", async () => {
  try {
    const { body } = await api("POST", `${base}/play/seats/${view.me}/token`, { token: seat.token });
    seat = { ...seat, token: body.token, token_id: body.token_id };
    keepSeat(eventId, gameId, seat);
    fromLink = false;
    say(t("table.device_taken"));
    startStream();
    refresh();
  } catch (error) {
    say(refusalText(error, "table.not_done"), true);
  }
});
$("device-watch").addEventListener("click", () => {
  forgetSeat(eventId, gameId);
  seat = null;
  fromLink = false;
  startStream();
  refresh();
});

$("draw").addEventListener("click", () => send({ kind: "draw" }));
$("take").addEventListener("click", () => send({ kind: "take" }));
$("discard").addEventListener("click", () => {
  hand.discarding = !hand.discarding;
  render();
  if (hand.discarding) $("hand").querySelector("button")?.focus();
});
$("go-out").addEventListener("click", () => send({ kind: "go_out", words: hand.kept, discard: available()[0] }));
$("lay-down").addEventListener("click", () => send({ kind: "lay_down", words: hand.kept, discard: null }));
$("pass").addEventListener("click", () => send({ kind: "pass" }));
$("keep-word").addEventListener("click", keepForming);
$("clear-word").addEventListener("click", clearForming);
$("type-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const typed = $("type-word").value;
  if (!typed.trim()) return;
  if (keepTyped(typed)) {
    $("type-word").value = "";
    say("");
  } else say(t("table.cannot_spell", { word: typed.trim().toUpperCase() }), true);
});
document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && hand.discarding) {
    hand.discarding = false;
    render();
  }
});
$("rematch").addEventListener("click", async () => {
  try {
    const { body } = await api("POST", `${base}/play/rematch`, { token: seat.token });
    keepSeat(eventId, body.table.game, { token: body.token, token_id: body.token_id, seat: body.seat, name: seat.name });
    location.assign(tablePath(eventId, body.table.game));
  } catch (error) {
    say(refusalText(error, "table.not_done"), true);
  }
});
$("replay-open").addEventListener("click", () => openReplay(view, seat?.token).catch((error) => say(refusalText(error, "table.not_done"), true)));

let stream = null;
function startStream() {
  stream?.close();
  stream = subscribe(eventId, {
    token: seat?.token,
    path: `${base}/play/stream`,
    onMessage: () => refresh(),
    onPoll: () => refresh(),
    onState: (state) => {
      document.body.dataset.stream = state;
    },
  });
}

languageSwitch($("language"));
showConnection($("offline"), "table.offline");
onConnection((online) => {
  if (online) refresh();
});
onLanguage(() => {
  forgetVerdicts();
  render();
});
setInterval(() => {
  if (view.table?.seats.some((s) => s.deadline_ms)) drawSeats(view);
}, 1000);

takeLinkToken();
seat = keptSeat(eventId, gameId);
await lookBeforeSitting();
startStream();
moves.flush();
refresh().finally(() => {
  document.body.dataset.ready = "true";
});
