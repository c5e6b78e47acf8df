// The balance, this visit's tally, and what follows a finished round.
import { api } from "./api.js";
import { $, money, state } from "./state.js";
import { loadHistory } from "./history.js";
import { settled } from "./celebrate.js";

export async function refreshBalance() {
  const me = await api("/api/me");
  $("logout").hidden = !me.signed_in;
  $("balance").textContent = money(me.balance);
  $("stats").textContent = tally(state.session.rounds, state.session.net);
}

/** This visit's tally: "1 round, +$10", "3 rounds, -$15", "2 rounds, even"; nothing
 * before the first settled round. */
export function tally(rounds, net) {
  if (!rounds) return "";
  const sum = net > 0 ? `+${money(net)}` : net < 0 ? money(net) : "even";
  return `${rounds} ${rounds === 1 ? "round" : "rounds"}, ${sum}`;
}

export function finished(round) {
  if (round.status === "settled") {
    state.session.rounds += 1;
    state.session.net += round.net;
  }
  settled(round);  // its sound and, for a win, the celebration
  loadHistory();
}
