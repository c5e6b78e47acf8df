// What to redraw after a change: a chip placed (the spots and the tray), or a round
// dealt, decided or settled (the hands, the decisions and the sentence that tells it).
import { say, state } from "./state.js";
import { renderHands, renderSpots as drawSpots } from "./felt.js";
import { renderChips, renderChoices } from "./controls.js";

export function renderSpots() {
  drawSpots();
  renderChips();
}

export function renderRound() {
  renderHands();
  renderChoices();
  const round = state.round;
  if (round && round.status !== "open") say(round.description);
}
