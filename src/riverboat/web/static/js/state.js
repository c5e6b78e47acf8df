// What the page knows, and the small helpers every part of it uses. The server decides
// everything: legal choices, chip placement (R2), payouts; this page shows what it is told.

export const state = { games: [], game: null, wagers: {}, chip: 500, round: null, last: {}, session: { rounds: 0, net: 0 },
  shared: false, socket: null, table: null, gotResult: false, commitment: null, shoeInPlay: false, ticker: null,
  busy: false,  // a deal, decision or New shoe in flight: the buttons that send one wait
  committing: false,  // the next deal's commitment on its way after a deal: Deal waits
  hinting: null,  // the hint being worked out (its AbortController)
  choosing: 0 };  // counts the tables chosen: a table's load that finds a later choice stops

export const tableKey = () => (state.shared ? `${state.game}:shared` : state.game);
export const $ = (id) => document.getElementById(id);
export const money = (cents) => (cents < 0 ? "-$" : "$") + (Math.abs(cents) / 100).toLocaleString(undefined, { minimumFractionDigits: Math.abs(cents) % 100 ? 2 : 0 });
export const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
export function say(text) { $("message").textContent = text; }

// a game's info and shape (its spec, from /api/games); the page never asks which game it is
export function gameOf(name) { return state.games.find((g) => g.game === name); }
export function info() { return gameOf(state.game); }

// where a game's hands go on the table: the first hand (the player's, or Baccarat's
// Player side) with the hands a decision deals (the rabbit) on one side; the house's
// hand, or else the other hand, on the other; a blind second position's hand keyed
// "seat:blind" (C8)
export function layout(game) {
  const mine = game.hands[0];
  const other = game.hands.find((h) => h.house) || game.hands.find((h) => h !== mine && !h.dealt_on);
  const drawn = game.hands.filter((h) => h.dealt_on);
  return { mine, other, drawn, blind: game.blind_play === null ? null : `${mine.name}:blind` };
}
