// Verifiable deals of a hosted game (docs/play.md, "Verifiable deals" and "The game log"), from the spec alone:
// Node's built-in crypto and the q1 deal of ./deal.mjs, no packages.
//
// A table publishes commitment(serverSeed) when it is created; each seat may give a nonce; the game is dealt from
// gameSeed(serverSeed, nonces). Once the game is over its log reveals the server seed and the nonces, and this checks
// the commitment, derives the seed and deals every round by q1, comparing each deal with the log's deal digest.
// Replaying the moves is the engine's work (`wordsvc verify-game LOG.json`); this checks that nobody chose the cards.
//
// As a library:
//   import { commitment, gameSeed, verifyLog } from "./verify-seed.mjs";
//   const ruleset = await (await fetch(`${base}/rulesets/${log.ruleset}`)).json();
//   const report = verifyLog(log, { cards: ruleset.deck.cards, handSizes: ruleset.rounds });
//   // report = {ok, problem, seed, rounds: [{number, dealer, hands, faceUp, digest}]}, faces in lower case
//
// As a script (Node 18+, built-in fetch):
//   node examples/verify-seed.mjs LOG.json BASE_URL
// fetches GET BASE_URL/rulesets/<the log's ruleset>, prints the report as one JSON line, exits 1 if it found a mismatch.
//
// Kept apart from deal.mjs, which is the twin of docs/deals.md alone: the game seed is docs/play.md's, a layer above.

import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import process from "node:process";
import { pathToFileURL } from "node:url";

import { deal } from "./deal.mjs";

export const FORMAT = "wordsvc-game-log-1";
const NONCE = /^[A-Za-z0-9_-]{0,64}$/;
const sha256hex = (...parts) => createHash("sha256").update(Buffer.concat(parts)).digest("hex");
const domain = (name) => Buffer.concat([Buffer.from(name, "ascii"), Buffer.from([0x00])]);
const u32 = (n) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** 32 server-seed bytes from 64 lowercase hex digits. */
function seedBytes(seedHex) {
  if (typeof seedHex !== "string" || !/^[0-9a-f]{64}$/.test(seedHex)) throw new Error(`a server seed is 64 lowercase hex digits, not ${JSON.stringify(seedHex)}`);
  return Buffer.from(seedHex, "hex");
}

/** A seat's nonce: up to 64 characters of A-Z a-z 0-9 _ -; null or undefined (no nonce) is "". */
export function checkNonce(text) {
  const nonce = text ?? "";
  if (typeof nonce !== "string" || !NONCE.test(nonce)) throw new Error(`a nonce is up to 64 characters of A-Z, a-z, 0-9, _ and -, not ${JSON.stringify(text)}`);
  return nonce;
}

/** SHA-256("wordsvc-commit-p1" || 0x00 || server seed), hex: what a table publishes when it is created. */
export function commitment(serverSeedHex) {
  return sha256hex(domain("wordsvc-commit-p1"), seedBytes(serverSeedHex));
}

/** SHA-256("wordsvc-game-seed-p1" || 0x00 || server seed || P || (len(nonce) || nonce) for each seat in order), hex; P and lengths 4 bytes big-endian. */
export function gameSeed(serverSeedHex, nonces) {
  if (!Array.isArray(nonces)) throw new Error("the nonces are a list, one a seat");
  const parts = [domain("wordsvc-game-seed-p1"), seedBytes(serverSeedHex), u32(nonces.length)];
  for (const nonce of nonces) {
    const bytes = Buffer.from(checkNonce(nonce), "ascii");
    parts.push(u32(bytes.length), bytes);
  }
  return sha256hex(...parts);
}

/**
 * Check a revealed game log: its format, the commitment, the seed's derivation and each round's deal digest.
 * `ruleset` is {cards: deck.cards, handSizes: rounds} as GET /rulesets/{id} gives them.
 * The report names the first mismatch (`problem`, null when none) and lists the rounds as dealt.
 */
export function verifyLog(log, { cards, handSizes }) {
  const rounds = [];
  const fail = (problem) => ({ ok: false, problem, seed: log?.seed ?? null, rounds });
  if (log === null || typeof log !== "object") return fail("a game log is a JSON object");
  if (log.format !== FORMAT) return fail(`format: ${JSON.stringify(log.format)} is not ${FORMAT}`);
  let committed;
  try {
    committed = commitment(log.server_seed);
  } catch (err) {
    return fail(`server_seed: ${err.message}`);
  }
  if (committed !== log.commitment) return fail(`commitment: the server seed's commitment is ${committed}, the table published ${log.commitment}`);
  let seed;
  try {
    seed = gameSeed(log.server_seed, log.nonces);
  } catch (err) {
    return fail(`nonces: ${err.message}`);
  }
  if (seed !== log.seed) return fail(`seed: the server seed and nonces give ${seed}, the game was dealt from ${log.seed}`);
  if (!Array.isArray(log.players) || log.players.length !== log.nonces.length) return fail(`nonces: ${log.nonces.length} nonce(s) for ${log.players?.length} seat(s)`);
  if (!Array.isArray(log.rounds)) return fail("rounds: missing");
  for (const claimed of log.rounds) {
    const d = deal({ cards, handSizes, players: log.players.length, round: claimed.number, seed });
    rounds.push({ number: claimed.number, dealer: d.dealer, hands: d.hands, faceUp: d.faceUp, digest: d.digest });
    if (d.digest !== claimed.deal_digest) return fail(`round ${claimed.number}: the log's deal digest ${claimed.deal_digest} is not the q1 deal's ${d.digest}`);
  }
  return { ok: true, problem: null, seed, rounds };
}

async function main(argv) {
  if (argv.length !== 2) {
    process.stderr.write("usage: node examples/verify-seed.mjs LOG.json BASE_URL\n");
    return 2;
  }
  const [path, baseUrl] = argv;
  const log = JSON.parse(await readFile(path, "utf8"));
  const url = `${baseUrl.replace(/\/+$/, "")}/rulesets/${encodeURIComponent(log.ruleset)}`;
  const response = await fetch(url);
  if (!response.ok) {
    process.stderr.write(`GET ${url} answered ${response.status}: ${await response.text()}\n`);
    return 2;
  }
  const rules = await response.json();
  const report = verifyLog(log, { cards: rules.deck.cards, handSizes: rules.rounds });
  process.stdout.write(`${JSON.stringify(report)}\n`);
  return report.ok ? 0 : 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    },
  );
}
