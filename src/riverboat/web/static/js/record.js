// A round's record read for people (docs/round-record.md): its cards as codes, each
// hand's cards, what every line won or lost, and the steps a replay walks. Pure
// functions of the record and the game's spec from /api/games.
import { money } from "./state.js";

/** @typedef {import("./state.js").GameInfo} GameInfo */
/** @typedef {import("./state.js").Wagers} Wagers */
/** @typedef {import("../../typing/api").SchemaRoundRecord} SchemaRoundRecord */
/** @typedef {import("../../typing/api").SchemaExportedRound} SchemaExportedRound */

// The events of a record (docs/round-record.md). The API's schema gives them only as
// objects (the engine's events are open mappings), so their shapes are written here.
/** @typedef {{ kind: "wagers", seat: string, blind: boolean, wagers: Wagers }} WagersEvent a position opened */
/** @typedef {{ kind: "deal", cards: Record<string, number[]> }} DealEvent each hand's card indices */
/** @typedef {{ kind: "decision", seat: string, blind: boolean, action: string, amount: number }} DecisionEvent */
/** @typedef {{ kind: "draw", hand: string, cards: number[] }} DrawEvent cards a decision dealt */
/** @typedef {{ seat: string, blind: boolean, [line: string]: string | boolean | number }} PositionResult a position's net cents by line */
/** @typedef {{ kind: "settle", results: PositionResult[] }} SettleEvent */
/** @typedef {{ kind: "void", reason: string }} VoidEvent */
/** @typedef {WagersEvent | DealEvent | DecisionEvent | DrawEvent | SettleEvent | VoidEvent} RoundEvent */
/** A round's record with its events' shapes. @typedef {Omit<SchemaRoundRecord, "events"> & { events: RoundEvent[] }} RoundRecord */
/** A round of /api/history. @typedef {Omit<SchemaExportedRound, "record"> & { record: RoundRecord | null }} PastRound */
/** Each hand's cards as codes like "Th", by hand key. @typedef {Record<string, string[]>} Hands */
/** A line of a position's settlement. @typedef {{ line: string, label: string, net: number }} LineResult */
/** A position's settlement. @typedef {{ seat: string, blind: boolean, lines: LineResult[], net: number }} Position */
/** What a replay step says. @typedef {{ title: string, detail: string }} StepText */
/**
 * A step of a replay: the event's kind and words, the hands as they then lay (the
 * `faceDown` ones shown as backs), the money in play, the balance change so far, whether
 * the round is over, and the event's place among the steps.
 * @typedef {StepText & { kind: RoundEvent["kind"], hands: Hands, faceDown: string[], staked: number, change: number, over: boolean, at: number }} Step
 */

const RANKS = "23456789TJQKA", SUITS = "cdhs";

// a card index (4 * rank + suit, a shoe's the same) as a code like "Th"
/** @param {number} index */
export const cardCode = (index) => RANKS[Math.floor((index % 52) / 4)] + SUITS[index % 4];

// the lines a decision stakes money on, as the game's spec says: its wager's and its
// fee's (a line it only opens, one settlement pays with no stake, shows when it pays); a blind
// position's 1x Play (C8, the engine's "blind") goes on the game's first decision line
/** @param {GameInfo} game @param {string} action @returns {string[]} */
function placedBy(game, action) {
  const option = action === "blind" ? game.options.find((o) => o.line) : game.options.find((o) => o.action === action);
  return option ? [option.line, option.fee_line].filter((line) => !!line).map(String) : [];
}

/** A line's label, as the game names its result lines. @param {GameInfo} game @param {string} line */
export function lineLabel(game, line) {
  return (game.line_labels || {})[line] || line.replaceAll("_", " ");
}


// "+$5", "−$5" or "push"
/** @param {number} cents */
export const signed = (cents) => (cents > 0 ? `+${money(cents)}` : cents < 0 ? `−${money(-cents)}` : "push");
/** @param {number} cents @returns {"win" | "loss" | "push"} */
export const outcome = (cents) => (cents > 0 ? "win" : cents < 0 ? "loss" : "push");

// a hand's title from the spec; a shared table's seat by its name, a blind position so called
/** @param {GameInfo} game @param {string} key */
export function handTitle(game, key) {
  const hand = game.hands.find((h) => h.name === key);
  if (hand) return hand.title;
  const [seat, blind] = key.split(":");
  return blind ? `${seat}'s blind hand` : seat;
}

// every hand's cards once the given events have happened: {hand key: [codes]}
/** @param {readonly RoundEvent[]} events @returns {Hands} */
export function handsAfter(events) {
  /** @type {Hands} */
  const hands = {};
  for (const event of events) {
    if (event.kind === "deal") for (const [key, cards] of Object.entries(event.cards)) hands[key] = cards.map(cardCode);
    if (event.kind === "draw") hands[event.hand] = [...(hands[event.hand] || []), ...event.cards.map(cardCode)];
  }
  return hands;
}

/** @param {{ seat: string, blind: boolean }} a @param {{ seat: string, blind: boolean }} b */
const samePosition = (a, b) => a.seat === b.seat && a.blind === b.blind;

// each position's lines in play and what they came to: [{seat, blind, lines: [{line, label, net}], net}]
/** @param {GameInfo} game @param {readonly RoundEvent[]} events @returns {Position[]} */
export function settlement(game, events) {
  const settle = events.find((e) => e.kind === "settle");
  if (!settle) return [];
  return settle.results.map((result) => {
    const { seat, blind, ...nets } = result;
    const staked = new Set();
    for (const event of events) {
      if (event.kind === "wagers" && samePosition(event, result)) for (const [line, cents] of Object.entries(event.wagers)) if (cents) staked.add(line);
      if (event.kind === "decision" && samePosition(event, result) && event.amount) for (const line of placedBy(game, event.action)) staked.add(line);
    }
    const lines = /** @type {[string, number][]} */ (Object.entries(nets)).filter(([line, net]) => staked.has(line) || net)
      .map(([line, net]) => ({ line, label: lineLabel(game, line), net }));
    return { seat, blind, lines, net: lines.reduce((sum, l) => sum + l.net, 0) };
  });
}

// a coup's totals and winner (Baccarat), "Player 8, Banker 3: Player wins"; "" for other rounds
/** @param {GameInfo} game @param {{ totals: number[] | null, winner: string | null }} round */
export function coupInWords(game, round) {
  if (!round.totals || !round.winner) return "";
  const [first, second] = game.hands, [a, b] = round.totals;
  return `${first.title} ${a}, ${second.title} ${b}: ${round.winner === "Tie" ? "a tie" : `${round.winner} wins`}`;
}

// "Ante +$5, Pair Plus −$5"
/** @param {readonly LineResult[]} lines */
export const linesInWords = (lines) => lines.map((l) => `${l.label} ${signed(l.net)}`).join(", ");

/** @param {GameInfo} game @param {Wagers} wagers */
const wagersInWords = (game, wagers) => Object.entries(wagers).filter(([, cents]) => cents)
  .map(([line, cents]) => `${lineLabel(game, line)} ${money(cents)}`).join(", ");

/** @param {GameInfo} game @param {DecisionEvent} event */
function decisionInWords(game, event) {
  const option = game.options.find((o) => o.action === event.action);
  const label = event.action === "blind" ? "The blind hand plays" : option ? option.label : event.action;
  const who = event.seat === "player" ? "" : ` (${event.blind ? `${event.seat}'s blind hand` : event.seat})`;
  return `${label}${who}${event.amount ? `: ${money(event.amount)} more in play` : ""}`;
}

// a position opening, the deal, a decision (the engine's own "auto" puts nothing in
// play and is no step), a card drawn after it, the settlement or a void
/**
 * @type {{ [K in RoundEvent["kind"]]: (game: GameInfo, e: Extract<RoundEvent, { kind: K }>, events: RoundEvent[]) => StepText }}
 */
const STEP = {
  wagers: (game, e) => ({ title: "Wagers placed", detail: wagersInWords(game, e.wagers) || "No wager" }),
  deal: (game, e) => ({ title: "The deal", detail: Object.keys(e.cards).map((k) => handTitle(game, k)).join(", ") }),
  decision: (game, e) => ({ title: "Decision", detail: decisionInWords(game, e) }),
  draw: (game, e) => ({ title: `${handTitle(game, e.hand)} dealt`, detail: `${e.cards.length} card${e.cards.length > 1 ? "s" : ""} after the decision` }),
  settle: (game, e, events) => ({ title: "Settlement", detail: settlement(game, events).map((p) => linesInWords(p.lines)).join("; ") }),
  void: (game, e) => ({ title: "Void", detail: `Every wager returned: ${e.reason}` }),
};

// The steps of a replay, each with the hands as they then lay (the house's face down
// while a decision is still to come), the money in play and the balance change so far.
/** @param {GameInfo} game @param {RoundRecord} record @returns {Step[]} */
export function replaySteps(game, record) {
  const events = record.events.filter((e) => STEP[e.kind] && !(e.kind === "decision" && e.action === "auto"));
  const decides = events.some((e) => e.kind === "decision");
  /** @type {Step[]} */
  const steps = [];
  let staked = 0;
  events.forEach((event, i) => {
    const sofar = record.events.slice(0, record.events.indexOf(event) + 1);
    if (event.kind === "wagers") staked += Object.values(event.wagers).reduce((a, b) => a + b, 0);
    if (event.kind === "decision") staked += event.amount;
    const over = event.kind === "settle" || event.kind === "void";
    const change = event.kind === "settle" ? settlement(game, sofar).reduce((sum, p) => sum + p.net, 0) : over ? 0 : -staked;
    const house = game.hands.filter((h) => h.house).map((h) => h.name);
    const words = /** @type {(game: GameInfo, e: RoundEvent, events: RoundEvent[]) => StepText} */ (STEP[event.kind]);
    steps.push({ kind: event.kind, ...words(game, event, sofar), hands: handsAfter(sofar),
      faceDown: decides && !over ? house : [], staked: over ? 0 : staked, change, over, at: i });
  });
  return steps;
}
