// The balance, this visit's tally, and what follows a finished round.
import { api } from "./api.js";
import { $, money, state } from "./state.js";
import { loadHistory } from "./history.js";

export async function refreshBalance() {
  const me = await api("/api/me");
  $("logout").hidden = !me.signed_in;
  $("balance").textContent = money(me.balance);
  $("stats").textContent = state.session.rounds ? `${state.session.rounds} rounds, ${money(state.session.net)}` : "";
}

export function finished(round) {
  if (round.status === "settled") {
    state.session.rounds += 1;
    state.session.net += round.net;
  }
  loadHistory();
}
