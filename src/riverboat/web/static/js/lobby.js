// The lobby: the shared tables (GET /api/lobby), each with its name, rules variant,
// limits, seats taken and free and, at Baccarat, the shoe's coups and cards left. The
// table menu lists them after one's own tables; a tap sits at the table (the next free
// seat: every seat faces the same dealer or coup), and choosing another table leaves
// this one. The list is fetched again while the menu is open, so seats stay current.
import { api } from "./api.js";
import { $, gameOf, state } from "./state.js";
import { lobbyLoaded } from "./actions.js";

const REFRESH_MS = 3000;

// the lobby's tables; a server without a lobby: one shared table per game, by its name
export async function loadLobby() {
  try {
    lobbyLoaded((await api("/api/lobby")).tables);
  } catch {
    lobbyLoaded(state.games.filter((g) => g.shared).map((g) => /** @type {import("./state.js").LobbyTable} */ (/** @type {unknown} */ ({ id: g.game, name: g.title, game: g.game }))));
  }
}

export const lobbyTable = (id) => state.lobby.find((table) => table.id === id);

// the shared tables as the menu lists them: [game, table id]
export const sharedTables = () => state.lobby.filter((t) => gameOf(t.game)).map((t) => [gameOf(t.game), t.id]);

// a table's lines in the menu: what it plays, its seats and its shoe, in words
export function describeTable(id) {
  const table = lobbyTable(id);
  if (!table || table.seats === undefined) return ["Shared table: seats with other players, a clock"];
  const lines = [`Shared table · ${table.title} (${table.variant})`, table.limits,
    `${table.seats_taken} of ${table.seats} seats taken · ${table.seats_free} free${table.you ? " · you sit here" : ""}`];
  if (table.shoe) {
    const left = table.shoe.cards_left === null ? "a new shoe" : `${table.shoe.cards_left} cards left`;
    lines.push(`Shoe: ${table.shoe.coups} coups dealt · ${left}`);
  }
  return lines;
}

// while the table menu is open, the lobby is fetched again every few seconds and redrawn
export function watchLobby(redraw) {
  const timer = setInterval(async () => {
    if (!$("tables").open) { clearInterval(timer); return; }
    await loadLobby();
    redraw();
  }, REFRESH_MS);
}
