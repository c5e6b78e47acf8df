// A round's hands drawn small: each hand's title and its cards as mini faces (cards.js),
// the hands in the game's dealing order, the house's first.
import { escape, gameOf } from "./state.js";
import { cardHtml } from "./cards.js";
import { handTitle } from "./record.js";

/** @typedef {import("./state.js").GameInfo} GameInfo */
/** @typedef {import("./record.js").Hands} Hands */

// the hand keys of `hands` in the order a table lays them: the house's, then the spec's, then any other
/** @param {GameInfo} game @param {Hands} hands */
export function handOrder(game, hands) {
  const spec = [...game.hands.filter((h) => h.house), ...game.hands.filter((h) => !h.house)].map((h) => h.name);
  return [...spec.filter((k) => k in hands), ...Object.keys(hands).filter((k) => !spec.includes(k))];
}

// `faceDown`: hand keys shown as backs; `size`: "mini" or "normal"
/**
 * @param {string} gameName
 * @param {Hands} hands
 * @param {{ faceDown?: readonly string[], size?: "mini" | "normal" }} [look]
 */
export function handsHtml(gameName, hands, { faceDown = [], size = "mini" } = {}) {
  const game = gameOf(gameName);
  if (!game) throw new Error(`no game ${gameName} among the server's`);
  return handOrder(game, hands).map((key) => {
    const down = faceDown.includes(key);
    const cards = hands[key].map((code, i) => cardHtml(down ? null : code, { index: i, size, sideways: gameSideways(game, i) }));
    const house = game.hands.some((h) => h.name === key && h.house) ? " house" : "";
    return `<span class="mini-hand${house}" data-hand="${escape(key)}"><span class="mini-title">${escape(handTitle(game, key))}</span>` +
      `<span class="mini-cards">${cards.join("")}</span></span>`;
  }).join("");
}

// Baccarat's third card lies on its side: a hand of a shoe game past its second card
/** @param {GameInfo} game @param {number} index */
const gameSideways = (game, index) => !!game.shoe && index >= 2;
