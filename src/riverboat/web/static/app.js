// riverboat's table in the browser. The server decides everything: legal choices,
// chip placement (R2), payouts; this page shows what it is told.
"use strict";

const state = { games: [], game: null, wagers: {}, chip: 500, round: null, last: {}, session: { rounds: 0, net: 0 },
  shared: false, socket: null, table: null, gotResult: false };
const tableKey = () => (state.shared ? `${state.game}:shared` : state.game);
const $ = (id) => document.getElementById(id);
const money = (cents) => (cents < 0 ? "-$" : "$") + (Math.abs(cents) / 100).toLocaleString(undefined, { minimumFractionDigits: Math.abs(cents) % 100 ? 2 : 0 });
const escape = (text) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const csrf = () => (document.cookie.match(/riverboat_csrf=([^;]+)/) || [])[1] || "";

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf() }, body: JSON.stringify(body),
  };
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);  // {error, code}: docs/web.md
  return data;
}

const SUITS = { c: ["♣", "#111"], d: ["♦", "#c00"], h: ["♥", "#c00"], s: ["♠", "#111"] };
function cardSvg(name, delay) {
  const svg = name
    ? (() => {
        const rank = name[0] === "T" ? "10" : name[0];
        const [suit, colour] = SUITS[name[1]];
        return `<svg class="card" viewBox="0 0 60 84" role="img" aria-label="${name}" style="animation-delay:${delay}ms">
          <rect x="1" y="1" width="58" height="82" rx="6" fill="#fffdf7" stroke="#999"/>
          <text x="6" y="18" font-size="15" font-weight="bold" fill="${colour}">${rank}</text>
          <text x="6" y="32" font-size="14" fill="${colour}">${suit}</text>
          <text x="30" y="58" font-size="30" text-anchor="middle" fill="${colour}">${suit}</text></svg>`;
      })()
    : `<svg class="card" viewBox="0 0 60 84" role="img" aria-label="face down" style="animation-delay:${delay}ms">
          <rect x="1" y="1" width="58" height="82" rx="6" fill="#7a1f2b" stroke="#e8c35a"/>
          <path d="M8 8h44v68H8z" fill="none" stroke="#e8c35a" stroke-dasharray="3 3"/></svg>`;
  return svg;
}

function showCards(element, cards, hidden = 0) {
  element.innerHTML = cards.map((c, i) => cardSvg(c, i * 60)).join("") + Array.from({ length: hidden }, (_, i) => cardSvg(null, (cards.length + i) * 60)).join("");
}

// a game's info and shape (its spec, from /api/games); the page never asks which game it is
function gameOf(name) { return state.games.find((g) => g.game === name); }
function info() { return gameOf(state.game); }

// where a game's hands go on the table: the first hand (the player's, or Baccarat's
// Player side) with the hands a decision deals (the rabbit) on one side; the house's
// hand, or else the other hand, on the other; a blind second position's hand keyed
// "seat:blind" (C8)
function layout(game) {
  const mine = game.hands[0];
  const other = game.hands.find((h) => h.house) || game.hands.find((h) => h !== mine && !h.dealt_on);
  const drawn = game.hands.filter((h) => h.dealt_on);
  return { mine, other, drawn, blind: game.blind_play === null ? null : `${mine.name}:blind` };
}

function renderGames() {
  $("games").innerHTML = "";
  const tables = [...state.games.map((g) => [g, false]), ...state.games.filter((g) => g.shared).map((g) => [g, true])];
  for (const [game, shared] of tables) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = shared ? `${game.title} · shared` : game.title;
    button.setAttribute("aria-current", String(game.game === state.game && shared === state.shared));
    button.onclick = () => selectGame(game.game, shared);
    $("games").append(button);
  }
}

function renderSpots() {
  $("spots").innerHTML = "";
  for (const spot of info().wagers) {
    const element = document.createElement("button");
    element.type = "button";
    element.className = "spot";
    element.dataset.spot = spot.name;
    element.innerHTML = `<span>${spot.label}</span><strong>${money(state.wagers[spot.name] || 0)}</strong><small>${money(spot.minimum)}–${money(spot.maximum)}</small>`;
    // a tap adds the chip, press-and-hold clears (R2); a press must start on this spot
    let timer = null, pressed = false;
    element.addEventListener("pointerdown", () => {
      pressed = true;
      timer = setTimeout(() => { pressed = false; place(spot.name, true); }, 600);
    });
    element.addEventListener("pointerup", () => {
      clearTimeout(timer);
      if (pressed) place(spot.name, false);
      pressed = false;
    });
    element.addEventListener("pointerleave", () => { clearTimeout(timer); pressed = false; });
    $("spots").append(element);
  }
  $("chips").innerHTML = "";
  const colours = ["#888", "#c33", "#2a2", "#222", "#73c"];
  info().chips.forEach((chip, i) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "chip";
    button.style.background = colours[i % colours.length];
    button.textContent = "$" + chip / 100;
    button.setAttribute("aria-pressed", String(chip === state.chip));
    button.onclick = () => { state.chip = chip; renderSpots(); };
    $("chips").append(button);
  });
}

async function place(spot, hold) {
  if (state.round && state.round.status === "open") return;
  try {
    state.wagers = await api("/api/chips", { game: state.game, wagers: state.wagers, spot, chip: state.chip, hold });
    say("");
  } catch (error) { say(error.message); }
  renderSpots();
}

function say(text) { $("message").textContent = text; }

function renderRound() {
  const round = state.round;
  const { mine, other, drawn, blind } = layout(info());
  const playerCards = round ? [...(round.cards[mine.name] || []), ...drawn.flatMap((h) => round.cards[h.name] || [])] : [];
  const dealerCards = round ? round.cards[other.name] || [] : [];
  const blindCards = round && blind ? round.cards[blind] || [] : [];
  const blindDown = round && round.second && !blindCards.length ? mine.cards : 0;  // C8: shown at showdown
  const hidden = round ? round.face_down - blindDown : 0;
  showCards($("player"), playerCards);
  showCards($("dealer"), dealerCards, hidden);
  showCards($("blind"), blindCards, blindDown);
  $("blind-area").hidden = !blindCards.length && !blindDown;
  $("dealer-title").textContent = other.title;
  $("player-title").textContent = mine.title;
  const open = round && round.status === "open";
  const betting = !state.shared || (state.table && state.table.phase === "betting");
  $("deal").textContent = state.shared ? "Bet" : "Deal";
  $("deal").disabled = !!open || !betting;
  $("replay").disabled = !!open || !betting || !state.last[tableKey()];
  $("blind-label").hidden = !blind;
  $("hint").disabled = !open || !info().options.length;
  $("choices").innerHTML = "";
  for (const choice of open ? round.choices : []) {
    const amounts = choice.maximum > choice.minimum ? [choice.minimum, choice.maximum] : [null];
    for (const amount of amounts) {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.action = choice.action;
      button.textContent = amount === null ? choice.label : `${choice.label} ${money(amount)}`;
      button.onclick = () => decide(choice.action, amount);
      $("choices").append(button);
    }
  }
  if (round && round.status !== "open") say(round.description);
  $("roads").hidden = !info().shoe;  // the bead plate and big road follow a shoe
}

async function refreshBalance() {
  const me = await api("/api/me");
  $("logout").hidden = !me.signed_in;
  $("balance").textContent = money(me.balance);
  $("stats").textContent = state.session.rounds ? `${state.session.rounds} rounds, ${money(state.session.net)}` : "";
}

function finished(round) {
  if (round.status === "settled") {
    state.session.rounds += 1;
    state.session.net += round.net;
  }
  loadHistory();
}

// a client seed of the player's own, drawn here after the house showed its commitment
const clientSeed = () => Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");

// the commitment to the next round's server seed, shown before the player's seed is drawn
async function showCommitment() {
  state.commitment = null;
  state.shoeInPlay = false;
  $("new-shoe").hidden = true;
  if (state.shared) { $("fair-line").textContent = ""; return; }
  const { commitment, shoe_in_play } = await api(`/api/games/${state.game}/commitment`);
  state.commitment = commitment;
  state.shoeInPlay = shoe_in_play;
  $("new-shoe").hidden = !shoe_in_play;
  $("fair-line").textContent = shoe_in_play
    ? `This shoe deals on from its seeds: SHA-256 ${commitment}; its seed shows when the cut card comes out.`
    : `Next deal: the house has committed to its seed, SHA-256 ${commitment}; your browser adds a seed of its own when you deal.`;
}

async function deal(replay) {
  $("hint-box").hidden = true;
  if (state.shared) return bet(replay);
  const client_seed = clientSeed(), shown = state.commitment, sealed = state.shoeInPlay;
  let fair = true;
  try {
    state.round = replay
      ? await api(`/api/games/${state.game}/replay`, { client_seed, idempotency_key: crypto.randomUUID() })
      : await api("/api/rounds", { game: state.game, wagers: state.wagers, second: blindWagers(state.wagers), client_seed, idempotency_key: crypto.randomUUID() });
    // the round must deal from the commitment shown and, unless a shoe deals on from
    // the seeds it has, from the client seed drawn here
    fair = state.round.commitment === shown && (sealed || state.round.client_seed === client_seed);
    state.last[state.game] = { ...state.round.wagers };
    state.wagers = { ...state.round.wagers };
    if (fair) say(state.round.status === "open" ? "Your decision." : "");
    if (state.round.status !== "open") finished(state.round);
  } catch (error) { say(error.message); }
  await showCommitment().catch(() => {});
  renderSpots();
  renderRound();
  if (!fair) say("Warning: this round's commitment or client seed is not the one shown and drawn here before the deal.");
  refreshBalance();
}

async function decide(action, amount) {
  if (state.shared) {
    send({ type: "decide", action, amount });
    return;
  }
  try {
    state.round = await api(`/api/rounds/${state.round.id}/actions`, { action, amount, idempotency_key: crypto.randomUUID() });
    $("hint-box").hidden = true;
    if (state.round.status !== "open") finished(state.round);
  } catch (error) { say(error.message); }
  renderRound();
  refreshBalance();
}

async function hint() {
  try {
    const options = await api(`/api/rounds/${state.round.id}/hint`);
    $("hint-box").innerHTML = "Expected value per Ante: " + options.map((o, i) => `${i === 0 ? "<strong>" : ""}${o.label} ${o.expected >= 0 ? "+" : ""}${o.expected.toFixed(4)}${i === 0 ? "</strong>" : ""}`).join(" · ");
    $("hint-box").hidden = false;
  } catch (error) { say(error.message); }
}

function payTable() {
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

// Check a finished round in the browser, independently of the server: SHA-256 of the
// seed against the commitment, then the deck from HMAC-SHA256(seed, "client:nonce:i")
// words, rejection sampling and Fisher-Yates (docs/fairness.md).
async function verifyRound(round) {
  const hex = (h) => Uint8Array.from(h.match(/../g).map((b) => parseInt(b, 16)));
  const seed = hex(round.server_seed);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", seed));
  const commitment = Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
  if (commitment !== round.commitment) return "the seed does not match the commitment";
  const key = await crypto.subtle.importKey("raw", seed, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  let block = 0, words = [];
  const word = async () => {
    if (!words.length) {
      const bytes = new Uint8Array(await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${round.client_seed}:${round.nonce}:${block++}`)));
      for (let i = 0; i < 32; i += 4) words.push(((bytes[i] << 24) >>> 0) + (bytes[i + 1] << 16) + (bytes[i + 2] << 8) + bytes[i + 3]);
    }
    return words.shift();
  };
  const shoe = gameOf(round.game).shoe;  // a shoe that lives across rounds (B1), or a fresh deck
  const size = 52 * (round.record.rules.decks || 1);
  const order = Array.from({ length: size }, (_, i) => i);
  for (let i = size - 1; i > 0; i--) {
    const bound = i + 1, limit = 2 ** 32 - (2 ** 32 % bound);
    let x = await word();
    while (x >= limit) x = await word();
    const j = x % bound;
    [order[i], order[j]] = [order[j], order[i]];
  }
  // a round of its own deals from the top, after a fresh shoe's burn (B1: the shown
  // card, then its value in cards); a shared table's round from the places it shows
  const rank = Math.floor((order[0] % 52) / 4), burn = rank === 12 ? 1 : Math.min(rank + 2, 10);
  const first = shoe ? 1 + burn : 0, drawn = round.record.cards_drawn;
  const coup = !!shoe;  // a run of its shoe, wherever the shoe stands
  const places = round.shared || coup ? round.places : drawn.map((_, i) => first + i);
  if (round.shared || coup) {
    const problem = sharedLayoutProblem(gameOf(round.game), places, size, first);
    if (problem) return problem;
  }
  const same = drawn.every((card, i) => places[i] < size && order[places[i]] % 52 === card);
  if (!same) return "the cards are not the ones the seeds give";
  let where = round.shared ? ` at places ${places.join(", ")} of the table's ${size > 52 ? "shoe" : "deck"}` : "";
  if (coup && !round.shared) {  // a shoe of one's own: its coups must run end to end (B1)
    const shoe = (await api(`/api/history?limit=200&commitment=${round.commitment}`)).sort((a, b) => a.id - b.id);
    let next = first;
    for (const c of shoe) {
      if (!c.places || c.places[0] !== next) return `coup #${c.id} of this shoe starts at place ${c.places ? c.places[0] : "?"}, not ${next}`;
      next = c.places.at(-1) + 1;
    }
    const to = size - next > round.record.rules.cut_card_from_end ? "to where it was ended" : "to the cut card";
    where = `, and the shoe's ${shoe.length} coups run end to end from the burn ${to}`;
  }
  return `verified in your browser: the seed matches its commitment and the cards come from the seeds${where}`;
}

// A shared round's places as the table lays them out (docs/fairness.md): from a shoe,
// a coup's run on after the shoe's burn; from a deck, a seat's hands are whole blocks
// of a hand's cards (Crazy 4: five) in a row, then the house's block after them.
function sharedLayoutProblem(game, places, size, afterBurn) {
  const run = (start, n) => Array.from({ length: n }, (_, i) => start + i);
  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  if (!places || !places.length || new Set(places).size !== places.length || places.some((p) => p < 0 || p >= size)) {
    return "the places are missing, repeated or outside the deal";
  }
  if (game.shoe) {
    return places[0] >= afterBurn && same(places, run(places[0], places.length)) ? null : "a coup's places must run on, unbroken, after the shoe's burn";
  }
  const block = layout(game).mine.cards, house = layout(game).other.cards;
  const mine = places.slice(0, -house), dealer = places.slice(-house);
  const ok = places.length % block === 0 && mine.length && places[0] % block === 0 && same(mine, run(places[0], mine.length)) &&
    dealer[0] % block === 0 && same(dealer, run(dealer[0], house)) && dealer[0] > mine.at(-1);
  return ok ? null : `a seat's places must be whole blocks of ${block} in a row, then the dealer's after`;
}

async function loadHistory() {
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

// Baccarat's bead plate (every coup) and big road (runs of Player or Banker wins),
// from the coups' winners as the server names them
function drawRoads(winners) {
  const coups = winners.map((side) => side[0]);
  $("bead").innerHTML = coups.map((c) => `<span class="${c}">${c}</span>`).join("");
  const columns = [];
  for (const c of coups.filter((x) => x !== "T")) {
    if (columns.length && columns.at(-1)[0] === c && columns.at(-1).length < 6) columns.at(-1).push(c); else columns.push([c]);
  }
  $("big").innerHTML = columns.map((col) => col.map((c) => `<span class="${c}">${c}</span>`).join("") + "<span></span>".repeat(6 - col.length)).join("");
}

async function selectGame(name, shared = false) {
  leaveTable();
  state.game = name;
  state.shared = shared;
  localStorage.setItem("riverboat-table", JSON.stringify({ game: name, shared }));  // back here after a reload
  state.round = shared ? null : await api(`/api/games/${name}/open`).catch(() => null);  // a round left open
  state.wagers = state.last[tableKey()] ? { ...state.last[tableKey()] } : {};
  $("logo").textContent = shared ? `${info().title} · shared` : info().title;
  $("shared").hidden = !shared;
  renderGames();
  renderSpots();
  renderRound();
  await showCommitment().catch((error) => say(error.message));  // a shared table shows its own
  if (shared) {
    joinTable(name);
    say("A shared table: place your wagers and Bet; the cards come when every seat has bet, or when betting time runs out.");
  } else if (state.round) {
    state.wagers = { ...state.round.wagers };
    renderSpots();
    say("Your round is still open: your decision.");
  } else say("Tap a spot to place the selected chip; press and hold to clear it.");
}

// ------------------------------------------------------------ shared tables
function joinTable(game) {
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

function leaveTable() {
  if (state.socket) { const socket = state.socket; state.socket = null; socket.close(); }
  state.table = null;
  clearInterval(state.ticker);
}

function send(message) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify(message));
  else say("Not connected to the table: choose it again.");
}

// the same wagers again on a second position, played blind, where the game has one (C8)
const blindWagers = (wagers) => (info().blind_play !== null && $("blind-toggle").checked ? wagers : null);

function bet(replay) {
  const wagers = replay ? state.last[tableKey()] : state.wagers;
  const second = blindWagers(wagers);
  state.last[tableKey()] = { ...wagers };
  state.wagers = { ...wagers };
  renderSpots();
  // a fresh client seed with every bet, sent after the deal's commitment was shown
  const seed = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");
  send({ type: "bet", wagers, second, client_seed: seed });
}

function onTable(message) {
  if (message.type === "table") {
    state.table = message;
    renderSeats();
  } else if (message.type === "dealt") {
    state.round = message.round;
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
  const closes = Date.now() + (table.seconds_left || 0) * 1000;
  const line = () => {
    const left = Math.max(0, Math.round((closes - Date.now()) / 1000));
    const when = table.seconds_left === null ? "" : table.phase === "betting" ? `betting closes in ${left} s · ` : `decisions close in ${left} s · `;
    $("table-line").textContent = `${when}commitment ${table.commitment}${shoe}`;
  };
  clearInterval(state.ticker);
  line();
  if (table.seconds_left !== null) state.ticker = setInterval(line, 1000);
  if (table.shoe) drawRoads(table.shoe.road);
}

async function signIn() {
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

async function start() {
  state.games = await api("/api/games");
  const response = await fetch("/api/me");
  if (response.status === 401) await signIn();
  $("logout").onclick = async () => { await api("/api/logout", {}); location.reload(); };
  $("deal").onclick = () => deal(false);
  $("replay").onclick = () => deal(true);
  $("hint").onclick = hint;
  $("new-shoe").onclick = async () => {  // its seed shows now; the next coup starts a new shoe
    let ended;
    try {
      ended = (await api(`/api/games/${state.game}/shoe/end`, {})).ended;
    } catch (error) {
      say(error.message);
      return;
    }
    say(ended
      ? "The shoe is done: its seed shows in History, and the next coup starts a new shoe."
      : "No shoe was in play: the next coup starts a new shoe.");
    await showCommitment().catch(() => {});
    loadHistory();
  };
  $("logo").onclick = payTable;
  $("history-toggle").onclick = () => { $("history").hidden = !$("history").hidden; };
  const last = JSON.parse(localStorage.getItem("riverboat-table") || "null");
  const known = last && gameOf(last.game) && (!last.shared || gameOf(last.game).shared);
  await selectGame(known ? last.game : state.games[0].game, known && last.shared);  // else the first game
  await refreshBalance();
  await loadHistory();
}

start().catch((error) => say(error.message));
