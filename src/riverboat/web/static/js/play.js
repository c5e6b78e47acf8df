// A round at a table of one's own: placing chips (at once on the felt, then as the
// server answers), the bet tools (Undo, Clear, Double), dealing (or Quick Replay) and
// decisions. At a shared table a deal is a bet and a decision a message to the table.
import { api } from "./api.js";
import { info, money, onTheFelt, say, state, tableKey } from "./state.js";
import {
  busyChanged, chipsInFlight, commitmentShown, committingChanged, hintShown, resultPassed, roundShown, wagersDealt, wagersPlaced, wagersUndone,
} from "./actions.js";
import { clientSeed, showCommitment } from "./fairness.js";
import { finished, offerRefill, refreshBalance } from "./bank.js";
import { bet, blindWagers, send } from "./shared.js";
import { cue } from "./sound.js";
import { ROUND } from "./states.js";

/** @typedef {import("./state.js").Wagers} Wagers */

/**
 * Deal, Quick Replay, a decision or New shoe, one at a time: the buttons that send one
 * are disabled until it is answered (and Deal and Quick Replay, after a deal, until the
 * next commitment shows: a decision need not wait for it).
 * @param {() => Promise<void>} work
 */
export async function oneAtATime(work) {
  if (state.busy) return;
  busyChanged(true);
  try {
    await work();
  } catch (error) { say(/** @type {Error} */ (error).message, "refusal"); } finally {
    busyChanged(false);
  }
}

const roundOpen = () => !!state.round && state.round.status === ROUND.open;

// ------------------------------------------------------------------ chips
/** @typedef {{ spot: string, chip: number, hold: boolean }} Tap */

// Chip taps show on the felt at once and go to the server one after another, each
// from the wagers the last answer left: quick taps on two spots both count. Until the
// answers are in, the felt shows the server's last wagers with the taps still queued
// added on; a refused tap is taken back with its reason. A tap for a table left
// meanwhile is dropped.
/** @type {Wagers} the server's wagers before the taps queued */
let confirmed = {};
/** @type {Tap[]} */
const queued = [];
/** @type {import("./state.js").Message | null} the last thing a chip's answer said */
let answerSaid = null;
let placing = Promise.resolve();

/** The wagers a tap would leave, as far as the page can tell before the server says
 * (the server's answer replaces it: the Bonus following the Ante, a reset at the
 * maximum). @param {Wagers} wagers @param {Tap} tap */
function guess(wagers, { spot, chip, hold }) {
  return { ...wagers, [spot]: hold ? 0 : (wagers[spot] || 0) + chip };
}

/** What stops a chip going down now, in words, or "". @param {boolean} hold */
function chipRefusal(hold) {
  if (state.busy || roundOpen()) return "The round is in play: the chips stay until it is settled.";
  if (hold || state.balance === null) return "";
  if (onTheFelt() + state.chip > state.balance) {
    return `The ${money(state.chip)} chip would put ${money(onTheFelt() + state.chip)} on the felt and the balance is ${money(state.balance)}: ` +
      "choose a smaller chip, or take chips off with Undo or Clear.";
  }
  return "";
}

/**
 * A tap on a spot (or press-and-hold: `hold`) with the chip chosen.
 * @param {string} spot
 * @param {boolean} hold
 */
export function place(spot, hold) {
  const refused = chipRefusal(hold);
  if (refused) {
    offerRefill(refused, !hold && !roundOpen() && !state.busy);
    return Promise.resolve();
  }
  resultPassed();
  const table = tableKey();
  /** @type {Tap} */
  const tap = { spot, chip: state.chip, hold };
  if (!queued.length) confirmed = { ...state.wagers };
  queued.push(tap);
  wagersPlaced(guess(state.wagers, tap), true);
  chipsInFlight(1);
  const said = state.message;
  placing = placing.then(() => (tableKey() === table ? send1(tap, table, said) : undefined));
  return placing;
}

/**
 * A tap sent, once the taps before it are answered.
 * @param {Tap} tap @param {string} table
 * @param {import("./state.js").Message | null} said the status line when it was tapped
 */
async function send1(tap, table, said) {
  const before = confirmed;
  try {
    const answer = await api("/api/chips", { game: state.game, wagers: before, ...tap });
    if (tableKey() !== table) return;
    confirmed = answer;
    explain(tap, before, answer, said);
    cue("chip");
  } catch (error) {
    if (tableKey() !== table) return;
    say(`${/** @type {Error} */ (error).message}: the chip is taken back.`, "refusal");
    answerSaid = state.message;
    cue("refused");
  } finally {
    queued.shift();
    if (tableKey() === table) {
      wagersPlaced(queued.reduce(guess, confirmed));
      chipsInFlight(-1);
    }
  }
}

/**
 * The server's answer in words where it did more than add the chip. Else the status
 * line is cleared if it shows what it showed at the tap or what an earlier tap's
 * answer said ("Tap again to start over"), never what the page said since (a later
 * tap's refusal stays, however late this answer comes).
 * @param {Tap} tap @param {Wagers} before @param {Wagers} after
 * @param {import("./state.js").Message | null} said the status line when it was tapped
 */
function explain(tap, before, after, said) {
  const label = (/** @type {string} */ name) => (info().wagers.find((w) => w.name === name) || { label: name }).label;
  const cleared = Object.keys(after).filter((name) => !after[name] && before[name]).map(label);
  if (tap.hold) {
    say(cleared.length ? `${cleared.join(" and ")} cleared.` : `${label(tap.spot)} has no chips to clear.`);
  } else if (!after[tap.spot] && before[tap.spot]) {
    const spot = info().wagers.find((w) => w.name === tap.spot);
    say(`${label(tap.spot)} was at its ${money(spot ? spot.maximum : before[tap.spot])} maximum: this tap cleared it. Tap again to start over.`);
  } else if (state.message === said || state.message === answerSaid) say("");
  answerSaid = state.message;
}

/** Undo: the last chip change taken back. */
export function undo() {
  if (state.placing || !state.undo.length || roundOpen()) return;
  resultPassed();
  wagersUndone();
  say("");
}

/** Clear: every chip off the felt (Undo puts them back). */
export function clearAll() {
  if (state.placing || !onTheFelt() || roundOpen()) return;
  resultPassed();
  wagersPlaced({}, true);
  say("The chips are off the felt: Undo puts them back.");
}

/** Double: every wager doubled, where every spot's maximum allows it (the server says). */
export async function double() {
  if (state.placing || !onTheFelt() || roundOpen()) return;
  const table = tableKey(), before = { ...state.wagers };
  if (state.balance !== null && 2 * onTheFelt() > state.balance) {
    say(`Double would put ${money(2 * onTheFelt())} on the felt and the balance is ${money(state.balance)}.`, "refusal");
    return;
  }
  resultPassed();
  chipsInFlight(1);
  try {
    const doubled = await api("/api/chips/double", { game: state.game, wagers: before });
    if (tableKey() === table) { wagersPlaced(doubled, true); say(""); }
  } catch (error) {
    if (tableKey() === table) say(`${/** @type {Error} */ (error).message}.`, "refusal");
  } finally {
    if (tableKey() === table) chipsInFlight(-1);
  }
}

// ------------------------------------------------------------------ dealing
/** Deal (or, `replay`, Quick Replay: the last wagers dealt here again). @param {boolean} replay */
export async function deal(replay) {
  if (state.busy || state.committing) return;
  hintShown(null);
  await placing;  // the chips tapped before Deal are the ones dealt
  const wagers = replay ? state.last[tableKey()] : state.wagers;
  const total = wagers ? Object.values(wagers).reduce((sum, cents) => sum + cents, 0) : 0;
  if (state.balance !== null && total > state.balance) {
    offerRefill(`The wagers come to ${money(total)} and the balance is ${money(state.balance)}: take chips off with Undo or Clear.`);
    return;
  }
  resultPassed();
  if (state.shared) return bet(replay);
  await oneAtATime(async () => {
    const table = tableKey();
    if (!state.commitment) await showCommitment();  // never a deal without a commitment shown
    if (tableKey() !== table || !state.commitment) return;
    const client_seed = clientSeed(), shown = state.commitment, sealed = state.shoeInPlay;
    commitmentShown(null, false);  // spent on this deal: the next is fetched before another
    /** @type {import("./state.js").RoundView | null} */
    let round = null;
    try {
      round = replay
        ? await api(`/api/games/${state.game}/replay`, { client_seed, idempotency_key: crypto.randomUUID() })
        : await api("/api/rounds", { game: state.game, wagers: state.wagers, second: blindWagers(state.wagers), client_seed, idempotency_key: crypto.randomUUID() });
    } catch (error) {
      offerRefill(/** @type {Error} */ (error).message, false);
      cue("refused");
    }
    if (tableKey() !== table || !round) return;
    // the round must deal from the commitment shown and, unless a shoe deals on from
    // the seeds it has, from the client seed drawn here
    const fair = round.commitment === shown && (sealed || round.client_seed === client_seed);
    wagersDealt(round.wagers);
    roundShown(round);
    cue("deal");
    if (round.status === ROUND.open) say("Your decision.");
    else finished(round);
    if (!fair) say("Warning: this round's commitment or client seed is not the one shown and drawn here before the deal.", "refusal");
    refreshBalance();
  });
  // the next deal's commitment: Deal and Quick Replay wait for it, a decision need not
  committingChanged(true);
  try {
    await showCommitment();
  } catch { /* the next deal asks again */ } finally {
    committingChanged(false);
  }
}

/**
 * A decision on the round in play.
 * @param {string} action
 * @param {number | null} amount
 */
export async function decide(action, amount) {
  if (state.busy || !state.round) return;
  if (state.shared) {
    send({ type: "decide", action, amount });
    return;
  }
  const id = state.round.id, table = tableKey();
  await oneAtATime(async () => {
    const round = await api(`/api/rounds/${id}/actions`, { action, amount, idempotency_key: crypto.randomUUID() });
    if (tableKey() !== table) return;
    hintShown(null);
    roundShown(round);
    cue("card");
    if (round.status !== ROUND.open) finished(round);
  });
  refreshBalance();
}
