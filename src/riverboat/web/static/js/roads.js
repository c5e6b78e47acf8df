// Baccarat's roads of one shoe, as the server works them out (RoadsView: the player's
// own shoe from /api/games/{game}/roads, a shared shoe from its table's snapshot). The
// bead plate and the big road (with its ties and dragon tails) sit beside the bets,
// always in view: a strip under the felt on a phone, a column beside it on a wide or a
// short landscape screen. The big eye boy, small road and cockroach pig, and what a next
// Banker or Player would add to each (the ask), open from the strip's More roads button
// in a dialog. Every mark goes in the (column, row) the server gives it; the page works
// out no road of its own, and shows roads wherever the game's spec has a shoe.
import { api } from "./api.js";
import { $, $dialog, info, state } from "./state.js";

/** @typedef {import("../../typing/api").SchemaRoadsView} RoadsView */
/** @typedef {import("../../typing/api").SchemaBeadView} BeadView */
/** @typedef {import("../../typing/api").SchemaBigRoadEntryView} BigRoadEntryView */
/** @typedef {import("../../typing/api").SchemaRoadPreviewView} RoadPreviewView */
/** A derived road's key in a RoadsView (and in its ask). @typedef {keyof RoadPreviewView} DerivedName */
/** A mark at its place in a road's grid. @typedef {{ column: number, row: number }} Placed */

/** A side's letter and colour class, by the winner the server names. @type {Record<string, string>} */
const SIDE = { Banker: "B", Player: "P", Tie: "T" };
/** @type {[DerivedName, string][]} */
const DERIVED = [["big_eye_boy", "Big eye boy"], ["small_road", "Small road"], ["cockroach_pig", "Cockroach pig"]];
/** @type {Record<DerivedName, string>} */
const ASK_LABEL = { big_eye_boy: "Big eye", small_road: "Small", cockroach_pig: "Roach" };
/** @param {string} name */
const domId = (name) => name.replaceAll("_", "-");

// a road's box is as wide as the whole columns its place holds (no cell cut at an edge)
// and shows its newest column at its right-hand edge (the box scrolls, the page never
// widens); again whenever its place changes size or comes into view
/** @param {HTMLElement} box */
function toNewest(box) {
  const pitch = parseFloat(getComputedStyle(box).backgroundSize);  // a cell and its line
  const room = /** @type {HTMLElement} */ (box.parentElement).clientWidth;
  if (pitch > 0 && room > 0) box.style.width = `${Math.max(1, Math.floor((room - 3) / pitch)) * pitch + 3}px`;
  box.scrollLeft = box.scrollWidth;
}
const resized = new ResizeObserver((entries) => entries.forEach((entry) => toNewest(/** @type {HTMLElement} */ (entry.target.querySelector(".road")))));

// a grid of `rows` rows with one cell per mark, each placed through its style (no
// inline style in the markup); one empty column after the newest shows where the next
// goes, and the printed grid lines fill the rest of the box
/**
 * @template {Placed} M
 * @param {string} id @param {number} rows @param {M[]} marks @param {(mark: M) => string} cell
 */
function grid(id, rows, marks, cell) {
  const box = $(id);
  const columns = 2 + Math.max(-1, ...marks.map((m) => m.column));
  box.style.setProperty("--rows", String(rows));
  box.style.setProperty("--columns", String(columns));
  box.innerHTML = marks.map(cell).join("");
  /** @type {HTMLElement[]} */ ([...box.children]).forEach((span, i) => {
    span.style.gridArea = `${marks[i].row + 1} / ${marks[i].column + 1}`;
    span.dataset.row = String(marks[i].row);
    span.dataset.column = String(marks[i].column);
  });
  toNewest(box);
}

// made once: the More roads button opens the derived roads' dialog, scrolled to their
// newest columns; the roads' boxes keep to their newest column as they resize
function setUp() {
  const button = $("roads-more");
  if (button.dataset.ready) return;
  button.dataset.ready = "yes";
  const dialog = $dialog("more-roads");
  button.onclick = () => {
    dialog.showModal();
    for (const [name] of DERIVED) toNewest($(domId(name)));
  };
  for (const id of ["bead", "big", ...DERIVED.map(([name]) => domId(name))]) resized.observe(/** @type {HTMLElement} */ ($(id).parentElement));
}

/** @param {BeadView[]} beads @param {string} side */
const count = (beads, side) => beads.filter((b) => b.winner === side).length;

// the shoe's results so far, in words, beside the roads (and in the dialog's heading)
/** @param {BeadView[]} beads */
function tally(beads) {
  const html = beads.length
    ? `<b class="B">Banker ${count(beads, "Banker")}</b> <b class="P">Player ${count(beads, "Player")}</b> <b class="T">Tie ${count(beads, "Tie")}</b>`
    : "No coup yet in this shoe";
  $("roads-tally").innerHTML = html;
  $("more-roads-tally").innerHTML = html;
}

/** @param {number} n */
const tiesLabel = (n) => (n === 1 ? "1 tie" : `${n} ties`);

// a ring in the winner's colour; ties after it (or before the shoe's first) a green
// slash across it, with their count when more than one
/** @param {BigRoadEntryView} entry */
function bigRoadCell(entry) {
  const ties = entry.ties + entry.leading_ties;
  const title = `${entry.winner}${ties ? `, ${tiesLabel(ties)}` : ""}`;
  const slash = ties ? `<i class="tie">${ties > 1 ? ties : ""}</i>` : "";
  return `<span class="ring ${SIDE[entry.winner]}${ties ? " tied" : ""}" title="${title}" role="img" aria-label="${title}">${slash}</span>`;
}

/** @param {BeadView} bead */
const beadCell = (bead) => `<span class="bead ${SIDE[bead.winner]}" title="${bead.winner}" role="img" aria-label="${bead.winner}">${SIDE[bead.winner]}</span>`;
/** @param {string} kind @param {string} colour */
const mark = (kind, colour) => `<span class="${kind} ${colour}" title="${colour}"></span>`;

// what a next Banker, or a next Player, would add to each derived road
/** @param {RoadsView} roads */
function askHtml(roads) {
  return /** @type {[string, RoadPreviewView][]} */ ([["Banker", roads.next_banker], ["Player", roads.next_player]]).map(([side, next]) =>
    `<span class="ask-side"><b class="${SIDE[side]}">${side} next</b> ` +
    DERIVED.map(([name, label]) => `<span class="ask-item">${next[name]
      ? `<span class="ask-mark" title="${label}: ${next[name]}" role="img" aria-label="${label}: ${next[name]}">${mark(domId(name), next[name])}</span>`
      : `<span class="ask-mark none" title="${label}: not started" role="img" aria-label="${label}: not started">–</span>`}<small>${ASK_LABEL[name]}</small></span>`).join("") + "</span>").join("");
}

// an empty view: a shoe with no coup yet (or none of this table's)
/** @type {RoadsView} */
export const NO_ROADS = { rows: 6, bead_plate: [], big_road: [], leading_ties: 0, big_eye_boy: [], small_road: [], cockroach_pig: [],
  next_banker: { big_eye_boy: null, small_road: null, cockroach_pig: null },
  next_player: { big_eye_boy: null, small_road: null, cockroach_pig: null } };

/** @param {RoadsView | null} view */
export function drawRoads(view) {
  const roads = view || NO_ROADS;
  setUp();
  tally(roads.bead_plate);
  grid("bead", roads.rows, roads.bead_plate, beadCell);
  grid("big", roads.rows, roads.big_road, bigRoadCell);
  $("big-ties").textContent = roads.big_road.length === 0 && roads.leading_ties ? `${tiesLabel(roads.leading_ties)} so far` : "";
  for (const [name] of DERIVED) grid(domId(name), roads.rows, roads[name], (m) => mark(domId(name), m.colour));
  $("ask").innerHTML = askHtml(roads);
}

// the player's own shoe at this game, from the server; empty at a game with no shoe
export async function showOwnRoads() {
  const game = state.game;
  if (state.shared || !info().shoe) return drawRoads(null);
  const view = /** @type {RoadsView | null} */ (await api(`/api/games/${game}/roads`).catch(() => null));
  if (state.game === game && !state.shared) drawRoads(view);
}
