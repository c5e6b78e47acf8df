// A betting circle as printed on the cloth: a gold ring with the line's name along its
// top and what it pays along its bottom; inside, the chips staked on it and, once the
// round is settled, what it won or lost, with the chips paid to it or taken from it.
import { escape, money } from "./state.js";
import { chipStackHtml } from "./chips-stack.js";

// the ring's text runs along arcs of a 100-unit circle; the room each arc has
const TOP_ROOM = 92, BOTTOM_ROOM = 84;

/**
 * A text along an arc, squeezed to the arc's room when it would run past it.
 * @param {string} id the arc's path
 * @param {string} text
 * @param {number} size its font size, in the ring's units
 * @param {number} room the arc's length
 * @param {"name" | "pays"} kind
 */
function arcText(id, text, size, room, kind) {
  const wide = text.length * size * 0.66 > room;
  const fit = wide ? ` textLength="${room}" lengthAdjust="spacingAndGlyphs"` : "";
  return `<text class="circle__text circle__text--${kind}" font-size="${size}" text-anchor="middle"${fit}><textPath href="#${id}" startOffset="50%">${escape(text)}</textPath></text>`;
}

/** The printed ring: `key` makes the arcs' ids unique on the page.
 * @param {string} key
 * @param {string} label the line's name
 * @param {string} pays what it pays ("3 to 2"), or "" */
export function ringSvg(key, label, pays) {
  const top = `arc-top-${key}`, bottom = `arc-bottom-${key}`;
  const price = pays.replace(/\s*\(.*\)$/, "");  // the aside ("5% commission") is on the cloth
  return `<svg class="circle__ring" viewBox="0 0 100 100" aria-hidden="true" focusable="false">` +
    `<defs><path id="${top}" d="M 15 50 A 35 35 0 0 1 85 50"/><path id="${bottom}" d="M 8 50 A 42 42 0 0 0 92 50"/></defs>` +
    `<circle class="circle__outer" cx="50" cy="50" r="48"/><circle class="circle__inner" cx="50" cy="50" r="45"/>` +
    arcText(top, label.toUpperCase(), 11, TOP_ROOM, "name") + (price ? arcText(bottom, price.toUpperCase(), 7.5, BOTTOM_ROOM, "pays") : "") +
    `</svg>`;
}

/** "+$5", "−$5" or "push". @param {number} cents */
const signed = (cents) => (cents > 0 ? `+${money(cents)}` : cents < 0 ? `−${money(-cents)}` : "push");
/** @param {number} cents @returns {"win" | "loss" | "push"} */
const outcome = (cents) => (cents > 0 ? "win" : cents < 0 ? "loss" : "push");

/** What sits inside a circle: the stake's chips (taken away when lost), the chips paid
 * (when won), the amount and the result; `result` is undefined until settled.
 * @param {number} stake
 * @param {number | undefined} result
 * @param {readonly number[]} denominations */
export function pileHtml(stake, result, denominations) {
  const settled = result !== undefined && (stake > 0 || result !== 0);
  const taken = settled && result < 0;
  const stack = chipStackHtml(stake, denominations, taken ? "taken" : "");
  const paid = settled && result > 0 ? chipStackHtml(result, denominations, "paid") : "";
  const amount = `<strong class="pile__amount${stake ? "" : " visually-hidden"}">${money(stake)}</strong>`;
  const badge = settled ? `<em class="pile__result pile__result--${outcome(result)}">${signed(result)}</em>` : "";
  return `<span class="pile">${stack}${paid}</span>${amount}${badge}`;
}

export { outcome, signed };
