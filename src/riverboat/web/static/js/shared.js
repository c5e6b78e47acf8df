// Shared tables: a seat over the table's WebSocket, bets and decisions sent to it, and
// the seats, clock and coups it reports.
import { $, escape, info, money, say, state, tableKey } from "./state.js";
import { clientSeed } from "./fairness.js";
import { finished, refreshBalance } from "./bank.js";
import { renderRound, renderSpots } from "./render.js";
import { drawRoads } from "./roads.js";
import { cue } from "./sound.js";

export function joinTable(game) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${game}`);
  state.socket = socket;
  socket.onmessage = (event) => { if (state.socket === socket) onTable(JSON.parse(event.data)); };
  socket.onclose = (event) => {
    if (state.socket !== socket) return;
    state.socket = null;
    say(event.reason || "The table's connection closed: choose the table again to sit back down.");
  };
}

export function leaveTable() {
  if (state.socket) { const socket = state.socket; state.socket = null; socket.close(); }
  state.table = null;
  clearInterval(state.ticker);
  $("clock").hidden = true;
}

export function send(message) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify(message));
  else say("Not connected to the table: choose it again.");
}

// the same wagers again on a second position, played blind, where the game has one (C8)
export const blindWagers = (wagers) => (info().blind_play !== null && $("blind-toggle").checked ? wagers : null);

export function bet(replay) {
  const wagers = replay ? state.last[tableKey()] : state.wagers;
  const second = blindWagers(wagers);
  state.last[tableKey()] = { ...wagers };
  state.wagers = { ...wagers };
  renderSpots();
  // a fresh client seed with every bet, sent after the deal's commitment was shown
  send({ type: "bet", wagers, second, client_seed: clientSeed() });
}

function onTable(message) {
  if (message.type === "table") {
    state.table = message;
    renderSeats();
  } else if (message.type === "dealt") {
    state.round = message.round;
    cue("deal");
    say("Your decision: the dealer shows when every seat has decided.");
  } else if (message.type === "decided") {
    state.round = { ...state.round, choices: [] };
    say(message.waiting ? `${message.action}: waiting for ${message.waiting} more seat(s).` : `${message.action}.`);
  } else if (message.type === "result") {
    state.round = message.round;
    state.gotResult = true;
    finished(message.round);
    refreshBalance();
  } else if (message.type === "coup") {  // every seat sees the coup; a bettor also their result
    if (!state.gotResult) {
      const [p, b] = message.totals, [first, second] = info().hands;
      const outcome = message.winner === "Tie" ? "a tie" : `${message.winner} wins`;
      state.round = { cards: message.cards, status: "settled", face_down: 0, choices: [], description: `${first.title} ${p}, ${second.title} ${b}: ${outcome}.` };
    }
    state.gotResult = false;
  } else if (message.type === "error") {
    say(message.error || message.message);
    return;
  }
  renderRound();
}

function renderSeats() {
  const table = state.table;
  $("seats").innerHTML = table.seats.map((seat) => {
    const chips = seat.staked ? ` · ${money(seat.staked)}${seat.second ? " (2 hands)" : ""}` : "";
    const mark = seat.in_round ? (seat.decided ? " · decided" : " · deciding") : seat.staked ? " · bet" : "";
    return `<li class="${seat.you ? "you" : ""}">${escape(seat.you ? `You (${seat.name})` : seat.name)}${chips}${mark}</li>`;
  }).join("") + `<li>${table.seats_free} seat(s) free</li>`;
  const shoe = table.shoe && table.shoe.cards_left ? ` · ${table.shoe.cards_left} cards left in the shoe` : "";
  // the commitment shortened, so the line never breaks inside it on a phone; the
  // fairness drawer (v) shows it in full, with Copy
  const line = $("table-line");
  line.textContent = `commitment SHA-256 ${table.commitment.slice(0, 8)}…${shoe}`;
  line.title = `commitment ${table.commitment}`;
  // the clock sits in the action bar, in view beside Bet and the decisions
  const closes = Date.now() + (table.seconds_left || 0) * 1000;
  const tick = () => {
    const left = Math.max(0, Math.round((closes - Date.now()) / 1000));
    $("clock").textContent = table.phase === "betting" ? `Betting closes in ${left} s` : `Decisions close in ${left} s`;
  };
  clearInterval(state.ticker);
  if (table.phase === "closed") {  // a showdown could not be written: void and refund pending
    $("clock").textContent = "Betting is closed until the last round is voided and refunded";
    $("clock").hidden = false;
    return;
  }
  $("clock").hidden = table.seconds_left === null;
  if (table.seconds_left !== null) {
    tick();
    state.ticker = setInterval(tick, 1000);
  }
  if (table.shoe) drawRoads(table.shoe.roads);  // this shoe's, empty at a new shoe
}
