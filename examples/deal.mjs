// Deals of spec q1 (docs/deals.md), from the spec alone: Node's built-in crypto, no packages.
//
// As a library:
//   import { canonicalDeck, fingerprint, deal, tableSeed, commitment } from "./deal.mjs";
//   const ruleset = await (await fetch("http://127.0.0.1:8000/rulesets/standard")).json();
//   const d = deal({ cards: ruleset.deck.cards, handSizes: ruleset.rounds, players: 4, round: 2, seed: "00".repeat(32) });
//   // d = {dealId, dealer, hands: [[...seat 0], [...seat 1], ...], faceUp, drawPile, digest}, faces in lower case
//   tableSeed(eventSeedHex, "t1");   // a table's seed (section 8); tableSeed(eventSeedHex, null) in a duplicate event
//   commitment(eventSeedHex);        // what an event publishes before it reveals its seed
//
// As a script (Node 18+, built-in fetch):
//   node examples/deal.mjs BASE_URL RULESET PLAYERS ROUND SEED
// fetches GET BASE_URL/rulesets/RULESET and prints the deal as one JSON line;
// `GET BASE_URL/deal?ruleset=RULESET&players=PLAYERS&round=ROUND&seed=SEED`
// gives the same cards (in upper case).

import { createHash } from "node:crypto";
import process from "node:process";
import { pathToFileURL } from "node:url";

export const SPEC = "q1";
const utf8 = (text) => Buffer.from(text, "utf8");
const sha256 = (...parts) => createHash("sha256").update(Buffer.concat(parts)).digest();

/** 32 seed bytes from 64 hex digits (section 2); upper-case digits are accepted, the spec writes lower case. */
function seedBytes(seedHex) {
  if (typeof seedHex !== "string" || !/^[0-9a-fA-F]{64}$/.test(seedHex)) throw new Error(`a seed is 64 hex digits, not ${JSON.stringify(seedHex)}`);
  return Buffer.from(seedHex, "hex");
}

/** Section 1: faces in lower case (NFC), sorted by their UTF-8 bytes, each listed `count` times. */
export function canonicalDeck(cards) {
  const faces = cards.map(({ face, count }) => ({ face: String(face).toLowerCase().normalize("NFC"), count }));
  faces.sort((x, y) => Buffer.compare(utf8(x.face), utf8(y.face)));
  return faces.flatMap(({ face, count }) => Array(count).fill(face));
}

/** Section 1: lowercase hex SHA-256 of the canonical faces joined by commas. */
export function fingerprint(canonicalCards) {
  return sha256(utf8(canonicalCards.join(","))).toString("hex");
}

/** Section 3: the round's stream, as a function giving its next unsigned big-endian 32-bit integer. */
export function stream(seedHex, round) {
  if (!Number.isInteger(round) || round < 0 || round > 0xffffffff) throw new Error(`round ${round} does not fit 4 bytes`);
  const prefix = Buffer.concat([utf8("wordsvc-deal-q1"), Buffer.from([0x00]), seedBytes(seedHex), Buffer.alloc(4)]);
  prefix.writeUInt32BE(round, prefix.length - 4);
  let k = 0n;
  let block = Buffer.alloc(0);
  let at = 0;
  return () => {
    if (at === block.length) {
      const counter = Buffer.alloc(8);
      counter.writeBigUInt64BE(k++);
      block = sha256(prefix, counter); // Bk
      at = 0;
    }
    const x = block.readUInt32BE(at);
    at += 4;
    return x;
  };
}

/** The first `count` integers of a round's stream (what tests/deal_vectors.json lists as stream.first_uint32). */
export function firstUint32(seedHex, round, count) {
  const next = stream(seedHex, round);
  return Array.from({ length: count }, next);
}

/** Section 4: a uniform integer in 0 .. n-1, by rejection. */
function below(next, n) {
  const limit = 2 ** 32 - (2 ** 32 % n);
  for (;;) {
    const x = next();
    if (x < limit) return x % n;
  }
}

/** Section 5: Fisher-Yates from the canonical order, a new array. */
export function shuffle(canonicalCards, seedHex, round) {
  const a = [...canonicalCards];
  const next = stream(seedHex, round);
  for (let i = a.length - 1; i >= 1; i--) {
    const j = below(next, i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

/** Section 8: hex SHA-256 of the canonical JSON (keys sorted, no spaces, UTF-8) of the round's cards. */
export function digest({ hands, faceUp, drawPile }) {
  // The keys are written in sorted order; JSON.stringify adds no spaces and leaves non-ASCII characters unescaped.
  const json = JSON.stringify({ draw_pile: drawPile, face_up: faceUp, hands });
  return sha256(utf8(json)).toString("hex");
}

/**
 * Sections 1 to 7: the deal of round `round` (1 for the first) to `players` seats.
 * `cards` is a ruleset's deck.cards ([{face, count}], any case), `handSizes` its `rounds`.
 * `hands[s]` is seat s's hand, in the order dealt; faces are in lower case.
 */
export function deal({ cards, handSizes, players, round, seed }) {
  const deck = canonicalDeck(cards);
  const n = deck.length;
  if (!Number.isInteger(players) || players < 1) throw new Error(`players must be a positive integer, not ${players}`);
  if (!Number.isInteger(round) || round < 1 || round > handSizes.length) throw new Error(`round must be 1 .. ${handSizes.length}, not ${round}`);
  const h = handSizes[round - 1];
  if (h * players + 1 > n) throw new Error(`no deal: ${players} hands of ${h} and a face-up card need ${h * players + 1} cards, the deck has ${n}`);
  const shuffled = shuffle(deck, seed, round);
  // Section 6: the deal passes to the left each round; the first card goes to the dealer's left.
  const dealer = (round - 1) % players;
  const hands = Array.from({ length: players }, () => []);
  for (let c = 0; c < h * players; c++) hands[(dealer + 1 + c) % players].push(shuffled[c]);
  const faceUp = shuffled[h * players];
  const drawPile = shuffled.slice(h * players + 1);
  // Section 7.
  const dealId = `${SPEC}.${fingerprint(deck)}.${players}.${h}.${round}.${seed.toLowerCase()}`;
  return { dealId, dealer, hands, faceUp, drawPile, digest: digest({ hands, faceUp, drawPile }) };
}

/** Section 8: a table's seed (hex); `tableIdOrNull` null (or undefined) for a duplicate event, whose tables all use "*". */
export function tableSeed(eventSeedHex, tableIdOrNull) {
  const table = tableIdOrNull ?? "*";
  return sha256(utf8("wordsvc-table-q1"), Buffer.from([0x00]), seedBytes(eventSeedHex), utf8(String(table))).toString("hex");
}

/** Section 8: the commitment an event publishes, the hex SHA-256 of the 32 event-seed bytes. */
export function commitment(eventSeedHex) {
  return sha256(seedBytes(eventSeedHex)).toString("hex");
}

async function main(argv) {
  if (argv.length !== 5) {
    process.stderr.write("usage: node examples/deal.mjs BASE_URL RULESET PLAYERS ROUND SEED\n");
    return 2;
  }
  const [baseUrl, ruleset, players, round, seed] = argv;
  const url = `${baseUrl.replace(/\/+$/, "")}/rulesets/${encodeURIComponent(ruleset)}`;
  const response = await fetch(url);
  if (!response.ok) {
    process.stderr.write(`GET ${url} answered ${response.status}: ${await response.text()}\n`);
    return 1;
  }
  const rules = await response.json();
  const result = deal({ cards: rules.deck.cards, handSizes: rules.rounds, players: Number(players), round: Number(round), seed });
  process.stdout.write(`${JSON.stringify(result)}\n`);
  return 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err) => {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    },
  );
}
