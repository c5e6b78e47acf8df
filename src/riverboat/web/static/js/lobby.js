// The lobby: the shared tables (GET /api/lobby), each with its name, rules variant,
// limits, seats taken and free, the players seated, what it is doing (its clock) and
// its seats in miniature and, at a table with a shoe, the shoe's coups, cards left and
// wins by side, and its big road's newest columns. The
// table menu lists them after one's own tables; a tap sits at the table (the next free
// seat: every seat faces the same dealer or coup), and choosing another table leaves
// this one. The list is fetched again while the menu is open, so seats stay current.
import { api } from "./api.js";
import { $dialog, gameOf, state } from "./state.js";
import { lobbyLoaded } from "./actions.js";
import { progress } from "./seats.js";
import { PHASE } from "./states.js";

/** @typedef {import("./state.js").GameInfo} GameInfo */
/** A shared table in the lobby (the server's LobbyTable). @typedef {import("./state.js").LobbyTable} LobbyTable */
/** Its shoe, with each side's wins. @typedef {import("../../typing/api").SchemaLobbyShoe} LobbyShoe */

const REFRESH_MS = 3000;

// the lobby's tables; a server without a lobby: one shared table per game, by its name
export async function loadLobby() {
  try {
    lobbyLoaded((await api("/api/lobby")).tables);
  } catch {
    lobbyLoaded(state.games.filter((g) => g.shared).map((g) => /** @type {LobbyTable} */ (/** @type {unknown} */ ({ id: g.game, name: g.title, game: g.game }))));
  }
}

/** A lobby's table by its id. @param {string} id */
export const lobbyTable = (id) => state.lobby.find((table) => table.id === id);

// the shared tables as the menu lists them: [game, table id]
/** @returns {[GameInfo, string][]} */
export const sharedTables = () => state.lobby.filter((t) => gameOf(t.game)).map((t) => /** @type {[GameInfo, string]} */ ([gameOf(t.game), t.id]));

// a table's lines in the menu: what it plays, its seats and its shoe, in words
/** @param {string} id @returns {string[]} */
export function describeTable(id) {
  const table = lobbyTable(id);
  if (!table || table.seats === undefined) return ["Shared table: seats with other players, a clock"];
  const you = table.you ? " · you sit here" : "";
  const seats = table.seats === null
    ? `${table.seats_taken.toLocaleString("en-US")} player${table.seats_taken === 1 ? "" : "s"} · no seat limit${you}`
    : `${table.seats_taken} of ${table.seats} seats taken · ${table.seats_free} free${you}`;
  const lines = [`Shared table · ${table.title} (${table.variant})`, table.limits, seats];
  const unseen = table.seats_taken - (table.players || []).length;
  if (table.players && table.players.length) lines.push(`Seated: ${table.players.join(", ")}${unseen > 0 ? ` and ${unseen.toLocaleString("en-US")} more` : ""}`);
  const now = tableNow(table);
  if (now) lines.push(now);
  if (table.shoe) {
    const left = table.shoe.cards_left === null ? "a new shoe" : `${table.shoe.cards_left} cards left`;
    lines.push(`Shoe: ${table.shoe.coups} coups dealt · ${left}`);
    if (table.shoe.coups) lines.push(shoeSummary(table.shoe));
  }
  return lines;
}

// what the table is doing, in words: its clock to the next deal, its decisions, or
// its wait for a first bet (a lobby of an older server sends no clock: nothing)
/** @param {LobbyTable} table @returns {string | null} */
function tableNow(table) {
  if (table.seconds_left === undefined) return null;
  const left = table.seconds_left === null ? null : Math.ceil(table.seconds_left);
  if (table.phase === PHASE.closed) return "Now: closed until its last round is refunded";
  if (table.phase === PHASE.deciding) return left === null ? "Now: a hand in play" : `Now: a hand in play, decisions close in ${left} s`;
  if (left !== null) return `Now: betting, next deal in ${left} s`;
  return table.seats_taken ? "Now: waiting for a first bet" : "Now: waiting for players";
}

// a shoe's wins by side in words, the words of its miniature road
/** @param {LobbyShoe} shoe */
export const shoeSummary = (shoe) =>
  `Banker ${shoe.banker}, Player ${shoe.player}, Tie ${shoe.tie}${shoe.last ? `; last: ${shoe.last}` : ""}`;

const MINI_COLUMNS = 20;  // the lobby sends a big road's newest 20 columns

// a table's big road in miniature, for the eye (its words are the shoe's summary):
// coloured rings at the cells the table's road gives them, its newest columns at the
// right; null at a table without a shoe
/** @param {string} id @returns {HTMLElement | null} */
export function miniRoad(id) {
  const table = lobbyTable(id);
  if (!table || !table.big_road) return null;
  const road = document.createElement("span");
  road.className = "mini-road";
  road.setAttribute("aria-hidden", "true");
  road.style.setProperty("--columns", String(MINI_COLUMNS));
  const first = Math.max(0, 1 + Math.max(-1, ...table.big_road.map((entry) => entry.column)) - MINI_COLUMNS);
  for (const entry of table.big_road) {
    const ring = document.createElement("i");
    ring.className = `${entry.winner === "Banker" ? "B" : "P"}${entry.ties + entry.leading_ties ? " tied" : ""}`;
    ring.style.gridArea = `${entry.row + 1} / ${entry.column - first + 1}`;
    road.append(ring);
  }
  return road;
}

// a table's seats in miniature, for the eye (its words are the lines above): a dot
// for each place, seat 1 at the right end as on the felt, a taken one with its
// player's initial and whether they have bet or decided; null at a lobby of an older
// server (no seats sent)
/** @param {string} id @returns {HTMLElement | null} */
export function miniSeats(id) {
  const table = lobbyTable(id);
  if (!table || !table.seated || !table.seats) return null;
  const seats = document.createElement("span");
  seats.className = "mini-seats";
  seats.setAttribute("aria-hidden", "true");
  const byNumber = new Map(table.seated.map((seat) => [seat.seat, seat]));
  for (let number = 1; number <= Math.max(table.seats, ...byNumber.keys()); number += 1) {
    const seat = byNumber.get(number), dot = document.createElement("i");
    if (seat) {
      dot.className = `taken ${progress(seat)[0]}${seat.you ? " you" : ""}`;
      dot.textContent = [...seat.name][0].toUpperCase();
    } else dot.className = "free";
    seats.append(dot);
  }
  return seats;
}

// while the table menu is open, the lobby is fetched again every few seconds and redrawn
/** @param {() => void} redraw */
export function watchLobby(redraw) {
  const timer = setInterval(async () => {
    if (!$dialog("tables").open) { clearInterval(timer); return; }
    await loadLobby();
    redraw();
  }, REFRESH_MS);
}
