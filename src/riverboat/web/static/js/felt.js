// The felt: the cards, the hands and the betting spots, all drawn from the game's spec.
// What a tap on a spot does is main.js's to say, through the handler set in `on`.
import { $, info, layout, money, state } from "./state.js";
import { keepFocus } from "./focus.js";

export const on = { select: null, place: null, decide: null };

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

// the betting spots, each with what is staked on it
export function renderSpots() {
  keepFocus($("spots"), "spot", drawSpots);
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

// the hands of the round in play, or of the last one, face down where still hidden
export function renderHands() {
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
  $("roads").hidden = !info().shoe;  // the bead plate and big road follow a shoe
}
