// riverboat's table in the browser. The server decides everything: legal choices,
// chip placement (R2), payouts; this page shows what it is told.
"use strict";

const state = { games: [], game: null, wagers: {}, chip: 500, round: null, last: {}, session: { rounds: 0, net: 0 } };
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
  if (!response.ok) throw new Error(data.error || data.detail || response.statusText);
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

function info() { return state.games.find((g) => g.game === state.game); }

function renderGames() {
  $("games").innerHTML = "";
  for (const game of state.games) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = game.title;
    button.setAttribute("aria-current", String(game.game === state.game));
    button.onclick = () => selectGame(game.game);
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
  const dealerKey = state.game === "baccarat" ? "banker" : "dealer";
  const playerCards = round ? [...(round.cards.player || []), ...(round.cards.rabbit || [])] : [];
  const dealerCards = round ? round.cards[dealerKey] || [] : [];
  const hidden = round ? round.face_down : 0;
  showCards($("player"), playerCards);
  showCards($("dealer"), dealerCards, hidden);
  $("dealer-title").textContent = state.game === "baccarat" ? "Banker" : "Dealer";
  $("player-title").textContent = state.game === "baccarat" ? "Player" : "You";
  const open = round && round.status === "open";
  $("deal").disabled = !!open;
  $("replay").disabled = !!open || !state.last[state.game];
  $("hint").disabled = !open;
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
  $("roads").hidden = state.game !== "baccarat";
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
    state.session.net += Object.values(round.result).reduce((a, b) => a + b, 0);
  }
  loadHistory();
}

async function deal(replay) {
  $("hint-box").hidden = true;
  try {
    state.round = replay
      ? await api(`/api/games/${state.game}/replay`, { idempotency_key: crypto.randomUUID() })
      : await api("/api/rounds", { game: state.game, wagers: state.wagers, idempotency_key: crypto.randomUUID() });
    state.last[state.game] = { ...state.round.wagers };
    state.wagers = { ...state.round.wagers };
    say(state.round.status === "open" ? "Your decision." : "");
    if (state.round.status !== "open") finished(state.round);
  } catch (error) { say(error.message); }
  renderSpots();
  renderRound();
  refreshBalance();
}

async function decide(action, amount) {
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
  const first = round.record.rules.decks ? 1 + burn : 0, drawn = round.record.cards_drawn;
  const places = round.shared ? round.places : drawn.map((_, i) => first + i);
  const same = drawn.every((card, i) => places[i] < size && order[places[i]] % 52 === card);
  const where = round.shared ? ` at places ${places.join(", ")} of the table's ${size > 52 ? "shoe" : "deck"}` : "";
  return same ? `verified in your browser: the seed matches its commitment and the cards come from the seeds${where}` : "the cards are not the ones the seeds give";
}

async function loadHistory() {
  const rounds = await api("/api/history?limit=60");
  $("rounds").innerHTML = rounds.slice(0, 20).map((r) => {
    const net = r.balance_after === null ? "" : money(r.balance_after - r.balance_before);
    return `<li>#${r.id} ${r.game} ${r.status} ${net}<br><code>commitment ${r.commitment}</code>` +
      (r.server_seed ? `<br><code>seed ${r.server_seed} · client ${escape(r.client_seed)} · nonce ${r.nonce}</code>` +
        ` <button type="button" class="verify" data-round="${r.id}">Verify</button> <span class="verdict"></span>` : "") + "</li>";
  }).join("");
  for (const button of document.querySelectorAll("#rounds .verify")) {
    const round = rounds.find((r) => String(r.id) === button.dataset.round);
    button.onclick = async () => { button.nextElementSibling.textContent = await verifyRound(round); };
  }
  const coups = rounds.filter((r) => r.totals).reverse().map(({ totals: [p, b] }) => (p > b ? "P" : b > p ? "B" : "T"));
  $("bead").innerHTML = coups.map((c) => `<span class="${c}">${c}</span>`).join("");
  const columns = [];
  for (const c of coups.filter((x) => x !== "T")) {
    if (columns.length && columns.at(-1)[0] === c && columns.at(-1).length < 6) columns.at(-1).push(c); else columns.push([c]);
  }
  $("big").innerHTML = columns.map((col) => col.map((c) => `<span class="${c}">${c}</span>`).join("") + "<span></span>".repeat(6 - col.length)).join("");
}

async function selectGame(name) {
  state.game = name;
  state.round = await api(`/api/games/${name}/open`).catch(() => null);  // a round left open
  state.wagers = state.last[name] ? { ...state.last[name] } : {};
  $("logo").textContent = info().title;
  renderGames();
  renderSpots();
  renderRound();
  if (state.round) {
    state.wagers = { ...state.round.wagers };
    renderSpots();
    say("Your round is still open: your decision.");
  } else say("Tap a spot to place the selected chip; press and hold to clear it.");
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
  $("logo").onclick = payTable;
  $("history-toggle").onclick = () => { $("history").hidden = !$("history").hidden; };
  await selectGame("rabbit-hunter");
  await refreshBalance();
  await loadHistory();
}

start().catch((error) => say(error.message));
