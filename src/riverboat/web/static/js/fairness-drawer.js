// The fairness drawer: the next deal's commitment in full (grouped, with Copy), what the
// client seed is, the last seed revealed, a Verify for each recent round, and how to
// check in plain words. The table's indicator (fairness.js), a History button or the
// `v` key opens it.
import { api } from "./api.js";
import { $, escape, gameOf, state } from "./state.js";
import { openSheet, sheet, sheetBody } from "./sheet.js";
import { verifyRound } from "./verify.js";

/** @typedef {import("./record.js").PastRound} PastRound */
/** @typedef {import("./verify.js").RevealedRound} RevealedRound */

const RECENT = 6;  // rounds with a Verify in the drawer

function drawer() {
  const dialog = sheet("fairness", "Provably fair");
  const body = sheetBody(dialog);
  if (!body.childElementCount) {
    body.innerHTML = `<section aria-labelledby="fair-next-title"><h3 id="fair-next-title">The next deal</h3><p id="fair-next-words"></p>` +
      `<p class="hash-line"><code id="fair-commitment" class="hash"></code> <button type="button" id="fair-copy">Copy</button></p></section>` +
      `<section aria-labelledby="fair-seed-title"><h3 id="fair-seed-title">Your seed</h3><p>When you deal, your browser draws a client seed of its own ` +
      `(16 random hex digits, from its secure random source) and sends it with the deal, after the house's commitment is on screen: ` +
      `the house cannot know it in advance, so it cannot pick a deck to suit it. <span id="fair-client"></span></p></section>` +
      `<section aria-labelledby="fair-last-title"><h3 id="fair-last-title">Recent rounds</h3><p id="fair-last"></p><ol id="fair-rounds" class="fair-rounds"></ol></section>` +
      `<section aria-labelledby="fair-how-title"><h3 id="fair-how-title">How to check</h3><ol class="fair-how">` +
      `<li>Before a deal the house shows the SHA-256 of a secret seed: its commitment. It cannot change the seed after that.</li>` +
      `<li>After the round (a Baccarat shoe: when the shoe ends) the house reveals the seed. Its SHA-256 must equal the commitment shown before.</li>` +
      `<li>The deck's order comes from HMAC-SHA256 of the seed over your client seed and the round's number (the nonce), shuffled by Fisher–Yates. ` +
      `The cards dealt must be the ones that order gives.</li>` +
      `<li>Verify does both checks here in your browser, without asking the server; the project's docs/fairness.md sets out the scheme to check it with any other tool.</li></ol></section>`;
    $("fair-copy").onclick = copyCommitment;
  }
  return dialog;
}

// the commitment the next deal uses: one's own table's, or the shared table's
const nextCommitment = () => (state.shared ? (state.table && state.table.commitment) || null : state.commitment);

// a hash in groups of eight, so it wraps between groups and never mid-group
/** @param {string} hash */
export const hashHtml = (hash) => (hash.match(/.{1,8}/g) || []).map((g) => `<span>${g}</span>`).join("");

async function copyCommitment() {
  const commitment = nextCommitment();
  if (!commitment) return;
  try {
    await navigator.clipboard.writeText(commitment);
    $("fair-copy").textContent = "Copied";
  } catch {  // no clipboard here: select it, for the system's own copy
    getSelection()?.selectAllChildren($("fair-commitment"));
    $("fair-copy").textContent = "Selected";
  }
  setTimeout(() => { $("fair-copy").textContent = "Copy"; }, 1500);
}

function drawNext() {
  const commitment = nextCommitment();
  $("fair-next-words").textContent = !commitment ? "The next commitment is on its way." : state.shared
    ? "This shared table's next deal: the house has committed to its seed, SHA-256:"
    : state.shoeInPlay
      ? "This shoe deals on from its seeds, committed to when it began, SHA-256 below; its seed shows when the cut card comes out or you start a new shoe."
      : "The house has committed to the seed of your next deal, SHA-256:";
  $("fair-commitment").innerHTML = commitment ? hashHtml(commitment) : "";
  $("fair-commitment").dataset.commitment = commitment || "";
  $("fair-copy").hidden = !commitment;
}

/** @param {PastRound} r */
function roundLine(r) {
  const game = gameOf(r.game);
  return `<li><span>Round #${r.id} · ${escape(game ? game.title : r.game)}</span> ` +
    `<button type="button" class="verify" data-round="${r.id}">Verify</button> <span class="verdict" role="status"></span></li>`;
}

async function drawRecent() {
  const rounds = /** @type {PastRound[]} */ (await api("/api/history?limit=40"))
    .filter(/** @returns {r is RevealedRound} */ (r) => !!(r.server_seed && r.record)).slice(0, RECENT);
  const last = rounds[0];
  $("fair-client").textContent = last ? `Your last round's client seed was ${last.client_seed}.` : "";
  $("fair-last").innerHTML = last
    ? `The last seed revealed (round #${last.id}): <code class="hash">${hashHtml(last.server_seed)}</code>`
    : "No round of yours has its seed revealed yet.";
  $("fair-rounds").innerHTML = rounds.map(roundLine).join("");
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ ($("fair-rounds").querySelectorAll(".verify"))) {
    const round = rounds.find((r) => String(r.id) === button.dataset.round);
    if (!round) continue;  // each button is one of these rounds'
    const verdict = /** @type {HTMLElement} */ (button.nextElementSibling);  // its .verdict
    button.onclick = async () => {
      button.disabled = true;
      try {
        verdict.textContent = await verifyRound(round);
      } catch (error) {
        verdict.textContent = /** @type {Error} */ (error).message;
      } finally { button.disabled = false; }
    };
  }
}

// the drawer's commitment again, when a new one comes while it is open
export function showInDrawer() {
  const dialog = /** @type {HTMLDialogElement | null} */ (document.getElementById("fairness"));
  if (dialog && dialog.open) drawNext();
}

export function openFairness() {
  const dialog = drawer();
  drawNext();
  openSheet(dialog);
  drawRecent().catch((error) => { $("fair-last").textContent = error.message; });
}
