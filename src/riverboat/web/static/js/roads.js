// Baccarat's bead plate (every coup) and big road (runs of Player or Banker wins),
// from the coups' winners as the server names them
import { $ } from "./state.js";

export function drawRoads(winners) {
  const coups = winners.map((side) => side[0]);
  $("bead").innerHTML = coups.map((c) => `<span class="${c}">${c}</span>`).join("");
  const columns = [];
  for (const c of coups.filter((x) => x !== "T")) {
    if (columns.length && columns.at(-1)[0] === c && columns.at(-1).length < 6) columns.at(-1).push(c); else columns.push([c]);
  }
  $("big").innerHTML = columns.map((col) => col.map((c) => `<span class="${c}">${c}</span>`).join("") + "<span></span>".repeat(6 - col.length)).join("");
}
