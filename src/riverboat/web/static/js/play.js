// A round at a table of one's own: placing chips, dealing (or Quick Replay), decisions.
// At a shared table a deal is a bet and a decision a message to the table.
import { api } from "./api.js";
import { say, state } from "./state.js";
import { clientSeed, showCommitment } from "./fairness.js";
import { finished, refreshBalance } from "./bank.js";
import { renderRound, renderSpots } from "./felt.js";
import { hideHint } from "./overlays.js";
import { bet, blindWagers, send } from "./shared.js";

export async function place(spot, hold) {
  if (state.round && state.round.status === "open") return;
  try {
    state.wagers = await api("/api/chips", { game: state.game, wagers: state.wagers, spot, chip: state.chip, hold });
    say("");
  } catch (error) { say(error.message); }
  renderSpots();
}

export async function deal(replay) {
  hideHint();
  if (state.shared) return bet(replay);
  const client_seed = clientSeed(), shown = state.commitment, sealed = state.shoeInPlay;
  let fair = true;
  try {
    state.round = replay
      ? await api(`/api/games/${state.game}/replay`, { client_seed, idempotency_key: crypto.randomUUID() })
      : await api("/api/rounds", { game: state.game, wagers: state.wagers, second: blindWagers(state.wagers), client_seed, idempotency_key: crypto.randomUUID() });
    // the round must deal from the commitment shown and, unless a shoe deals on from
    // the seeds it has, from the client seed drawn here
    fair = state.round.commitment === shown && (sealed || state.round.client_seed === client_seed);
    state.last[state.game] = { ...state.round.wagers };
    state.wagers = { ...state.round.wagers };
    if (fair) say(state.round.status === "open" ? "Your decision." : "");
    if (state.round.status !== "open") finished(state.round);
  } catch (error) { say(error.message); }
  await showCommitment().catch(() => {});
  renderSpots();
  renderRound();
  if (!fair) say("Warning: this round's commitment or client seed is not the one shown and drawn here before the deal.");
  refreshBalance();
}

export async function decide(action, amount) {
  if (state.shared) {
    send({ type: "decide", action, amount });
    return;
  }
  try {
    state.round = await api(`/api/rounds/${state.round.id}/actions`, { action, amount, idempotency_key: crypto.randomUUID() });
    hideHint();
    if (state.round.status !== "open") finished(state.round);
  } catch (error) { say(error.message); }
  renderRound();
  refreshBalance();
}
