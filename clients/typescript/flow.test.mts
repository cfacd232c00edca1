// The generated TypeScript client (openapi-fetch typed by build/clients/typescript/schema.d.ts) against a running wordsvc.
//
// Compiled by `tsc --strict -p clients/typescript` into build/clients/flow/ and run with `node --test` by
// api_tests/test_clients.py, with WORDSVC_URL and WORDSVC_ADMIN_TOKEN (an admin token of that server's ledger)
// in the environment. Every request and answer is typed by the generated schema: a call the document does
// not allow does not compile, and errors come back typed as the document's Problem.

import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";

import createClient from "openapi-fetch";

import type { components, paths } from "../../build/clients/typescript/schema.js";

type Problem = components["schemas"]["Problem"];
type ProblemCode = components["schemas"]["ProblemCode"]; // every code of the registry, as a string-literal union
type PlayState = components["schemas"]["PlayState"];
type PlayMove = components["schemas"]["PlayMove"];

const URL = (process.env.WORDSVC_URL ?? "").replace(/\/+$/, "");
const ADMIN_TOKEN = process.env.WORDSVC_ADMIN_TOKEN ?? "";
const FUTURE_SEQ = 1_000_000; // a move count no game reaches: a move quoting it is always stale
const GAME_PATIENCE_MS = 900_000; // a guard against a hang only: the suite's server plays its bots at once (WORDSVC_BOT_DELAY_MS=0)
if (!URL) {
  throw new Error("set WORDSVC_URL to the server to test (and WORDSVC_ADMIN_TOKEN for the ledger)");
}

const api = createClient<paths>({ baseUrl: URL });
const as = (token: string) => createClient<paths>({ baseUrl: URL, headers: { Authorization: `Bearer ${token}` } });

/** The answer's data, failing the test with the problem if there is one. */
function ok<T>(answer: { data?: T; error?: Problem; response: Response }): T {
  assert.equal(answer.error, undefined, `${answer.response.status}: ${JSON.stringify(answer.error)}`);
  assert.ok(answer.data !== undefined, `${answer.response.status}: no data`);
  return answer.data;
}

const LANGUAGES = [
  { ruleset: "standard", word: "quiz", lang: "en-US" },
  { ruleset: "islenska", word: "hestur", lang: "is" },
  { ruleset: "eesti", word: "maja", lang: "et" },
];

for (const { ruleset, word, lang } of LANGUAGES) {
  test(`a word is judged in ${lang}`, async () => {
    const verdict = ok(await api.GET("/validate", { params: { query: { word, ruleset } } }));
    assert.equal(verdict.valid, true);
    assert.equal(verdict.lang, lang);
    assert.deepEqual(verdict.reasons, []);
    assert.ok(verdict.spellings.length > 0 && verdict.spellings.every((s) => s.points > 0));
    assert.equal(verdict.lexicon.id, lang);
    assert.equal(verdict.lexicon.sha256.length, 64);
  });
}

for (const { lang, word, ruleset } of [
  { lang: "de", word: "schön", ruleset: "deutsch" },
  { lang: "es", word: "niño", ruleset: "espanol" },
]) {
  test(`${lang} named alone plays its own ruleset`, async () => {
    const verdict = ok(await api.GET("/validate", { params: { query: { word, lang } } }));
    assert.equal(verdict.valid, true);
    assert.equal(verdict.ruleset, ruleset);
    const refused = ok(await api.GET("/validate", { params: { query: { word, lang, ruleset: "standard", suggest: false } } }));
    assert.equal(refused.valid, false);
    const [reason] = refused.reasons;
    assert.ok(reason !== undefined);
    assert.equal(reason.code, "not_spellable");
    assert.equal(reason.hint?.ruleset, ruleset);
  });
}

test("a judged play names no word", async () => {
  const ruling = ok(await api.POST("/validate", { body: { words: ["quiz", "xyzzy"], judge: true } }));
  assert.ok("acceptable" in ruling, JSON.stringify(ruling));
  assert.equal(ruling.acceptable, false);
  assert.equal(ruling.count, 2);
});

test("a round is scored", async () => {
  const result = ok(
    await api.POST("/score-round", {
      body: {
        ruleset: "standard",
        round: 1,
        players: [
          { name: "Ann", words: [["QU", "I", "Z"]], unused: [], went_out: true },
          { name: "Bob", words: ["top"], unused: [] },
        ],
      },
    }),
  );
  assert.deepEqual(
    result.players.map((p) => [p.name, p.total]),
    [
      ["Ann", 35],
      ["Bob", 11],
    ],
  );
  assert.equal(result.players[0]?.words[0]?.reason, null); // a nullable nested field: a valid word has no reason
});

test("the best play of a hand", async () => {
  const best = ok(await api.POST("/best-meld", { body: { hand: "a(cl)g(in)(th)mpouyn", discard: true, top: 3, face_up: "E" } }));
  assert.equal(best.score, 58);
  assert.deepEqual(
    best.words.map((w) => w.word),
    ["unclamping", "thy"],
  );
  assert.equal(best.discard, "O");
  assert.equal(best.face_up?.take, false);
});

test("a word search goes on from its cursor", async () => {
  const first = ok(await api.GET("/words", { params: { query: { pattern: "qu?z*", limit: 2 } } }));
  assert.ok(first.count === first.words.length && first.count <= 2);
  const cursor = first.next_cursor;
  assert.equal(typeof cursor, "string"); // qu?z* has more than two words (and a page cut short by its budget has a cursor too)
  const second = ok(await api.GET("/words", { params: { query: { pattern: "qu?z*", limit: 2, cursor: cursor ?? undefined } } }));
  const seen = new Set(first.words.map((w) => w.word));
  assert.ok(second.words.every((w) => !seen.has(w.word)));
  assert.ok([...first.words, ...second.words].every((w) => w.word.startsWith("qu") && w.valid));
});

test("an event from its creation to its audit", async () => {
  assert.ok(ADMIN_TOKEN, "set WORDSVC_ADMIN_TOKEN: creating an event needs an admin token of the server's ledger");
  const event = `ts-client-${randomUUID().slice(0, 12)}`;
  const created = await as(ADMIN_TOKEN).POST("/events", { body: { id: event, name: "TypeScript client night", ruleset: "standard" } });
  assert.equal(created.response.status, 201);
  const directorToken = ok(created).director_token?.token;
  assert.ok(directorToken);
  const director = as(directorToken);
  const table = { params: { path: { event, game: "t1" } } };

  const seated = await director.PUT("/events/{event}/games/{game}", { ...table, body: { players: ["Ann", "Bob"] } });
  assert.equal(seated.response.status, 201);
  const issued = ok(await director.POST("/events/{event}/tokens", { params: { path: { event } }, body: { role: "referee", table: "t1" } }));
  assert.equal(issued.table, "t1");
  const referee = as(issued.token);

  const round = { params: { path: { event, game: "t1", round: 1 } } };
  const play = { players: [{ name: "Ann", words: ["(qu)iz"] }, { name: "Bob", words: ["to"], unused: ["p"] }] };
  const stored = await referee.PUT("/events/{event}/games/{game}/rounds/{round}", { ...round, body: play });
  assert.equal(stored.response.status, 201);
  const again = await referee.PUT("/events/{event}/games/{game}/rounds/{round}", { ...round, body: play }); // a retry: the stored result
  assert.equal(again.response.status, 200);
  assert.equal(ok(again).revision, 1);

  const current = ok(await director.GET("/events/{event}/games/{game}/rounds/{round}", round));
  assert.equal(current.etag, ok(stored).etag);
  const fixed = {
    players: [
      { name: "Ann", words: ["(qu)iz"] },
      { name: "Bob", words: ["top"] },
    ],
    correction: { reason: "Bob laid TOP, not TO and P" },
  };
  const stale = await director.PUT("/events/{event}/games/{game}/rounds/{round}", {
    params: { ...round.params, header: { "If-Match": '"not-the-etag"' } },
    body: fixed,
  });
  assert.equal(stale.error?.status, 412);
  const corrected = ok(
    await director.PUT("/events/{event}/games/{game}/rounds/{round}", { params: { ...round.params, header: { "If-Match": current.etag } }, body: fixed }),
  );
  assert.equal(corrected.revision, 2);
  assert.deepEqual(
    corrected.result.players.map((p) => p.total),
    [35, 11],
  );

  const standings = ok(await api.GET("/events/{event}/standings", { params: { path: { event } } })); // a public event: no token
  assert.ok(typeof standings !== "string", "JSON: CSV only when asked for");
  assert.deepEqual(
    standings.standings.map((s) => [s.rank, s.player, s.table, s.rounds, s.total]),
    [
      [1, "Ann", "t1", 1, 35],
      [2, "Bob", "t1", 1, 11],
    ],
  );
  const audit = ok(await api.GET("/events/{event}/audit", { params: { path: { event } } }));
  assert.equal(audit.head?.seq, audit.entries.at(-1)?.seq);
  assert.deepEqual(
    audit.entries.filter((e) => e.action === "round.corrected").map((e) => e.payload["reason"]),
    ["Bob laid TOP, not TO and P"],
  );
});

test("errors come back as typed problems", async () => {
  const unknown = await api.GET("/validate", { params: { query: { word: "quiz", lang: "xx" } } });
  const notFound: Problem | undefined = unknown.error;
  assert.equal(notFound?.status, 404);
  const code: ProblemCode | undefined = notFound?.code;
  assert.equal(code, "unknown_language");
  // @ts-expect-error: a code the registry does not list is no ProblemCode (tsc fails if this line compiles)
  const notACode: ProblemCode = "no_such_code";
  assert.ok(notACode);
  assert.match(notFound?.detail ?? "", /en-US/); // the languages that exist

  const invalid = await api.POST("/score-round", {
    body: {
      round: 1,
      players: [
        { name: "Ann", words: ["(qu)iz"] },
        { name: "Ann", words: ["top"] },
      ],
    },
  });
  assert.equal(invalid.response.status, 422);
  assert.match(invalid.response.headers.get("Content-Type") ?? "", /^application\/problem\+json/);
  assert.equal(invalid.error?.code, "invalid_fields");
  assert.deepEqual(invalid.error?.errors, { "players.1.name": [{ code: "duplicate_name", message: "duplicate player name 'Ann' (also player 0)" }] });
  assert.equal(invalid.error?.request_id, invalid.response.headers.get("X-Request-ID"));

  const refused = await as("wsv_not-a-token").POST("/events", { body: { name: "no" } });
  assert.equal(refused.error?.status, 401);
  assert.equal(refused.error?.code, "token_invalid");
});

/**
 * A simple legal move from the seat's own projection, or undefined while another seat is to move. It never goes
 * out: it draws (takes the discard when the draw pile is empty and cannot be rebuilt from the discard pile), then
 * discards the first card of its hand; in a last turn after someone went out it lays down no word and discards;
 * when the draw pile ended the round (phase `lay`) it lays down nothing; in a challenge window it passes.
 */
function myMove(state: PlayState): PlayMove | undefined {
  const seat = state.viewer;
  const r = state.round;
  if (r === null || seat === null) {
    return undefined;
  }
  if (r.phase === "challenges") {
    return r.passed[seat] ? undefined : { kind: "pass" };
  }
  if (r.turn !== seat) {
    return undefined;
  }
  switch (r.phase) {
    case "lay":
      return { kind: "lay_down", words: [], discard: null };
    case "draw":
      return { kind: r.draw_pile > 0 || r.discard_pile > 1 ? "draw" : "take" }; // an empty draw pile is rebuilt but for the top discard
    case "discard": {
      const card = r.hand?.[0];
      assert.ok(card !== undefined, "a seat's projection shows its hand");
      return r.out === null ? { kind: "discard", card } : { kind: "lay_down", words: [], discard: card };
    }
  }
}

test("a hosted game against three of the server's bots, played to its end", { timeout: GAME_PATIENCE_MS + 60_000 }, async () => {
  assert.ok(ADMIN_TOKEN, "set WORDSVC_ADMIN_TOKEN: the table is created with an admin token of the server's ledger");
  const bots = [
    { seat: 1, level: 1 as const },
    { seat: 2, level: 2 as const },
    { seat: 3, level: 4 as const },
  ];
  const created = await as(ADMIN_TOKEN).POST("/tables", { body: { seats: 4, bots, name: "TypeScript client's game" } });
  assert.equal(created.response.status, 201);
  const table = ok(created);
  assert.equal(table.status, "waiting");
  assert.equal(table.commitment.length, 64);
  assert.deepEqual(
    table.seats.map((s) => s.kind),
    ["open", "bot", "bot", "bot"],
  );
  const director = as(table.director_token.token);
  const at = { params: { path: { event: table.event, game: table.game } } };

  const taken = ok(await director.POST("/events/{event}/games/{game}/play/seats", { ...at, body: { name: "Ann", nonce: "typescript-client" } }));
  assert.equal(taken.seat, 0);
  const ann = as(taken.token);
  const first = await ann.GET("/events/{event}/games/{game}/play", at);
  const dealt = ok(first).state;
  assert.ok(dealt !== null);
  assert.equal(first.response.headers.get("ETag"), `"${dealt.seq}"`);
  let state: PlayState = dealt;
  const stale = await ann.POST("/events/{event}/games/{game}/play/moves", {
    ...at,
    body: { seq: FUTURE_SEQ, move_id: "from-the-future", move: { kind: "draw" } }, // the bots may have moved since the read
  });
  assert.equal(stale.response.status, 409);
  assert.equal(stale.error?.code, "stale_move");

  let moves = 0;
  const deadline = Date.now() + GAME_PATIENCE_MS;
  while (!state.over) {
    assert.ok(Date.now() < deadline, `the game did not end in ${GAME_PATIENCE_MS} ms: ${JSON.stringify(state)}`);
    const move = myMove(state);
    if (move !== undefined) {
      const answer = await ann.POST("/events/{event}/games/{game}/play/moves", { ...at, body: { seq: state.seq, move_id: `ann-${state.seq}`, move } });
      if (answer.data !== undefined) {
        assert.equal(answer.data.seq, state.seq + 1);
        assert.equal(answer.data.repeat, false);
        state = answer.data.state;
        moves += 1;
        continue;
      }
      assert.equal(answer.error?.code, "stale_move", JSON.stringify(answer.error)); // a bot moved first: read again
    } else {
      await sleep(20); // a bot is thinking
    }
    const read = ok(await ann.GET("/events/{event}/games/{game}/play", at)).state;
    assert.ok(read !== null);
    state = read;
  }

  assert.ok(moves > 0);
  const final = ok(await director.GET("/events/{event}/games/{game}/play", at)); // the director is a spectator: no hand
  assert.equal(final.status, "over");
  assert.ok(final.state !== null && final.state.viewer === null && final.state.round === null);
  assert.equal(final.state.rounds.length, 8);
  const totals = final.state.totals;
  assert.deepEqual(
    totals.map((_, seat) => final.state?.rounds.reduce((sum, r) => sum + (r.totals[seat] ?? 0), 0)),
    totals,
  );
  assert.equal(typeof final.server_seed, "string");

  const log = ok(await director.GET("/events/{event}/games/{game}/play/log", at));
  assert.equal(log.log?.["server_seed"], final.server_seed); // revealed: anyone can replay the game
  assert.equal(log.moves.length, final.state.seq);
  const ledgerTable = ok(await director.GET("/events/{event}/games/{game}", at));
  assert.equal(ledgerTable.rounds.length, 8);
  assert.deepEqual(
    ledgerTable.totals.map((t) => t.total),
    totals,
  ); // stored as a referee's table, with the same totals
});
