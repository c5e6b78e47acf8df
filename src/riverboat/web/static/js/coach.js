// The coach: with its switch on (in the table menu, or key c; off at first, remembered),
// each decision at a table of one's own is weighed by the server against the best option
// for the hand (GET /api/rounds/{id}/coach, from the instant hint): a verdict line by the
// decisions says in the round's dollars whether it was the best play and, if not, how
// much better the best one does on average, with the figures behind a Details tap; the
// table menu keeps this visit's tally in dollars.
import { api } from "./api.js";
import { about, details } from "./advice.js";
import { $, $input, escape, say, state, tableKey } from "./state.js";
import { verdictGiven } from "./actions.js";
import { ROUND } from "./states.js";

const SWITCH = "riverboat-coach", TALLY = "riverboat-coach-session";
const tally = JSON.parse(sessionStorage.getItem(TALLY) || "null") || { decisions: 0, best: 0, cents: 0 };

export const coaching = () => localStorage.getItem(SWITCH) === "on";

export function setupCoach() {
  $input("coach-toggle").checked = coaching();
  $input("coach-toggle").onchange = () => {
    localStorage.setItem(SWITCH, $input("coach-toggle").checked ? "on" : "off");
    drawVerdict();
    renderTally();
  };
  renderTally();
}

// key c: the switch turned, and said in the message line
export function toggleCoach() {
  $("coach-toggle").click();
  say(coaching()
    ? "Coach on: after each decision it says whether it was the best play, and what another cost."
    : "Coach off.");
}

// the same words as the terminal's (riverboat.table.advice.tally_words)
function renderTally() {
  const { decisions, best, cents } = tally;
  const counted = decisions === 1 ? "1 decision" : `${decisions} decisions`;
  const said = !decisions ? "No decisions weighed yet."
    : best === decisions ? `${counted}, ${decisions === 1 ? "the" : "all the"} best play.`
    : `${counted}, ${Math.round((100 * best) / decisions)}% best; on average the others cost ${about(cents)} in all.`;
  $("coach-session").textContent = `This visit: ${said}`;
}

// a decision function that, with the coach on, asks for its verdict once it is answered
// (a refused decision leaves the round open and is not weighed)
/** @typedef {(action: string, amount: number | null) => Promise<void>} Decide */
/**
 * @param {Decide} decide
 * @returns {Decide}
 */
export function coached(decide) {
  return async (action, amount) => {
    const round = state.round, table = tableKey();
    await decide(action, amount);
    const done = state.round;
    if (!coaching() || state.shared || !round || !done || done.id !== round.id || done.status === ROUND.open) return;
    const query = new URLSearchParams({ action });
    if (amount !== null && amount !== undefined) query.set("amount", String(amount));
    try {
      const verdict = await api(`/api/rounds/${round.id}/coach?${query}`);
      Object.assign(tally, {
        decisions: tally.decisions + 1, best: tally.best + (verdict.best ? 1 : 0),
        cents: tally.cents + verdict.ev_cost_cents,
      });
      sessionStorage.setItem(TALLY, JSON.stringify(tally));
      if (tableKey() === table) verdictGiven({ table, round: round.id, best: verdict.best, text: verdict.text, details: verdict.details || "" });
      renderTally();
    } catch (error) {
      if (tableKey() === table) verdictGiven({ table, round: round.id, best: false, text: `No verdict: ${/** @type {Error} */ (error).message}`, details: "" });
    }
  };
}

/** The verdict line: shown only at the table, and for the round, it speaks of (a
 * verdict never follows the player to another table or past the next deal). */
export function drawVerdict() {
  const line = $("coach-line"), verdict = state.verdict, round = state.round;
  const here = !!verdict && coaching() && verdict.table === tableKey() && !!round && round.id === verdict.round;
  line.hidden = !here;
  if (!here || !verdict) { line.replaceChildren(); return; }
  line.innerHTML = `<span class="coach-mark" aria-hidden="true">${verdict.best ? "✓" : "✗"}</span> ` +
    `<span>${escape(verdict.text)}</span>` + (verdict.details ? details(verdict.details) : "");
  line.classList.toggle("coach-best", !!verdict.best);
}
