// Fairness: the house's commitment shown before a deal (on the table, a one-line
// indicator that opens the fairness drawer), the player's own client seed, and checking
// a finished round in the browser (verify.js), independently of the server.
import { api } from "./api.js";
import { $, state } from "./state.js";
import { commitmentShown } from "./actions.js";
import { openFairness, showInDrawer } from "./fairness-drawer.js";

export { openFairness } from "./fairness-drawer.js";
export { verifyRound } from "./verify.js";

// a client seed of the player's own, drawn here after the house showed its commitment
export const clientSeed = () => Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");

// No commitment is known for the next deal (another table was chosen, or the one shown
// was spent on a deal): a deal fetches and shows one before it draws its client seed.
export function forgetCommitment() {
  commitmentShown(null, false);
}

let asked = 0;

// the commitment to the next round's server seed, shown before the player's seed is drawn;
// the line shown stays until the next one replaces it, and an answer for a table left
// since, or overtaken by a later ask, is dropped
export async function showCommitment() {
  const ask = ++asked, game = state.game;
  if (state.shared) {
    forgetCommitment();
    $("new-shoe").hidden = true;
    showIndicator(null);
    return;
  }
  const { commitment, shoe_in_play } = await api(`/api/games/${game}/commitment`);
  if (ask !== asked || state.game !== game || state.shared) return;
  commitmentShown(commitment, shoe_in_play);
  $("new-shoe").hidden = !shoe_in_play;
  showIndicator(commitment);
  showInDrawer();
}

const SHIELD = `<svg class="shield" viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path d="M12 2 4 5v6c0 5 3.4 9.4 8 11 4.6-1.6 8-6 8-11V5z" fill="currentColor"/>` +
  `<path d="m8 12 3 3 5-6" fill="none" stroke="#0d3b22" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/></svg>`;

// the table's one line: a shield, "Provably fair" and the commitment's first digits,
// the whole commitment in its data and its name; a tap opens the drawer. Empty at a
// shared table, whose line shows the table's own commitment.
/** @param {string | null} commitment */
function showIndicator(commitment) {
  const line = document.getElementById("fair-line");
  if (!line) return;
  line.dataset.commitment = commitment || "";
  if (!commitment) {
    line.replaceChildren();
    return;
  }
  let button = /** @type {HTMLButtonElement | null} */ (line.tagName === "BUTTON" ? line : line.querySelector(".fair-chip"));
  if (!button) {
    button = document.createElement("button");
    button.type = "button";
    button.className = "fair-chip";
    line.replaceChildren(button);
  }
  button.setAttribute("aria-haspopup", "dialog");
  button.setAttribute("aria-keyshortcuts", "v");
  button.title = `Provably fair: the next deal's commitment, SHA-256 ${commitment}`;
  button.setAttribute("aria-label", `Provably fair. The next deal's commitment, SHA-256 ${commitment.slice(0, 8)}… Details and Verify`);
  button.innerHTML = `${SHIELD}<span class="fair-text">Provably fair · SHA-256 ${commitment.slice(0, 8)}…</span>`;
  button.onclick = openFairness;
}

