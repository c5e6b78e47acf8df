// The felt: the table seen from above, drawn from the game's spec. The dealer's hand at
// the top (or, where no hand is the house's, the two sides' boxes with their totals),
// the printed lettering, the player's hand with the hands a decision deals set apart,
// and a betting circle for every line: the wagers placed before the deal are the tap
// targets (R2), the lines placed by a decision show their chips. What a tap does is
// main.js's to say, through the handler set in `on`.
import { $, escape, info, layout, money, state } from "./state.js";
import { keepFocus } from "./focus.js";
import { cardHtml } from "./cards.js";
import { pileHtml, ringSvg } from "./circles.js";
import { clothHtml } from "./cloth.js";
import { clearBanner, showBanner } from "./banner.js";
import { ROUND } from "./states.js";

/** @typedef {import("./state.js").GameInfo} GameInfo */
/** @typedef {import("./state.js").HandInfo} HandInfo */
/** @typedef {import("./state.js").RoundView} RoundView */
/** @typedef {import("./state.js").Wagers} Wagers */
/** @typedef {import("../../typing/api").SchemaLineInfo} LineInfo */

/**
 * What the page's taps do, set by main.js when it starts (null until then): sit at a
 * table (a game's own, or a shared one by its id), place a chip on a spot (or clear it:
 * `hold`), make a decision (its amount, where the player picks one).
 * @type {{
 *   select: ((name: string, shared?: string | boolean) => unknown) | null,
 *   place: ((spot: string, hold: boolean) => unknown) | null,
 *   decide: ((action: string, amount: number | null) => unknown) | null,
 * }}
 */
export const on = { select: null, place: null, decide: null };

// every betting circle of a game: its lines, or (from an older server) its wagers
/** @param {GameInfo} game @returns {LineInfo[]} */
const linesOf = (game) => game.lines || game.wagers.map((w) => ({ name: w.name, label: w.label, placed_by: null, pays: "" }));

// the round whose stakes the circles show: one in play, or one settled and not passed
/** @returns {RoundView | null} */
function roundShown() {
  const round = state.round;
  if (!round) return null;
  if (round.status === ROUND.open) return round;
  return round.result && round !== state.passed ? round : null;
}

// ------------------------------------------------------------------ the circles
/** The betting circles, each with what is staked on it (and, settled, what it made). */
export function renderSpots() {
  const game = info();
  $("felt").classList.toggle("felt--sides", !game.hands.some((hand) => hand.house));
  $("cloth").innerHTML = clothHtml(game);
  drawCircles();
}

function drawCircles() {
  keepFocus($("spots"), "spot", drawSpots);
  drawLines();
}

/** @param {RoundView | null} round @param {string} name */
function stakeOf(round, name) {
  if (!round) return state.wagers[name] || 0;
  return ((round.stakes || round.wagers || {})[name]) || 0;
}

function drawSpots() {
  const game = info(), round = roundShown();
  $("spots").innerHTML = "";
  for (const spot of game.wagers) {
    const pays = linesOf(game).find((l) => l.name === spot.name)?.pays || "";
    const staked = stakeOf(round, spot.name);
    const element = document.createElement("button");
    element.type = "button";
    element.className = "spot circle";
    element.dataset.spot = spot.name;
    const result = round && round.result ? round.result[spot.name] : undefined;
    element.innerHTML = ringSvg(`spot-${spot.name}`, spot.label, pays) + pileHtml(staked, result, game.chips) +
      `<small class="pile__limits">${money(spot.minimum)}–${money(spot.maximum)}</small>`;
    element.classList.toggle("circle--staked", staked > 0);
    element.setAttribute("aria-label", `${spot.label}, ${money(staked)}, limits ${money(spot.minimum)} to ${money(spot.maximum)}`);
    element.setAttribute("aria-keyshortcuts", "Enter Space Backspace Delete");
    bindSpot(element, spot.name);
    $("spots").append(element);
  }
}

// a tap adds the chip, press-and-hold clears (R2); a press must start on this spot.
// Enter or Space (or a screen reader's activation) makes a click with no pointer
// behind it: the same as a tap; Backspace or Delete clears the spot, like a hold
/** @param {HTMLButtonElement} element @param {string} name */
function bindSpot(element, name) {
  const place = (/** @type {boolean} */ hold) => { if (on.place) on.place(name, hold); };
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  let pressed = false;
  element.addEventListener("pointerdown", () => {
    pressed = true;
    timer = setTimeout(() => { pressed = false; place(true); }, 600);
  });
  element.addEventListener("pointerup", () => {
    clearTimeout(timer);
    if (pressed) place(false);
    pressed = false;
  });
  element.addEventListener("pointerleave", () => { clearTimeout(timer); pressed = false; });
  element.addEventListener("click", (event) => { if (event.detail === 0) place(false); });
  element.addEventListener("keydown", (event) => {
    if (event.key !== "Backspace" && event.key !== "Delete") return;
    event.preventDefault();
    place(true);
  });
}

// the lines a decision places (Play, the rabbit fee, Raise): printed circles that show
// the chips once placed, for display only
function drawLines() {
  const game = info(), round = roundShown();
  const placed = linesOf(game).filter((line) => line.placed_by);
  $("lines").innerHTML = placed.map((line) => lineHtml(game, line, "", round && round.stakes, round && round.result)).join("");
  $("lines").hidden = !placed.length;
  const second = round && round.second_stakes;
  $("blind-lines").innerHTML = round && second
    ? linesOf(game).filter((line) => line.name in second).map((line) => lineHtml(game, line, "blind:", second, round.second_result)).join("")
    : "";
}

/**
 * A printed circle of a line a decision places, with its chips.
 * @param {GameInfo} game
 * @param {LineInfo} line
 * @param {string} prefix "" for the player's hand, "blind:" for the blind second hand's
 * @param {Wagers | null} stakes
 * @param {Wagers | null} results
 */
function lineHtml(game, line, prefix, stakes, results) {
  const staked = (stakes && stakes[line.name]) || 0;
  const result = results ? results[line.name] : undefined;
  const label = `${prefix ? "Blind second hand's " : ""}${line.label}, ${money(staked)}`;
  return `<div class="circle circle--line${staked ? " circle--staked" : ""}" data-line="${prefix}${line.name}" role="img" aria-label="${escape(label)}">` +
    ringSvg(`line-${prefix.replace(":", "")}${line.name}`, line.label, line.pays || "") + pileHtml(staked, result, game.chips) + `</div>`;
}

// ------------------------------------------------------------------ the hands
// a hand's cards, the made ones lifted and the rest dimmed once settled; the cards past
// the fewest a hand is dealt (a third card at Baccarat) lie sideways
/** @param {RoundView | null} round @param {HandInfo} hand @param {string} key @param {number} [hidden] face-down cards after them */
function cardsHtml(round, hand, key, hidden = 0) {
  const cards = (round && round.cards[key]) || [];
  const made = round && round.status !== ROUND.open && round.made ? round.made[key] : undefined;
  const faces = cards.map((code, index) => cardHtml(code, {
    index,
    sideways: hand.fewest < hand.cards && index >= hand.fewest,
    made: !!made && made.includes(index),
    dim: !!made && !made.includes(index),
  }));
  const down = Array.from({ length: hidden }, (_, i) => cardHtml(null, { index: cards.length + i }));
  return faces.join("") + down.join("");
}

// the hands a decision deals (the rabbit), each in its own labelled place beside the
// player's hand: empty until dealt
/** @param {RoundView | null} round @param {HandInfo[]} drawn */
function drawnHtml(round, drawn) {
  return drawn.map((hand) => {
    const cards = cardsHtml(round, hand, hand.name);
    return `<span class="slot${cards ? " slot--dealt" : ""}" data-hand="${hand.name}"><span class="slot__label">${escape(hand.title)}</span>` +
      `<span class="slot__cards">${cards}</span></span>`;
  }).join("");
}

// a hand's name ("Pair of Tens") or, where the round has totals, its total
/** @param {RoundView | null} round @param {GameInfo} game @param {HandInfo} hand */
function nameOf(round, game, hand) {
  if (!round) return "";
  const at = game.hands.indexOf(hand);
  if (round.totals && at >= 0 && at < round.totals.length) return String(round.totals[at]);
  return (round.hand_names || {})[hand.name] || "";
}

/** @param {string} id @param {string} text @param {HandInfo} hand */
function showName(id, text, hand) {
  const element = $(id);
  element.textContent = text;
  element.hidden = !text;
  element.dataset.hand = hand.name;
}

/** The hands of the round in play, or of the last one, face down where still hidden. */
export function renderHands() {
  const game = info(), round = state.round;
  const { mine, other, drawn, blind } = layout(game);
  const blindCards = round && blind ? round.cards[blind] || [] : [];
  const blindDown = round && round.second && !blindCards.length ? mine.cards : 0;  // C8: shown at showdown
  const hidden = round ? round.face_down - blindDown : 0;
  $("player").innerHTML = `<span class="hand__cards">${cardsHtml(round, mine, mine.name)}</span>` + drawnHtml(round, drawn);
  $("dealer").innerHTML = cardsHtml(round, other, other.name, hidden);
  $("blind").innerHTML = cardsHtml(round, mine, blind || "", blindDown);
  $("blind-area").hidden = !blindCards.length && !blindDown;
  $("dealer-title").textContent = other.title;
  $("player-title").textContent = mine.title;
  showName("dealer-name", nameOf(round, game, other), other);
  showName("player-name", nameOf(round, game, mine), mine);
  markWinner(round, mine, other);
  $("roads").hidden = !game.shoe;  // the bead plate and big road follow a shoe
  drawCircles();
  if (round && round.status !== ROUND.open && round !== state.passed) showBanner(round, game);
  else clearBanner();
}

// where the hands are two sides (no house), the winning side's box is lit
/** @param {RoundView | null} round @param {HandInfo} mine @param {HandInfo} other */
function markWinner(round, mine, other) {
  const winner = round && round.status !== ROUND.open ? round.winner : null;
  $("player-area").classList.toggle("hand--won", winner === mine.title);
  $("dealer-area").classList.toggle("hand--won", winner === other.title);
}
