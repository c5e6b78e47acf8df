// What opens over the table: the pay table and rules, the hint, the keys and the log-in
// dialog.
import { api } from "./api.js";
import { $, escape, info, money, say, state } from "./state.js";
import { renderButtons } from "./controls.js";

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

function showHint(html) {
  $("hint-box").innerHTML = `<span>${html}</span> <button type="button" id="hint-close">Dismiss</button>`;
  $("hint-close").onclick = hideHint;
  $("hint-box").hidden = false;
}

// each option's expected value; a first hint can take a while, so the box says it is
// working, and Dismiss gives up on it
export async function hint() {
  if (state.hinting) return;
  const asked = new AbortController();
  state.hinting = asked;
  renderButtons();
  showHint("Working out the expected values…");
  try {
    const options = await api(`/api/rounds/${state.round.id}/hint`, undefined, asked.signal);
    if (state.hinting !== asked) return;
    showHint("Expected value per Ante: " + options.map((o, i) => `${i === 0 ? "<strong>" : ""}${o.label} ${o.expected >= 0 ? "+" : ""}${o.expected.toFixed(4)}${i === 0 ? "</strong>" : ""}`).join(" · "));
  } catch (error) {
    if (state.hinting !== asked) return;
    $("hint-box").hidden = true;
    say(error.message);
  } finally {
    if (state.hinting === asked) {
      state.hinting = null;
      renderButtons();
    }
  }
}

export function hideHint() {
  $("hint-box").hidden = true;
  if (!state.hinting) return;
  state.hinting.abort();
  state.hinting = null;
  renderButtons();
}

// the keys, as at the terminal table; the decisions' keys are the ones the server's
// choices take (felt.js), listed here for every action a game may offer
export function showKeys() {
  const tables = [...$("games").children].map((button, i) => `${i + 1} ${escape(button.textContent)}`).join(", ");
  const rows = [
    [`1 to ${$("games").children.length}`, `Choose a table: ${tables}`],
    ["Tab, Shift+Tab", "Move between the controls"],
    ["↑ ↓", "Previous or next betting spot"],
    ["← →", "Smaller or bigger chip"],
    ["Enter, Space", "On a spot: add the chosen chip (at its maximum, clear it)"],
    ["Backspace, Delete", "On a spot: clear it"],
    ["d", "Deal (Bet at a shared table)"],
    ["g", "Quick Replay: the last round's wagers again"],
    ["f", "Fold"], ["p", "Play (the smallest Play, when it may be more)"], ["m", "The largest Play"],
    ["b", "Buy & Play; between rounds at a shared Crazy 4 table, the blind second position"],
    ["r", "Raise"],
    ["n", "New shoe (Baccarat, between coups)"],
    ["h", "Hint: each decision's expected value"],
    ["t", "Pay table and rules"],
    ["y", "History"],
    ["?", "These keys"],
    ["Escape", "Close what is open"],
  ];
  $("keys-list").innerHTML = "<tr><th scope=\"col\">Key</th><th scope=\"col\">Does</th></tr>" +
    rows.map(([key, does]) => `<tr><td><kbd>${key}</kbd></td><td>${does}</td></tr>`).join("");
  $("keys-help").showModal();
}

// the log-in dialog of a server with accounts; resolves once the player is in
export async function signIn() {
  $("login").showModal();
  return new Promise((resolve) => {
    $("login-form").onsubmit = async (event) => {
      event.preventDefault();
      const submit = $("login-form").querySelector("button");
      if (submit.disabled) return;
      submit.disabled = true;
      try {
        await api("/api/login", { name: $("login-name").value, password: $("login-password").value });
        $("login").close();
        resolve();
      } catch (error) { $("login-error").textContent = error.message; } finally { submit.disabled = false; }
    };
  });
}
