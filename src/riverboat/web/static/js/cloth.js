// The lettering printed on the cloth: the game's name along an arc, the dealer's
// qualifying hand, and what the wagers with a fixed price pay; all read from the
// game's spec (its pay table's notes and its lines), never from the game's name.
import { escape } from "./state.js";

/** @typedef {import("./state.js").GameInfo} GameInfo */

// "The dealer qualifies with Ace-high or better" in the pay table's notes, or in the
// rules in brief
/** @param {GameInfo} game */
function qualifying(game) {
  const texts = [...(game.pay_table || []).flatMap((table) => table.notes), ...(game.how_to_play || [])];
  for (const text of texts) {
    const found = /qualifies with ([^;.,]+?) or better/i.exec(text);
    if (found) {
      const house = game.hands.find((hand) => hand.house);
      return `${house ? house.title : "Dealer"} must have ${found[1]} or better to qualify`;
    }
  }
  return "";
}

// the prices worth printing: a line that pays a fixed amount other than even money
/** @param {GameInfo} game */
function prices(game) {
  return (game.lines || [])
    .filter((line) => line.pays && !line.placed_by && line.pays !== "1 to 1" && !/table/.test(line.pays))
    .map((line) => `${line.label} pays ${line.pays}`);
}

/** The cloth's lettering for `game`, as markup (decorative: the words are in the rules). @param {GameInfo} game */
export function clothHtml(game) {
  const rule = qualifying(game), pays = prices(game);
  return `<svg class="cloth__title" viewBox="0 0 600 96" aria-hidden="true" focusable="false">` +
    `<defs><path id="cloth-arc" d="M 40 28 Q 300 120 560 28"/></defs>` +
    `<text text-anchor="middle"><textPath href="#cloth-arc" startOffset="50%">${escape(game.title.toUpperCase())}</textPath></text></svg>` +
    (rule ? `<p class="cloth__rule">${escape(rule)}</p>` : "") +
    (pays.length ? `<p class="cloth__pays">${pays.map(escape).join(" · ")}</p>` : "");
}
