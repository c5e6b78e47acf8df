// Shared tables: a seat over the table's WebSocket, bets and decisions sent to it, and
// the seats, clock and coups it reports (the seats and the felt's clock: seats.js).
import { $, $input, info, say, state, tableKey } from "./state.js";
import { roundShown, tableSnapshot, wagersDealt } from "./actions.js";
import { clientSeed } from "./fairness.js";
import { finished, refreshBalance } from "./bank.js";
import { drawRoads } from "./roads.js";
import { cue } from "./sound.js";
import { clearCompany, drawCompany } from "./seats.js";
import { ROUND, PHASE } from "./states.js";

/** @typedef {import("../../typing/api").SchemaTableMessage} TableMessage */
/** @typedef {import("./state.js").RoundView} RoundView */

/** @type {WebSocket | null} the seat's connection to its table */
let socket = null;
/** @type {ReturnType<typeof setInterval> | undefined} */
let ticker;
let gotResult = false;  // this seat's own result came before the coup every seat sees

/** The close code of a table connection refused or ended for want of a session (the
 * server's CLOSE_LOG_IN): the page asks the player to log in, then sits them again. */
export const CLOSE_LOG_IN = 4401;

/** @type {(table: string) => void} what the page does when the server asks for a log-in */
let logInAgain = () => {};

/** What to do when a table's connection closes for want of a session: `then(id)`
 * asks the player to log in, then sits them at the table `id` again.
 * @param {(table: string) => void} then */
export function onLogInAsked(then) { logInAgain = then; }

/** Sit at the shared table `id`. @param {string} id */
export function joinTable(id) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const joined = new WebSocket(`${scheme}://${location.host}/ws/tables/${id}`);
  socket = joined;
  joined.onmessage = (event) => { if (socket === joined) onTable(JSON.parse(event.data)); };
  joined.onclose = (event) => {
    if (socket !== joined) return;
    socket = null;
    if (event.code === CLOSE_LOG_IN) {
      say(`${event.reason || "log in first"}.`.replace(/^./, (c) => c.toUpperCase()), "refusal");  // the seat follows the log-in
      logInAgain(id);
      return;
    }
    say(event.reason || "The table's connection closed: choose the table again to sit back down.", "refusal");
  };
}

/** The action bar's clock pill is the spare: it shows only while the felt's clock ring
 * is off the screen (scrolled past, or under the header or the bar), so it never
 * covers the seats at the felt's foot while the ring already counts in view. */
export function setupSharedClock() {
  const header = document.querySelector("header.topbar"), bar = $("action-bar");
  const spare = (/** @type {boolean} */ ringInView) => $("clock").classList.toggle("clock--spare", ringInView);
  let watching = /** @type {IntersectionObserver | null} */ (null);
  const watch = () => {
    if (watching) watching.disconnect();
    const top = header ? header.getBoundingClientRect().height : 0, bottom = bar.getBoundingClientRect().height;
    watching = new IntersectionObserver((entries) => spare(entries[entries.length - 1].isIntersecting), {
      rootMargin: `-${Math.round(top)}px 0px -${Math.round(bottom)}px 0px`, threshold: 1,
    });
    watching.observe($("table-clock"));
  };
  watch();
  addEventListener("resize", watch);  // the header and the bar change height with the width
}

export function leaveTable() {
  if (socket) { const closing = socket; socket = null; closing.close(); }
  tableSnapshot(null);
  clearInterval(ticker);
  $("clock").hidden = true;
  clearCompany();
}

/** @param {object} message */
export function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  else say("Not connected to the table: choose it again.", "refusal");
}

/** The same wagers again on a second position, played blind, where the game has one (C8).
 * @param {import("./state.js").Wagers} wagers */
export const blindWagers = (wagers) => (info().blind_play !== null && $input("blind-toggle").checked ? wagers : null);

/** A bet for the next deal (`replay`: the last wagers again). @param {boolean} replay */
export function bet(replay) {
  const wagers = replay ? state.last[tableKey()] : state.wagers;
  if (!wagers) return;
  const second = blindWagers(wagers);
  wagersDealt(wagers);
  // a fresh client seed with every bet, sent after the deal's commitment was shown
  send({ type: "bet", wagers, second, client_seed: clientSeed() });
}

/** @param {TableMessage} message */
function onTable(message) {
  if (message.type === "table") {  // the round's sentence is not said again with each snapshot
    tableSnapshot(message);
    renderSeats();
    return;
  } else if (message.type === "dealt") {
    roundShown(message.round);
    cue("deal");
    say("Your decision: the dealer shows when every seat has decided.");
  } else if (message.type === "decided") {
    if (state.round) roundShown({ ...state.round, choices: [] });
    say(message.waiting ? `${message.action}: waiting for ${message.waiting} more seat(s).` : `${message.action}.`);
  } else if (message.type === "result") {
    roundShown(message.round);
    gotResult = true;
    finished(message.round);
    refreshBalance();
  } else if (message.type === "coup") {  // every seat sees the coup; a bettor also their result
    if (!gotResult) {
      const [p, b] = message.totals || [], [first, second] = info().hands;
      const outcome = message.winner === "Tie" ? "a tie" : `${message.winner} wins`;
      const description = `${first.title} ${p}, ${second.title} ${b}: ${outcome}.`;
      roundShown(/** @type {RoundView} */ (/** @type {unknown} */ ({ cards: message.cards, status: ROUND.settled, face_down: 0, choices: [], description, totals: message.totals, winner: message.winner })));
      say(description, "result");
    }
    gotResult = false;
  } else if (message.type === "error") {
    say(message.error || message.message, message.code === "note" ? "info" : "refusal");
  }
}

function renderSeats() {
  const table = state.table;
  if (!table) return;
  drawCompany(table);  // the seats around the felt, its clock, who came and went
  const shoe = table.shoe && table.shoe.cards_left ? ` · ${table.shoe.cards_left} cards left in the shoe` : "";
  // the commitment shortened, so the line never breaks inside it on a phone; the
  // fairness drawer (v) shows it in full, with Copy
  // (none when the next deal could not be made: its database was out of reach)
  const line = $("table-line"), commitment = table.commitment;
  line.textContent = commitment ? `commitment SHA-256 ${commitment.slice(0, 8)}…${shoe}` : `commitment pending${shoe}`;
  line.title = commitment ? `commitment ${commitment}` : "";
  // the clock sits in the action bar, in view beside Bet and the decisions
  const closes = Date.now() + (table.seconds_left || 0) * 1000;
  const tick = () => {
    const left = Math.max(0, Math.round((closes - Date.now()) / 1000));
    $("clock").textContent = table.phase === PHASE.betting ? `Betting closes in ${left} s` : `Decisions close in ${left} s`;
  };
  clearInterval(ticker);
  if (table.phase === PHASE.closed) {  // a showdown could not be written: void and refund pending
    $("clock").textContent = "Betting is closed until the last round is voided and refunded";
    $("clock").hidden = false;
    return;
  }
  $("clock").hidden = table.seconds_left === null;
  if (table.seconds_left !== null) {
    tick();
    ticker = setInterval(tick, 1000);
  }
  if (table.shoe) drawRoads(table.shoe.roads);  // this shoe's, empty at a new shoe
}
