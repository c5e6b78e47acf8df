// Baccarat's roads of one shoe, as the server works them out (RoadsView: the player's
// own shoe from /api/games/{game}/roads, a shared shoe from its table's snapshot): the
// bead plate, the big road with its ties and dragon tails, the big eye boy, small road
// and cockroach pig, and what a next Banker or Player would add. Every mark goes in the
// (column, row) the server gives it; the page works out no road of its own.
import { api } from "./api.js";
import { $, info, state } from "./state.js";

const MIN_COLUMNS = 12;  // an empty shoe still shows its grid
const SIDE = { Banker: "B", Player: "P", Tie: "T" };
const DERIVED = [["big_eye_boy", "Big eye boy"], ["small_road", "Small road"], ["cockroach_pig", "Cockroach pig"]];
const ASK_LABEL = { big_eye_boy: "Big eye", small_road: "Small", cockroach_pig: "Roach" };

// a grid of `rows` rows with one cell per mark, each placed through its style (no
// inline style in the markup), scrolled to its newest column
function grid(id, rows, marks, cell) {
  const box = $(id);
  const columns = Math.max(MIN_COLUMNS, 1 + Math.max(-1, ...marks.map((m) => m.column)));
  box.style.setProperty("--rows", rows);
  box.style.setProperty("--columns", columns);
  box.innerHTML = marks.map(cell).join("");
  [...box.children].forEach((span, i) => {
    span.style.gridArea = `${marks[i].row + 1} / ${marks[i].column + 1}`;
    span.dataset.row = marks[i].row;
    span.dataset.column = marks[i].column;
  });
  box.scrollLeft = box.scrollWidth;
}

// the roads in a disclosure under the felt, open on a wide screen and closed on a
// phone, its summary counting the shoe's results; made once around what #roads holds
function panel() {
  const roads = $("roads");
  let details = roads.querySelector(".roads-panel");
  if (details) return details;
  details = document.createElement("details");
  details.className = "roads-panel";
  details.open = matchMedia("(min-width: 48rem)").matches;
  details.innerHTML = `<summary><span class="roads-name">Roads</span> <span id="roads-tally" class="roads-tally"></span></summary>`;
  details.append(...[...roads.childNodes]);
  roads.append(details);
  return details;
}

function tally(beads) {
  const count = (side) => beads.filter((b) => b.winner === side).length;
  $("roads-tally").innerHTML = beads.length
    ? `<b class="B">Banker ${count("Banker")}</b> <b class="P">Player ${count("Player")}</b> <b class="T">Tie ${count("Tie")}</b>`
    : "no coup yet in this shoe";
}

const tiesLabel = (n) => (n === 1 ? "1 tie" : `${n} ties`);

// a ring in the winner's colour; ties after it (or before the shoe's first) a green
// slash across it, with their count when more than one
function bigRoadCell(entry) {
  const ties = entry.ties + entry.leading_ties;
  const title = `${entry.winner}${ties ? `, ${tiesLabel(ties)}` : ""}`;
  const slash = ties ? `<i class="tie">${ties > 1 ? ties : ""}</i>` : "";
  return `<span class="ring ${SIDE[entry.winner]}${ties ? " tied" : ""}" title="${title}" role="img" aria-label="${title}">${slash}</span>`;
}

const mark = (kind, colour) => `<span class="${kind} ${colour}" title="${colour}"></span>`;

// an empty view: a shoe with no coup yet (or none of this table's)
export const NO_ROADS = { rows: 6, bead_plate: [], big_road: [], leading_ties: 0, big_eye_boy: [], small_road: [], cockroach_pig: [],
  next_banker: { big_eye_boy: null, small_road: null, cockroach_pig: null },
  next_player: { big_eye_boy: null, small_road: null, cockroach_pig: null } };

export function drawRoads(view) {
  const roads = view || NO_ROADS;
  panel();
  tally(roads.bead_plate);
  grid("bead", roads.rows, roads.bead_plate, (b) => `<span class="bead ${SIDE[b.winner]}" title="${b.winner}">${SIDE[b.winner]}</span>`);
  grid("big", roads.rows, roads.big_road, bigRoadCell);
  $("big-ties").textContent = roads.big_road.length === 0 && roads.leading_ties ? `${tiesLabel(roads.leading_ties)} so far` : "";
  for (const [name] of DERIVED) grid(name.replaceAll("_", "-"), roads.rows, roads[name], (m) => mark(name.replaceAll("_", "-"), m.colour));
  $("ask").innerHTML = [["Banker", roads.next_banker], ["Player", roads.next_player]].map(([side, next]) =>
    `<span class="ask-side"><b class="${SIDE[side]}">${side} next</b> ` +
    DERIVED.map(([name, label]) => `<span class="ask-item">${next[name]
      ? `<span class="ask-mark" title="${label}: ${next[name]}" role="img" aria-label="${label}: ${next[name]}">${mark(name.replaceAll("_", "-"), next[name])}</span>`
      : `<span class="ask-mark none" title="${label}: not started" role="img" aria-label="${label}: not started">–</span>`}<small>${ASK_LABEL[name]}</small></span>`).join("") + "</span>").join("");
}

// the player's own shoe at this game, from the server; empty at a game with no shoe
export async function showOwnRoads() {
  const game = state.game;
  if (state.shared || !info().shoe) return drawRoads(null);
  const view = await api(`/api/games/${game}/roads`).catch(() => null);
  if (state.game === game && !state.shared) drawRoads(view);
}
