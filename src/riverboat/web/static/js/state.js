// What the page knows, in one store (store.js), and the small helpers every part of
// the page uses. The server decides everything: legal choices, chip placement (R2),
// payouts; this page shows what it is told. Modules change the state only through
// the named actions in actions.js; views subscribe to it in views.js.
import { createStore } from "./store.js";

/** @typedef {import("../../typing/api").SchemaGameInfo} GameInfo */
/** @typedef {import("../../typing/api").SchemaHandInfo} HandInfo */
/** @typedef {import("../../typing/api").SchemaRoundView} RoundView */
/** @typedef {import("../../typing/api").SchemaTableSnapshot} TableSnapshot */
/** @typedef {import("../../typing/api").SchemaLobbyTable} LobbyTable */
/** @typedef {import("../../typing/api").SchemaChoiceView} ChoiceView */
/** @typedef {Record<string, number>} Wagers cents by spot */

/**
 * A line in the status area: a prompt, a result or a refusal (which says what to do).
 * @typedef {{ text: string, tone: "info" | "refusal" | "result" }} Message
 */
/**
 * The coach's verdict on a decision, for the table and round it speaks of.
 * @typedef {{ table: string, round: number, best: boolean, text: string, details: string }} Verdict
 */
/**
 * The hint's answer, for the table and round it speaks of (html: escaped by its maker).
 * @typedef {{ table: string, round: number, html: string }} Hint
 */

/**
 * @typedef {object} PageState
 * @property {GameInfo[]} games every game's info and shape (/api/games)
 * @property {LobbyTable[]} lobby the shared tables (/api/lobby)
 * @property {GameInfo | null} tableGame the shared table in view's own rules, when it plays a variant of its own
 * @property {string | null} game the game of the table in view
 * @property {string | boolean} shared false at one's own table, else the shared table's id
 * @property {number} chip the chip a tap on a spot places, in cents
 * @property {Wagers} wagers the chips on the felt before the deal
 * @property {Wagers[]} undo the wagers before each chip change at this table, newest last
 * @property {number} placing chip taps on their way to the server
 * @property {RoundView | null} round the round in play, or the last one dealt here
 * @property {RoundView | null} passed the settled round the player moved on from
 * @property {Record<string, Wagers>} last each table's last wagers dealt, for Quick Replay
 * @property {{ rounds: number, net: number }} session this visit's settled rounds and net
 * @property {number | null} balance the balance, as the server last said it
 * @property {number | null} lastWin the last round's net when it won
 * @property {TableSnapshot | null} table a shared table's last snapshot
 * @property {string | null} commitment the next deal's commitment, shown
 * @property {boolean} shoeInPlay the own shoe deals on from the seeds it has
 * @property {boolean} busy a deal, decision or New shoe in flight: the buttons that send one wait
 * @property {boolean} committing the next deal's commitment on its way after a deal: Deal waits
 * @property {boolean} hinting the hint being worked out
 * @property {Hint | null} hint the hint shown
 * @property {Verdict | null} verdict the coach's last verdict at this table
 * @property {Message | null} message the status line
 * @property {boolean} signedIn the player is logged in with an account
 */

const LAST = "riverboat-last-wagers";

/** @returns {Record<string, Wagers>} */
function keptLast() {
  try {
    const kept = JSON.parse(localStorage.getItem(LAST) || "{}");
    return kept && typeof kept === "object" && !Array.isArray(kept) ? kept : {};
  } catch { return {}; }
}

/** @type {PageState} */
const initial = {
  games: [], lobby: [], tableGame: null, game: null, shared: false, chip: 500, wagers: {}, undo: [], placing: 0,
  round: null, passed: null, last: keptLast(), session: { rounds: 0, net: 0 }, balance: null, lastWin: null,
  table: null, commitment: null, shoeInPlay: false, busy: false, committing: false, hinting: false,
  hint: null, verdict: null, message: null, signedIn: false,
};

export const store = createStore(initial);
export const state = store.state;

/** Quick Replay's wagers kept across visits (R10: a reload keeps them). */
export function keepLast() {
  try { localStorage.setItem(LAST, JSON.stringify(state.last)); } catch { /* private mode: this visit only */ }
}

/** The key of the table in view: the game, and ":shared" at a shared table. */
export const tableKey = () => (state.shared ? `${state.game}:shared` : String(state.game));

/**
 * An element of the page by its id; a missing one is a bug, said at once.
 * @param {string} id
 * @returns {HTMLElement}
 */
export function $(id) {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the page has no #${id}`);
  return element;
}
/** @param {string} id */
export const $button = (id) => /** @type {HTMLButtonElement} */ ($(id));
/** @param {string} id */
export const $input = (id) => /** @type {HTMLInputElement} */ ($(id));
/** @param {string} id */
export const $dialog = (id) => /** @type {HTMLDialogElement} */ ($(id));

/** "$5", "$1,000", "-$2.50": cents for people. @param {number} cents */
export const money = (cents) => (cents < 0 ? "-$" : "$") + (Math.abs(cents) / 100).toLocaleString("en-US", { minimumFractionDigits: Math.abs(cents) % 100 ? 2 : 0 });
/** Text made safe for markup. @param {unknown} text */
export const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The status line: a prompt ("info"), a round's result or a refusal.
 * @param {string} text
 * @param {Message["tone"]} [tone]
 */
export function say(text, tone = "info") {
  store.act("say", { message: text ? { text, tone } : null });
}

/** A game's info and shape (its spec, from /api/games); the page never asks which game it is. @param {string | null} name */
export function gameOf(name) { return state.games.find((g) => g.game === name); }
/** The info of the game in view: a shared table's own when it plays a variant of its own. @returns {GameInfo} */
export function info() {
  if (state.shared && state.tableGame && state.tableGame.game === state.game) return state.tableGame;
  const game = gameOf(state.game);
  if (!game) throw new Error(`no game ${state.game} among the server's`);
  return game;
}

/**
 * Where a game's hands go on the table: the first hand (the player's, or Baccarat's
 * Player side) with the hands a decision deals (the rabbit) on one side; the house's
 * hand, or else the other hand, on the other; a blind second position's hand keyed
 * "seat:blind" (C8).
 * @param {GameInfo} game
 */
export function layout(game) {
  const mine = game.hands[0];
  const other = game.hands.find((h) => h.house) || game.hands.find((h) => h !== mine && !h.dealt_on) || mine;
  const drawn = game.hands.filter((h) => h.dealt_on);
  return { mine, other, drawn, blind: game.blind_play === null ? null : `${mine.name}:blind` };
}

/** Whether the screen is touch alone (no fine pointer that hovers): the page's
 * keyboard-only words and the Keys button are not shown there. */
export const touchOnly = () => matchMedia("(hover: none) and (pointer: coarse)").matches;

/** The chips on the felt now, in cents. */
export const onTheFelt = () => Object.values(state.wagers).reduce((sum, cents) => sum + cents, 0);

/** The least a round at this table stakes: the smallest minimum among the spots that
 * can open a round (a required spot's, else any spot's). @param {GameInfo} game */
export function tableMinimum(game) {
  const required = game.wagers.filter((w) => w.required);
  return Math.min(...(required.length ? required : game.wagers).map((w) => w.minimum));
}
