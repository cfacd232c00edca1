// A small JavaScript client for wordsvc: Node 18+ (built-in fetch), no packages.
//
// As a library:
//   import { Wordsvc, ProblemError } from "./client.mjs";
//   const ws = new Wordsvc("http://127.0.0.1:8000");
//   const verdict = await ws.validate("quiz");             // GET /validate
//   const play = await ws.validateMany(["cloth", "mung"], { judge: true });
//   const round = await ws.scoreRound({ round: 1, players: [...] });
//   try { await ws.scoreRound({ players: [] }); } catch (e) { if (e instanceof ProblemError) console.log(e.problem.errors); }
//
// As a script: `node examples/client.mjs http://127.0.0.1:8000` runs a short
// session against a live server, checks every answer, and exits 1 if any
// answer is not what the rules say (so a test can run it).

import process from "node:process";
import { pathToFileURL } from "node:url";

/** A non-2xx answer. `problem` is the RFC 9457 body (type, title, status, detail, errors, request_id). */
export class ProblemError extends Error {
  constructor(problem, status) {
    super(`${status} ${problem.title ?? "error"}: ${problem.detail ?? ""}`.trim());
    this.name = "ProblemError";
    this.status = status;
    this.problem = problem;
  }
}

export class Wordsvc {
  /**
   * @param {string} baseUrl e.g. "http://127.0.0.1:8000"
   * @param {{timeoutMs?: number, locale?: string, fetch?: typeof fetch}} [options]
   */
  constructor(baseUrl, options = {}) {
    this.baseUrl = String(baseUrl).replace(/\/+$/, "");
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.locale = options.locale;
    this.fetch = options.fetch ?? globalThis.fetch;
    if (typeof this.fetch !== "function") throw new Error("no fetch: use Node 18 or later");
  }

  /** The verdict on one word: plain letters ("quiz") or compact cards ("(qu)iz"). opts: ruleset, lang, locale. */
  validate(word, opts = {}) {
    return this.#request("GET", "/validate", { query: { word, ruleset: opts.ruleset, lang: opts.lang, locale: opts.locale } });
  }

  /** Verdicts for up to 100 words in order, or with opts.judge only {acceptable, count, ruleset, lexicon}. */
  validateMany(words, opts = {}) {
    const body = { words };
    if (opts.ruleset !== undefined) body.ruleset = opts.ruleset;
    if (opts.lang !== undefined) body.lang = opts.lang;
    if (opts.judge !== undefined) body.judge = opts.judge;
    return this.#request("POST", "/validate", { body });
  }

  /** Score one round: {ruleset?, lang?, round?, players: [{name, words, unused?, went_out?}], challenges?, bonus_choice?}. */
  scoreRound(round) {
    return this.#request("POST", "/score-round", { body: round });
  }

  /** Score a game: {ruleset?, lang?, players: [names], rounds: [rounds without ruleset]}. */
  scoreGame(game) {
    return this.#request("POST", "/score-game", { body: game });
  }

  /** Every loaded lexicon with its version, sha256, source and licence. */
  async languages() {
    return (await this.#request("GET", "/languages")).languages;
  }

  /** Every ruleset's summary; with an id, the fully resolved ruleset. */
  async rulesets(id) {
    if (id !== undefined) return this.#request("GET", `/rulesets/${encodeURIComponent(id)}`);
    return (await this.#request("GET", "/rulesets")).rulesets;
  }

  async #request(method, path, { query, body } = {}) {
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    }
    const headers = { Accept: "application/json, application/problem+json" };
    if (this.locale) headers["Accept-Language"] = this.locale;
    const init = { method, headers, signal: AbortSignal.timeout(this.timeoutMs) };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await this.fetch(url, init);
    const text = await response.text();
    let data;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = undefined;
    }
    if (!response.ok) {
      const problem =
        data && typeof data === "object"
          ? data
          : { type: "about:blank", title: response.statusText, status: response.status, detail: text.slice(0, 200), errors: {}, request_id: response.headers.get("x-request-id") ?? "" };
      throw new ProblemError(problem, response.status);
    }
    if (data === undefined) throw new Error(`${method} ${path}: ${response.status} but the body is not JSON: ${text.slice(0, 200)}`);
    return data;
  }
}

// ---- the scripted session

async function main(argv) {
  const baseUrl = argv[0];
  if (!baseUrl) {
    console.error("usage: node client.mjs BASE_URL   (e.g. http://127.0.0.1:8000)");
    return 2;
  }
  const ws = new Wordsvc(baseUrl);
  const failures = [];
  const check = (ok, what, got) => {
    if (ok) console.log(`ok   ${what}`);
    else {
      console.log(`FAIL ${what}: got ${JSON.stringify(got)}`);
      failures.push(what);
    }
  };

  const langs = await ws.languages();
  check(langs.some((l) => l.id === "en-US"), "languages: en-US is loaded", langs.map((l) => l.id));

  const quiz = await ws.validate("quiz");
  const best = Object.fromEntries(quiz.spellings.map((s) => [s.cards.join("-"), s.points]));
  check(quiz.valid === true && best["QU-I-Z"] === 25 && best["Q-U-I-Z"] === 35, "validate quiz: valid, QU-I-Z 25, Q-U-I-Z 35", quiz);

  const nfd = "cafe\u0301";
  const cafe = await ws.validate(nfd);
  check(cafe.valid === true && cafe.word === nfd && cafe.normalized === "caf\u00e9", "validate NFD café: valid, echoed as sent, judged as NFC", cafe);

  const judged = await ws.validateMany(["cloth", "xqzt", "piny"], { judge: true });
  check(
    judged.acceptable === false && judged.count === 3 && !("verdicts" in judged) && !JSON.stringify(judged).includes("xqzt"),
    "judge cloth/xqzt/piny: not acceptable, no word named",
    judged,
  );

  const round = await ws.scoreRound({
    round: 8,
    players: [
      { name: "ann", words: [["CL", "O", "TH"], ["M", "U", "N", "G"], ["P", "IN", "Y"]], went_out: true },
      { name: "bob", words: ["(qu)iz", "top"], unused: ["A", "E", "I", "D"] },
    ],
  });
  const totals = Object.fromEntries(round.players.map((p) => [p.name, p.total]));
  // ann: 58 for the go-out + 10 longest (CLOTH, 5 letters) + 10 most words (3); bob: 25 + 11 - 11 = 25
  check(totals.ann === 78 && totals.bob === 25, "score round 8: ann 78, bob 25", totals);

  try {
    await ws.scoreRound({ round: "eight", players: [{ name: "ann", words: [["T", "O", "P"]] }, { name: "bob", words: [5] }] });
    check(false, "bad round: 422", "no error");
  } catch (err) {
    if (!(err instanceof ProblemError)) throw err;
    const paths = Object.keys(err.problem.errors).sort();
    console.log(`422 errors: ${JSON.stringify(err.problem.errors)}`);
    check(err.status === 422 && paths.join(",") === "players.1.words.0,round", "bad round: 422 naming round and players.1.words.0", err.problem);
  }

  try {
    await ws.validate("quiz", { lang: "tlh" });
    check(false, "unknown language: 404", "no error");
  } catch (err) {
    if (!(err instanceof ProblemError)) throw err;
    check(err.status === 404 && err.problem.detail.includes("en-US"), "unknown language: 404 listing what exists", err.problem);
  }

  if (failures.length) {
    console.log(`${failures.length} check(s) failed`);
    return 1;
  }
  console.log("all checks passed");
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      console.error(`error: ${err instanceof ProblemError ? JSON.stringify(err.problem) : err.stack ?? err}`);
      process.exit(1);
    },
  );
}
