// A finished round replayed step by step from its record: wagers placed, the deal, each
// decision, a card drawn after it (the rabbit), the settlement. Previous and Next (or
// ← and →) walk the steps; each shows the hands as they lay and the money so far.
import { $, $button, escape, gameOf, money } from "./state.js";
import { openSheet, sheet, sheetBody } from "./sheet.js";
import { coupInWords, outcome, replaySteps, signed } from "./record.js";
import { handsHtml } from "./minicards.js";

/** @typedef {import("./state.js").GameInfo} GameInfo */
/** @typedef {import("./record.js").PastRound} PastRound */
/** @typedef {import("./record.js").RoundRecord} RoundRecord */
/** @typedef {import("./record.js").Step} Step */
/** A round of /api/history that has its record. @typedef {PastRound & { record: RoundRecord }} RecordedRound */

/** The round replayed, its game, its steps and the step shown. @type {{ round: RecordedRound | null, game: GameInfo | null, steps: Step[], at: number }} */
const view = { round: null, game: null, steps: [], at: 0 };

function drawer() {
  const dialog = sheet("round-replay", "Replay");
  const body = sheetBody(dialog);
  if (!body.childElementCount) {
    body.innerHTML = `<p id="replay-round" class="replay-round-line"></p>` +
      `<ol id="replay-steps" class="replay-steps" aria-label="Steps"></ol>` +
      `<div id="replay-step" class="replay-step" aria-live="polite"></div>` +
      `<div id="replay-felt" class="replay-felt"></div>` +
      `<p id="replay-money" class="replay-money"></p>` +
      `<p class="replay-nav"><button type="button" id="replay-prev" aria-keyshortcuts="ArrowLeft">← Previous</button>` +
      `<button type="button" id="replay-next" class="primary" aria-keyshortcuts="ArrowRight">Next →</button></p>`;
    $("replay-prev").onclick = () => go(-1);
    $("replay-next").onclick = () => go(1);
    document.addEventListener("keydown", (event) => {
      if (!dialog.open || (event.key !== "ArrowLeft" && event.key !== "ArrowRight")) return;
      if (document.querySelector("dialog[open]:not(#round-replay)") && !dialog.contains(document.activeElement)) return;
      event.preventDefault();
      go(event.key === "ArrowRight" ? 1 : -1);
    });
  }
  return dialog;
}

/** @param {number} by steps forward (1) or back (-1) */
function go(by) {
  view.at = Math.max(0, Math.min(view.steps.length - 1, view.at + by));
  draw();
  // a button that can go no further hands the focus to the other
  const focus = /** @type {HTMLButtonElement | null} */ (document.activeElement), other = $button(by > 0 ? "replay-prev" : "replay-next");
  if ((!focus || focus === document.body || focus.disabled) && !other.disabled) other.focus();
}

function draw() {
  const step = view.steps[view.at], round = view.round, game = view.game;
  if (!round || !game) return;  // nothing opened yet
  $("replay-steps").innerHTML = view.steps.map((s, i) =>
    `<li class="${i === view.at ? "now" : i < view.at ? "done" : ""}" data-kind="${s.kind}"${i === view.at ? ' aria-current="step"' : ""}>${escape(s.title)}</li>`).join("");
  $("replay-step").dataset.kind = step.kind;
  const coup = step.kind === "settle" ? coupInWords(game, round) : "";
  $("replay-step").innerHTML = `<strong>Step ${view.at + 1} of ${view.steps.length}: ${escape(step.title)}</strong>` +
    (coup ? `<span>${escape(coup)}</span>` : "") + `<span>${escape(step.detail)}</span>`;
  $("replay-felt").innerHTML = handsHtml(round.game, step.hands, { faceDown: step.faceDown, size: "normal" }) ||
    `<span class="replay-empty">No cards yet</span>`;
  const change = step.kind === "settle" ? `Net <strong class="net ${outcome(step.change)}">${signed(step.change)}</strong>`
    : step.over ? "Nothing won or lost" : `In play ${money(step.staked)} · balance change so far <strong class="net ${outcome(step.change)}">${signed(step.change)}</strong>`;
  $("replay-money").innerHTML = change;
  $button("replay-prev").disabled = view.at === 0;
  $button("replay-next").disabled = view.at === view.steps.length - 1;
}

// open the replay of `round` (an entry of /api/history with its record), at its first step
/** @param {RecordedRound} round */
export function openReplay(round) {
  const game = gameOf(round.game);
  if (!game) throw new Error(`no game ${round.game} among the server's`);
  const dialog = drawer();
  view.round = round;
  view.game = game;
  view.steps = replaySteps(game, round.record);
  view.at = 0;
  $("replay-round").textContent = `${game.title} · round #${round.id}`;
  draw();
  openSheet(dialog);
  $("replay-next").focus();
}
