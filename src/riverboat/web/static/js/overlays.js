// What opens over or beside the table: the pay table and rules, the hint, the history
// of rounds (with Verify on each), and the log-in dialog.
import { api } from "./api.js";
import { $, escape, info, money, say, state } from "./state.js";
import { verifyRound } from "./fairness.js";
import { drawRoads } from "./roads.js";

export function payTable() {
  const game = info();
  const edge = game.house_edge === null ? "being computed…" : (game.house_edge * 100).toFixed(4) + "% per initial wager (optimal play, required wagers)";
  let html = `<h2>${game.title}</h2><ul>${game.how_to_play.map((line) => `<li>${line}</li>`).join("")}</ul>` +
    `<p>House edge: ${edge}</p><h3>Wagers</h3><table>` +
    game.wagers.map((w) => `<tr><td>${w.label}</td><td>${money(w.minimum)} to ${money(w.maximum)}${w.required ? ", required" : ""}${w.equal_to ? `, equals the ${w.equal_to}` : ""}</td></tr>`).join("") + "</table>";
  for (const [name, rows] of Object.entries(game.pay_tables)) {
    html += `<h3>${name.replaceAll("_", " ")}</h3><table>` + rows.map(([hand, pays]) => `<tr><td>${hand}</td><td>${pays}</td></tr>`).join("") + "</table>";
  }
  $("paytable-body").innerHTML = html;
  $("paytable").showModal();
}

export async function hint() {
  try {
    const options = await api(`/api/rounds/${state.round.id}/hint`);
    $("hint-box").innerHTML = "Expected value per Ante: " + options.map((o, i) => `${i === 0 ? "<strong>" : ""}${o.label} ${o.expected >= 0 ? "+" : ""}${o.expected.toFixed(4)}${i === 0 ? "</strong>" : ""}`).join(" · ");
    $("hint-box").hidden = false;
  } catch (error) { say(error.message); }
}

export function hideHint() { $("hint-box").hidden = true; }

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
    button.onclick = async () => { button.nextElementSibling.textContent = await verifyRound(round); };
  }
  if (!state.shared) drawRoads(rounds.filter((r) => r.winner).reverse().map((r) => r.winner));
}

export function toggleHistory() { $("history").hidden = !$("history").hidden; }

// the log-in dialog of a server with accounts; resolves once the player is in
export async function signIn() {
  $("login").showModal();
  return new Promise((resolve) => {
    $("login-form").onsubmit = async (event) => {
      event.preventDefault();
      try {
        await api("/api/login", { name: $("login-name").value, password: $("login-password").value });
        $("login").close();
        resolve();
      } catch (error) { $("login-error").textContent = error.message; }
    };
  });
}
