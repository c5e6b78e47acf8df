// The felt: the table tabs, cards, the betting spots and chips, the hands and the
// decision buttons, all drawn from the game's spec. What a tap does is main.js's to
// say, through the handlers set in `on`.
import { $, info, layout, money, say, state, tableKey } from "./state.js";

export const on = { select: null, place: null, decide: null };

// the key of each decision the server offers, as at the terminal table; an action with
// no key here takes its first letter. Of two amounts (Crazy 4's Play with aces) the
// decision's key takes the smaller and `m` the largest.
export const DECISION_KEYS = { fold: "f", play: "p", buy: "b", raise: "r" };
export const LARGEST_KEY = "m";
export const decisionKey = (action) => DECISION_KEYS[action] || action[0];

// a part of the page drawn again keeps the keyboard's place: the control that had the
// focus (matched by `selector` and a data attribute) gets it back
function keepFocus(container, attribute, draw) {
  const had = container.contains(document.activeElement) ? document.activeElement.dataset[attribute] : undefined;
  draw();
  if (had === undefined) return;
  const again = [...container.children].find((element) => element.dataset[attribute] === had);
  if (again) again.focus();
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

export function renderGames() {
  keepFocus($("games"), "table", drawGames);
}

function drawGames() {
  $("games").innerHTML = "";
  const tables = [...state.games.map((g) => [g, false]), ...state.games.filter((g) => g.shared).map((g) => [g, true])];
  for (const [game, shared] of tables) {
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = shared ? `${game.title} · shared` : game.title;
    button.dataset.table = shared ? `${game.game}:shared` : game.game;
    button.setAttribute("aria-keyshortcuts", String($("games").children.length + 1));
    button.setAttribute("aria-current", String(game.game === state.game && shared === state.shared));
    button.onclick = () => on.select(game.game, shared);
    $("games").append(button);
  }
}

export function renderSpots() {
  keepFocus($("spots"), "spot", drawSpots);
  keepFocus($("chips"), "chip", drawChips);
}

function drawSpots() {
  $("spots").innerHTML = "";
  for (const spot of info().wagers) {
    const element = document.createElement("button");
    element.type = "button";
    element.className = "spot";
    element.dataset.spot = spot.name;
    const staked = money(state.wagers[spot.name] || 0);
    element.innerHTML = `<span>${spot.label}</span><strong>${staked}</strong><small>${money(spot.minimum)}–${money(spot.maximum)}</small>`;
    element.setAttribute("aria-label", `${spot.label}, ${staked}, limits ${money(spot.minimum)} to ${money(spot.maximum)}`);
    element.setAttribute("aria-keyshortcuts", "Enter Space Backspace Delete");
    // a tap adds the chip, press-and-hold clears (R2); a press must start on this spot
    let timer = null, pressed = false;
    element.addEventListener("pointerdown", () => {
      pressed = true;
      timer = setTimeout(() => { pressed = false; on.place(spot.name, true); }, 600);
    });
    element.addEventListener("pointerup", () => {
      clearTimeout(timer);
      if (pressed) on.place(spot.name, false);
      pressed = false;
    });
    element.addEventListener("pointerleave", () => { clearTimeout(timer); pressed = false; });
    // Enter or Space (or a screen reader's activation) makes a click with no pointer
    // behind it: the same as a tap; Backspace or Delete clears the spot, like a hold
    element.addEventListener("click", (event) => { if (event.detail === 0) on.place(spot.name, false); });
    element.addEventListener("keydown", (event) => {
      if (event.key !== "Backspace" && event.key !== "Delete") return;
      event.preventDefault();
      on.place(spot.name, true);
    });
    $("spots").append(element);
  }
}

function drawChips() {
  $("chips").innerHTML = "";
  // white figures on each colour at 4.5:1 or better (WCAG AA)
  const colours = ["#666", "#c33", "#1a7a1a", "#222", "#73c"];
  info().chips.forEach((chip, i) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "chip";
    button.style.background = colours[i % colours.length];
    button.textContent = "$" + chip / 100;
    button.dataset.chip = String(chip);
    button.setAttribute("aria-label", `$${chip / 100} chip`);
    button.setAttribute("aria-pressed", String(chip === state.chip));
    button.onclick = () => { state.chip = chip; renderSpots(); };
    $("chips").append(button);
  });
}

export function renderRound() {
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
  $("deal").textContent = state.shared ? "Bet" : "Deal";
  $("blind-label").hidden = !blind;
  if ($("choices").contains(document.activeElement)) refocus = true;
  $("choices").innerHTML = "";
  for (const choice of open ? round.choices : []) {
    const amounts = choice.maximum > choice.minimum ? [choice.minimum, choice.maximum] : [null];
    for (const amount of amounts) {
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.action = choice.action;
      button.dataset.key = amount !== null && amount === choice.maximum ? LARGEST_KEY : decisionKey(choice.action);
      button.setAttribute("aria-keyshortcuts", button.dataset.key);
      button.textContent = amount === null ? choice.label : `${choice.label} ${money(amount)}`;
      button.onclick = () => on.decide(choice.action, amount);
      $("choices").append(button);
    }
  }
  renderButtons();
  if (round && round.status !== "open") say(round.description);
  $("roads").hidden = !info().shoe;  // the bead plate and big road follow a shoe
}

// which buttons can send a request now: none of Deal, Quick Replay, the decisions and
// New shoe while one of them is in flight (a double click deals once), Hint not while
// it is being worked out
let refocus = false;  // a control of the round had the focus: it goes on to the next one
export function renderButtons() {
  const round = state.round, busy = state.busy;
  if (document.activeElement && document.activeElement.closest(".controls")) refocus = true;
  const open = round && round.status === "open";
  const betting = !state.shared || (state.table && state.table.phase === "betting");
  $("deal").disabled = busy || !!open || !betting;
  $("replay").disabled = busy || !!open || !betting || !state.last[tableKey()];
  $("new-shoe").disabled = busy;
  $("hint").disabled = busy || !open || !info().options.length || !!state.hinting;
  for (const button of $("choices").children) button.disabled = busy;
  // a disabled or removed button drops the focus: once the answer is in, the keyboard
  // carries on from the round's first decision, else from Deal
  if (busy || !refocus) return;
  refocus = false;
  const lost = !document.activeElement || document.activeElement === document.body;
  const next = [...$("choices").children, $("deal")].find((button) => !button.disabled);
  if (lost && next) next.focus();
}
