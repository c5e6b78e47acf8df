// Checking a finished round in the browser, independently of the server: the seed
// against its commitment, then the deck or shoe the seeds give against the cards dealt
// (docs/fairness.md).
import { api } from "./api.js";
import { gameOf, layout } from "./state.js";

/** @typedef {import("./state.js").GameInfo} GameInfo */
/** @typedef {import("./record.js").PastRound} PastRound */
/** @typedef {import("./record.js").RoundRecord} RoundRecord */
/** A round of /api/history with its seed revealed and its record. @typedef {PastRound & { server_seed: string, record: RoundRecord }} RevealedRound */

// Check a finished round in the browser, independently of the server: SHA-256 of the
// seed against the commitment, then the deck from HMAC-SHA256(seed, "client:nonce:i")
// words, rejection sampling and Fisher-Yates (docs/fairness.md).
/** @param {RevealedRound} round @returns {Promise<string>} what the check found, in words */
export async function verifyRound(round) {
  /** @param {string} h */
  const hex = (h) => Uint8Array.from((h.match(/../g) || []).map((b) => parseInt(b, 16)));
  const seed = hex(round.server_seed);
  if (await sha256Hex(seed) !== round.commitment) return "the seed does not match the commitment";
  if (round.seeds && await joinedSeed(round.seeds) !== round.client_seed) {
    return "the client seed is not the SHA-256 of the seated players' seeds";
  }
  const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  let block = 0;
  /** @type {number[]} */
  const words = [];
  const word = async () => {
    if (!words.length) {
      const bytes = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${round.client_seed}:${round.nonce}:${block++}`)));
      for (let i = 0; i < 32; i += 4) words.push(((bytes[i] << 24) >>> 0) + (bytes[i + 1] << 16) + (bytes[i + 2] << 8) + bytes[i + 3]);
    }
    return /** @type {number} */ (words.shift());  // eight words were just added when there were none
  };
  const game = gameOf(round.game);
  if (!game) throw new Error(`no game ${round.game} among the server's`);
  const shoe = game.shoe;  // a shoe that lives across rounds (B1), or a fresh deck
  const rules = /** @type {{ decks?: number, cut_card_from_end?: number }} */ (round.record.rules);
  const size = 52 * (rules.decks || 1);
  const order = Array.from({ length: size }, (_, i) => i);
  for (let i = size - 1; i > 0; i--) {
    const bound = i + 1, limit = 2 ** 32 - (2 ** 32 % bound);
    let x = await word();
    while (x >= limit) x = await word();
    const j = x % bound;
    [order[i], order[j]] = [order[j], order[i]];
  }
  // a round of its own deals from the top, after a fresh shoe's burn (B1: the shown
  // card, then its value in cards); a shared table's round from the places it shows
  const rank = Math.floor((order[0] % 52) / 4), burn = rank === 12 ? 1 : Math.min(rank + 2, 10);
  const first = shoe ? 1 + burn : 0, drawn = round.record.cards_drawn;
  const coup = !!shoe;  // a run of its shoe, wherever the shoe stands
  // (no places at a shared table or in a shoe: the layout check says they are missing)
  const places = round.shared || coup ? round.places || [] : drawn.map((_, i) => first + i);
  if (round.shared || coup) {
    const problem = sharedLayoutProblem(game, places, size, first);
    if (problem) return problem;
  }
  const same = drawn.every((card, i) => places[i] < size && order[places[i]] % 52 === card);
  if (!same) return "the cards are not the ones the seeds give";
  let where = round.shared ? ` at places ${places.join(", ")} of the table's ${size > 52 ? "shoe" : "deck"}` : "";
  if (coup && !round.shared) {  // a shoe of one's own: its coups must run end to end (B1)
    const shoe = /** @type {PastRound[]} */ (await api(`/api/history?limit=200&commitment=${round.commitment}`)).sort((a, b) => a.id - b.id);
    let next = first;
    for (const c of shoe) {
      if (!c.places || c.places[0] !== next) return `coup #${c.id} of this shoe starts at place ${c.places ? c.places[0] : "?"}, not ${next}`;
      next = /** @type {number} */ (c.places.at(-1)) + 1;  // c.places[0] is there
    }
    const to = size - next > /** @type {number} */ (rules.cut_card_from_end) ? "to where it was ended" : "to the cut card";
    where = `, and the shoe's ${shoe.length} coups run end to end from the burn ${to}`;
  }
  return `verified in your browser: the seed matches its commitment and the cards come from the seeds${where}`;
}

// the longest client seed a deal keeps as it is (riverboat.rng.CLIENT_SEED_KEPT)
const CLIENT_SEED_KEPT = 128;

// A shared deal's client seed from its seated players' seeds joined by "|": the joined
// seeds themselves, or their SHA-256 in hex where they are longer than a deal keeps
// (docs/fairness.md; riverboat.rng.joined_seed). Lengths count characters, as Python's.
/** @param {string} seeds @returns {Promise<string>} */
async function joinedSeed(seeds) {
  if ([...seeds].length <= CLIENT_SEED_KEPT) return seeds;
  return sha256Hex(new TextEncoder().encode(seeds));
}

/** SHA-256 in hex. @param {Uint8Array<ArrayBuffer>} bytes @returns {Promise<string>} */
async function sha256Hex(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

// A shared round's places as the table lays them out (docs/fairness.md): from a shoe,
// a coup's run on after the shoe's burn; from a deck, a seat's hands are whole blocks
// of a hand's cards (Crazy 4: five) in a row, then the house's block after them.
/**
 * @param {GameInfo} game
 * @param {number[]} places each card's place in the deck or shoe
 * @param {number} size the deck's or shoe's cards
 * @param {number} afterBurn a fresh shoe's first place after its burn
 * @returns {string | null} what is wrong, or null
 */
function sharedLayoutProblem(game, places, size, afterBurn) {
  /** @param {number} start @param {number} n */
  const run = (start, n) => Array.from({ length: n }, (_, i) => start + i);
  /** @param {number[]} a @param {number[]} b */
  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  if (!places || !places.length || new Set(places).size !== places.length || places.some((p) => p < 0 || p >= size)) {
    return "the places are missing, repeated or outside the deal";
  }
  if (game.shoe) {
    return places[0] >= afterBurn && same(places, run(places[0], places.length)) ? null : "a coup's places must run on, unbroken, after the shoe's burn";
  }
  const block = layout(game).mine.cards, house = layout(game).other.cards;
  const mine = places.slice(0, -house), dealer = places.slice(-house);
  const ok = places.length % block === 0 && mine.length && places[0] % block === 0 && same(mine, run(places[0], mine.length)) &&
    dealer[0] % block === 0 && same(dealer, run(dealer[0], house)) && dealer[0] > mine[mine.length - 1];
  return ok ? null : `a seat's places must be whole blocks of ${block} in a row, then the dealer's after`;
}
