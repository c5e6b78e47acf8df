// The named actions: every change to the page's state goes through one of these, so
// each says what happened ("a table was chosen", "a round was dealt") and the views
// that draw it follow (views.js). What belongs to one table (its round, chips,
// verdict, hint, message) is reset when another is chosen: nothing outlives its table.
import { keepLast, state, store, tableKey } from "./state.js";
import { ROUND } from "./states.js";

/** @typedef {import("./state.js").Wagers} Wagers */
/** @typedef {import("./state.js").RoundView} RoundView */
/** @typedef {import("./state.js").Verdict} Verdict */
/** @typedef {import("./state.js").Hint} Hint */

/** @param {import("./state.js").GameInfo[]} games */
export const gamesLoaded = (games) => store.act("gamesLoaded", { games });
/** A shared table's own rules, as its felt and pay table show them. @param {import("./state.js").GameInfo} game */
export const tableGameLoaded = (game) => store.act("tableGameLoaded", { tableGame: game });
/** @param {import("./state.js").LobbyTable[]} lobby */
export const lobbyLoaded = (lobby) => store.act("lobbyLoaded", { lobby });

/**
 * Another table in view: its own chips (the last wagers dealt there, or none), no
 * round, message, verdict or hint of the table left.
 * @param {string} game
 * @param {string | boolean} shared
 */
export function tableChosen(game, shared) {
  const same = game === state.game && shared === state.shared;  // chips on it stay
  store.act("tableChosen", {
    game, shared, tableGame: null, round: null, passed: null, table: null, commitment: null, shoeInPlay: false,
    hint: null, hinting: false, verdict: null, message: null, placing: 0,
    ...(same ? {} : { undo: [], wagers: { ...(state.last[shared ? `${game}:shared` : game] || {}) } }),
  });
}

/** @param {number} chip */
export const chipChosen = (chip) => store.act("chipChosen", { chip });

/**
 * The chips on the felt changed (a tap, Undo, Clear, Double, the server's answer).
 * `undoable`: the wagers before are kept for Undo.
 * @param {Wagers} wagers
 * @param {boolean} [undoable]
 */
export function wagersPlaced(wagers, undoable = false) {
  const undo = undoable ? [...state.undo.slice(-49), { ...state.wagers }] : state.undo;
  store.act("wagersPlaced", { wagers, undo });
}

/** The last chip change taken back. */
export function wagersUndone() {
  const undo = state.undo.slice(0, -1);
  store.act("wagersUndone", { wagers: { ...(state.undo[state.undo.length - 1] || {}) }, undo });
}

/** @param {number} by one more (1) or one fewer (-1) chip tap on its way to the server */
export const chipsInFlight = (by) => store.act("chipsInFlight", { placing: Math.max(0, state.placing + by) });

/**
 * A round dealt, decided or picked up again: the wagers on the felt are its own.
 * @param {RoundView} round
 */
export function roundShown(round) {
  const balance = typeof round.balance === "number" ? round.balance : state.balance;  // the round's answer carries it
  store.act("roundShown", { round, balance, ...(round.status === ROUND.open ? { wagers: { ...round.wagers } } : {}) });
}

/**
 * A round dealt from wagers: they are this table's last, for Quick Replay (kept
 * across visits), and stay on the felt.
 * @param {Wagers} wagers
 */
export function wagersDealt(wagers) {
  store.act("wagersDealt", { last: { ...state.last, [tableKey()]: { ...wagers } }, wagers: { ...wagers }, undo: [] });
  keepLast();
}

/**
 * A round of the player's own ended: the visit's tally, the last win.
 * @param {RoundView} round
 */
export function roundEnded(round) {
  if (round.status !== ROUND.settled || round.net === null || round.net === undefined) return;
  store.act("roundEnded", {
    session: { rounds: state.session.rounds + 1, net: state.session.net + round.net },
    lastWin: round.net > 0 ? round.net : state.lastWin,
  });
}

/** The player moved on from the settled round shown (a chip, a deal). */
export function resultPassed() {
  if (state.round && state.round.status !== ROUND.open && state.round !== state.passed) store.act("resultPassed", { passed: state.round });
}

/** @param {number} balance @param {boolean} signedIn */
export const balanceKnown = (balance, signedIn) => store.act("balanceKnown", { balance, signedIn });

/** @param {boolean} busy */
export const busyChanged = (busy) => store.act(busy ? "requestSent" : "requestAnswered", { busy });
/** @param {boolean} committing */
export const committingChanged = (committing) => store.act(committing ? "commitmentAsked" : "commitmentCame", { committing });

/** @param {string | null} commitment @param {boolean} shoeInPlay */
export const commitmentShown = (commitment, shoeInPlay) => store.act("commitmentShown", { commitment, shoeInPlay });

/** @param {boolean} hinting */
export const hintAsked = (hinting) => store.act(hinting ? "hintAsked" : "hintDone", { hinting });
/** @param {Hint | null} hint */
export const hintShown = (hint) => store.act(hint ? "hintShown" : "hintHidden", { hint });

/** @param {Verdict} verdict */
export const verdictGiven = (verdict) => store.act("verdictGiven", { verdict });

/** @param {import("./state.js").TableSnapshot | null} table */
export const tableSnapshot = (table) => store.act("tableSnapshot", { table });
