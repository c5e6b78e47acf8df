// A round at a table of one's own: placing chips, dealing (or Quick Replay), decisions.
// At a shared table a deal is a bet and a decision a message to the table.
import { api } from "./api.js";
import { say, state, tableKey } from "./state.js";
import { clientSeed, forgetCommitment, showCommitment } from "./fairness.js";
import { finished, refreshBalance } from "./bank.js";
import { renderButtons } from "./controls.js";
import { renderRound, renderSpots } from "./render.js";
import { hideHint } from "./overlays.js";
import { bet, blindWagers, send } from "./shared.js";
import { cue } from "./sound.js";

// Deal, Quick Replay, a decision or New shoe, one at a time: the buttons that send one
// are disabled until it is answered (and Deal and Quick Replay, after a deal, until the
// next commitment shows: a decision need not wait for it)
export async function oneAtATime(work) {
  if (state.busy) return;
  state.busy = true;
  renderButtons();
  try {
    await work();
  } catch (error) { say(error.message); } finally {
    state.busy = false;
    renderButtons();
  }
}

// Chip taps go to the server one after another, each from the wagers the last one
// left: quick taps on two spots both count (sent together, the later answer would
// carry the wagers from before the earlier tap). A tap for a table left meanwhile is dropped.
let placing = Promise.resolve();
export function place(spot, hold) {
  const table = tableKey(), chip = state.chip;  // the chip chosen when tapped
  placing = placing.then(() => (tableKey() === table ? placeNow(spot, hold, chip) : undefined));
  return placing;
}

async function placeNow(spot, hold, chip) {
  if (state.busy || (state.round && state.round.status === "open")) return;
  try {
    state.wagers = await api("/api/chips", { game: state.game, wagers: state.wagers, spot, chip, hold });
    cue("chip");
    say("");
  } catch (error) { say(error.message); cue("refused"); }
  renderSpots();
}

export async function deal(replay) {
  if (state.busy || state.committing) return;
  hideHint();
  if (state.shared) return bet(replay);
  await oneAtATime(async () => {
    const table = tableKey();
    if (!state.commitment) await showCommitment();  // never a deal without a commitment shown
    if (tableKey() !== table || !state.commitment) return;
    const client_seed = clientSeed(), shown = state.commitment, sealed = state.shoeInPlay;
    forgetCommitment();  // spent on this deal: the next is fetched before another
    let round = null;
    try {
      round = replay
        ? await api(`/api/games/${state.game}/replay`, { client_seed, idempotency_key: crypto.randomUUID() })
        : await api("/api/rounds", { game: state.game, wagers: state.wagers, second: blindWagers(state.wagers), client_seed, idempotency_key: crypto.randomUUID() });
    } catch (error) { say(error.message); cue("refused"); }
    if (tableKey() !== table) return;  // another table was chosen meanwhile
    // the round must deal from the commitment shown and, unless a shoe deals on from
    // the seeds it has, from the client seed drawn here
    const fair = !round || (round.commitment === shown && (sealed || round.client_seed === client_seed));
    if (round) {
      state.round = round;
      cue("deal");
      state.last[state.game] = { ...round.wagers };
      state.wagers = { ...round.wagers };
      if (fair) say(round.status === "open" ? "Your decision." : "");
      if (round.status !== "open") finished(round);
      renderSpots();
      renderRound();
      if (!fair) say("Warning: this round's commitment or client seed is not the one shown and drawn here before the deal.");
      refreshBalance();
    }
  });
  // the next deal's commitment: Deal and Quick Replay wait for it, a decision need not
  state.committing = true;
  renderButtons();
  try {
    await showCommitment();
  } catch { /* the next deal asks again */ } finally {
    state.committing = false;
    renderButtons();
  }
}

export async function decide(action, amount) {
  if (state.busy) return;
  if (state.shared) {
    send({ type: "decide", action, amount });
    return;
  }
  await oneAtATime(async () => {
    try {
      state.round = await api(`/api/rounds/${state.round.id}/actions`, { action, amount, idempotency_key: crypto.randomUUID() });
      cue("card");
      hideHint();
      if (state.round.status !== "open") finished(state.round);
    } catch (error) { say(error.message); }
  });
  renderRound();
  refreshBalance();
}
