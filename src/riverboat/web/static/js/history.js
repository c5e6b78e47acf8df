// The history of rounds: each finished round with its commitment, seed and Verify.
import { api } from "./api.js";
import { $, escape, money, state } from "./state.js";
import { verifyRound } from "./fairness.js";
import { showOwnRoads } from "./roads.js";

export async function loadHistory() {
  const rounds = await api("/api/history?limit=60");
  $("rounds").innerHTML = rounds.slice(0, 20).map((r) => {
    const net = r.net === null ? "" : money(r.net);
    return `<li>#${r.id} ${r.game} ${r.status} ${net}<br><code>commitment ${r.commitment}</code>` +
      (r.server_seed ? `<br><code>seed ${r.server_seed} · client ${escape(r.client_seed)} · nonce ${r.nonce}</code>` +
        ` <button type="button" class="verify" data-round="${r.id}">Verify</button> <span class="verdict"></span>` : "") + "</li>";
  }).join("");
  for (const button of document.querySelectorAll("#rounds .verify")) {
    const round = rounds.find((r) => String(r.id) === button.dataset.round);
    button.onclick = async () => {
      button.disabled = true;
      try {
        button.nextElementSibling.textContent = await verifyRound(round);
      } catch (error) {
        button.nextElementSibling.textContent = error.message;
      } finally { button.disabled = false; }
    };
  }
  if (!state.shared) showOwnRoads();  // the own shoe's roads, from the server
}

export function toggleHistory() {
  $("history").hidden = !$("history").hidden;
  $("history-toggle").setAttribute("aria-expanded", String(!$("history").hidden));
}
