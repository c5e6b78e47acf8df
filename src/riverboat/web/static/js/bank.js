// The balance and the bet on the felt, this visit's tally, the last win, the refill
// of play money (the service's top-up, a ledger entry like every other credit), and
// what follows a finished round.
import { api } from "./api.js";
import { info, money, onTheFelt, say, state, tableMinimum } from "./state.js";
import { balanceKnown, roundEnded } from "./actions.js";
import { loadHistory } from "./history.js";
import { settled } from "./celebrate.js";
import { ROUND } from "./states.js";

/** The top-up's rule, as the server says it (/api/me): below `below`, back to `to`. */
const topUp = { below: 0, to: 0 };

export async function refreshBalance() {
  const me = await api("/api/me");
  topUp.below = me.top_up_below;
  topUp.to = me.top_up_to;
  balanceKnown(me.balance, me.signed_in);
}

/** This visit's tally: "1 round, +$10", "3 rounds, -$15", "2 rounds, even"; nothing
 * before the first settled round.
 * @param {number} rounds
 * @param {number} net
 */
export function tally(rounds, net) {
  if (!rounds) return "";
  const sum = net > 0 ? `+${money(net)}` : net < 0 ? money(net) : "even";
  return `${rounds} ${rounds === 1 ? "round" : "rounds"}, ${sum}`;
}

/** A finished round of one's own: the tally, the last win, the history, the result
 * said in the status line. @param {import("./state.js").RoundView} round */
export function finished(round) {
  roundEnded(round);
  settled(round);  // its sound, and a win's celebration
  if (round.description) say(round.description, "result");
  loadHistory();
}

/** Whether the service would top the balance up now (its rule: below `top_up_below`). */
export const canRefill = () => state.balance !== null && topUp.below > 0 && state.balance < topUp.below &&
  !(state.round && state.round.status === ROUND.open);

/** Whether the balance cannot cover the least this table's round stakes. */
export const stranded = () => state.balance !== null && state.games.length > 0 && state.game !== null &&
  state.balance < tableMinimum(info()) && !(state.round && state.round.status === ROUND.open);

/**
 * A refusal said in the status line and, where it is for want of money (`short`) and
 * the service allows a top-up, the refill offered with it; a balance that cannot
 * cover the table's minimum is said instead, with the offer.
 * @param {string} refusal
 * @param {boolean} [short]
 */
export function offerRefill(refusal, short = true) {
  if (canRefill() && stranded()) {
    say(`Out of chips? ${money(state.balance || 0)} cannot cover this table's ${money(tableMinimum(info()))} minimum: ` +
      `Refill brings your play money back to ${money(topUp.to)}.`, "refusal");
  } else if (canRefill() && short) {
    say(`${refusal} Or Refill: your play money back to ${money(topUp.to)}.`, "refusal");
  } else say(refusal, "refusal");
}

/** Refill: the service's top-up, back to its starting credit. */
export async function refill() {
  try {
    const { balance } = await api("/api/top-up", {});
    balanceKnown(balance, state.signedIn);
    say(`Refilled: your balance is ${money(balance)} of play money again.`);
    loadHistory();
  } catch (error) { say(/** @type {Error} */ (error).message, "refusal"); }
}

/** The header's money: the balance less the chips on the felt, the bet on the felt,
 * the last win and the visit's tally; a balance that changes counts up or down to
 * its new figure. */
export function drawBank() {
  const balance = state.balance;
  const bet = onTheFelt();
  const shown = balance === null ? null : balance - (state.round && state.round.status === ROUND.open ? 0 : bet);
  countTo(shown);
  const betLine = document.getElementById("bet-total");
  if (betLine) {
    betLine.textContent = bet ? money(bet) : "";
    betLine.hidden = !bet;
  }
  const label = document.getElementById("bet-label");
  if (label) label.hidden = !bet;
  const last = document.getElementById("last-win");
  if (last) {
    last.textContent = state.lastWin ? `Last win +${money(state.lastWin)}` : "";
    last.hidden = !state.lastWin;
  }
  const stats = document.getElementById("stats");
  if (stats) stats.textContent = tally(state.session.rounds, state.session.net);
  const refillButton = /** @type {HTMLButtonElement | null} */ (document.getElementById("refill"));
  if (refillButton) refillButton.hidden = !canRefill();
  document.getElementById("logout")?.toggleAttribute("hidden", !state.signedIn);
}

// the balance figure counts to its new value over a moment (at once under reduced
// motion, or the first time); `data-value` holds the figure it counts to
let counting = 0;
/** @param {number | null} target */
function countTo(target) {
  const element = document.getElementById("balance");
  if (!element) return;
  if (target === null) { element.textContent = "…"; return; }
  const from = Number(element.dataset.value);
  if (from === target && element.textContent !== "…") return;  // already there, or counting there: left to run
  element.dataset.value = String(target);
  cancelAnimationFrame(counting);
  const still = matchMedia("(prefers-reduced-motion: reduce)").matches || document.documentElement.classList.contains("reduce-motion");
  if (!Number.isFinite(from) || element.textContent === "…" || from === target || still) {
    element.textContent = money(target);
    element.dataset.trend = "";
    return;
  }
  element.dataset.trend = target > from ? "up" : "down";
  const start = performance.now(), span = 450;
  const step = (/** @type {number} */ now) => {
    const t = Math.max(0, Math.min(1, (now - start) / span));  // a frame's time can precede the start
    const eased = 1 - (1 - t) ** 3;
    element.textContent = money(Math.round(from + (target - from) * eased));
    if (t < 1) counting = requestAnimationFrame(step);
    else element.dataset.trend = "";
  };
  counting = requestAnimationFrame(step);
}

