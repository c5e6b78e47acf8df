// The result at a glance: a banner over the felt when a round settles (win, loss or
// push with the net, the hands' names, whether the dealer qualified). It is for the
// eye alone (aria-hidden: the round's sentence is announced from the message line),
// lets every tap through, and goes the moment a new deal or a chip is placed.
import { $, escape, layout, money } from "./state.js";
import { ROUND } from "./states.js";

/** @typedef {import("./state.js").RoundView} RoundView */
/** @typedef {import("./state.js").GameInfo} GameInfo */

/** "+$15", "−$15", "even". @param {number} cents */
const net = (cents) => (cents > 0 ? `+${money(cents)}` : cents < 0 ? `−${money(-cents)}` : "even");

/**
 * How the hand ended, apart from the money: "You win the hand", "Dealer does not
 * qualify", "You folded"; at a coup, its side. The money can tell another story (a
 * hand won can lose money to a rabbit fee or a side wager), so it has its own line.
 * @param {RoundView} round
 * @param {GameInfo} game
 * @returns {string}
 */
export function handOutcome(round, game) {
  const house = game.hands.find((hand) => hand.house);
  if (!house) return round.winner ? (round.winner === "Tie" ? "Tie" : `${round.winner} wins`) : "";
  const dealer = house.title;
  switch (round.hand_outcome) {
    case "won": return "You win the hand";
    case "lost": return `${dealer} wins the hand`;
    case "tied": return "The hands tie";
    case "folded": return "You folded";
    case "not_qualified": return `${dealer} does not qualify`;
    default: return "";
  }
}

/** The money: "Net +$15", or "" where the player had nothing on it (a coup watched).
 * @param {RoundView} round */
export function moneyOutcome(round) {
  return round.net === null || round.net === undefined ? "" : `Net ${net(round.net)}`;
}

/** @param {RoundView} round @returns {"win" | "loss" | "push"} */
const tone = (round) => (!round.net ? "push" : round.net > 0 ? "win" : "loss");

// the hands' names: "You: Pair of Tens · Dealer: Ace-high, qualifies"; or, where no
// hand is the house's, the totals and who won
/** @param {RoundView} round @param {GameInfo} game */
function details(round, game) {
  /** @type {Record<string, string>} */
  const names = round.hand_names || {};
  const { mine, other, blind } = layout(game);
  if (!game.hands.some((hand) => hand.house)) {
    const totals = round.totals;
    return totals ? game.hands.slice(0, 2).map((hand, i) => `${hand.title} ${totals[i]}`).join(" · ") : "";
  }
  const parts = [];
  if (names[mine.name]) parts.push(`${mine.title}: ${names[mine.name]}`);
  if (blind && names[blind]) parts.push(`Blind hand: ${names[blind]}`);
  if (names[other.name]) {
    const qualifies = round.dealer_qualifies === true ? ", qualifies" : round.dealer_qualifies === false ? ", does not qualify" : "";
    parts.push(`${other.title}: ${names[other.name]}${qualifies}`);
  }
  return parts.join(" · ");
}

/** Show the banner for a settled round, or clear it for anything else.
 * @param {RoundView | null} round @param {GameInfo} game */
export function showBanner(round, game) {
  if (!round || round.status === ROUND.open) return clearBanner();
  const hand = handOutcome(round, game), cash = moneyOutcome(round);
  if (!hand && !cash) return clearBanner();
  const banner = $("banner");
  banner.dataset.outcome = tone(round);
  banner.innerHTML = (hand ? `<strong class="banner__head">${escape(hand)}</strong>` : "") +
    (cash ? `<strong class="banner__money">${escape(cash)}</strong>` : "") +
    `<span class="banner__hands">${escape(details(round, game))}</span>`;
  if (banner.dataset.round !== String(round.id)) {  // a fresh result springs in; a redraw does not
    banner.hidden = true;
    void banner.offsetWidth;
  }
  banner.dataset.round = String(round.id);
  banner.hidden = false;
}

export function clearBanner() {
  const banner = $("banner");
  banner.hidden = true;
  banner.innerHTML = "";
  delete banner.dataset.round;
}
