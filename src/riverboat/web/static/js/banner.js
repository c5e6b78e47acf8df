// The result at a glance: a banner over the felt when a round settles (win, loss or
// push with the net, the hands' names, whether the dealer qualified). It is for the
// eye alone (aria-hidden: the round's sentence is announced from the message line),
// lets every tap through, and goes the moment a new deal or a chip is placed.
import { $, escape, layout, money } from "./state.js";

const net = (cents) => (cents > 0 ? `+${money(cents)}` : `−${money(-cents)}`);

function headline(round, game) {
  const house = game.hands.find((hand) => hand.house);
  if (round.net === null || round.net === undefined) {
    return round.winner ? ["push", round.winner === "Tie" ? "Tie" : `${round.winner} wins`] : null;
  }
  if (round.net > 0) return ["win", `You win ${net(round.net)}`];
  if (round.net < 0) return ["loss", `${house ? `${house.title} wins` : "You lose"} ${net(round.net)}`];
  return ["push", "Push"];
}

// the hands' names: "You: Pair of Tens · Dealer: Ace-high, qualifies"; or, where no
// hand is the house's, the totals and who won
function details(round, game) {
  const names = round.hand_names || {};
  const { mine, other, blind } = layout(game);
  if (!game.hands.some((hand) => hand.house)) {
    const totals = round.totals ? game.hands.slice(0, 2).map((hand, i) => `${hand.title} ${round.totals[i]}`) : [];
    const winner = round.winner && round.net !== null && round.net !== undefined ? [round.winner === "Tie" ? "Tie" : `${round.winner} wins`] : [];
    return [...winner, ...totals].join(" · ");
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

/** Show the banner for a settled round, or clear it for anything else. */
export function showBanner(round, game) {
  const told = round && round.status !== "open" ? headline(round, game) : null;
  if (!told) return clearBanner();
  const [outcome, text] = told;
  const banner = $("banner");
  banner.dataset.outcome = outcome;
  banner.innerHTML = `<strong class="banner__head">${escape(text)}</strong><span class="banner__hands">${escape(details(round, game))}</span>`;
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
