// Playing cards as markup: one face from the deck's sprite, named in words for screen readers.
//
// Every face is a <symbol> in /static/cards/cards.svg (one request, cached by the browser,
// same origin), drawn with <use>. The markup has no inline style, so it keeps to a
// Content-Security-Policy without 'unsafe-inline': cards.css does the sizing and the deal.

const SPRITE = "/static/cards/cards.svg";
/** @type {Record<string, string>} */
const RANKS = { 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight", 9: "Nine", T: "Ten", J: "Jack", Q: "Queen", K: "King", A: "Ace" };
/** @type {Record<string, string>} */
const SUITS = { c: "clubs", d: "diamonds", h: "hearts", s: "spades" };
const SIZES = ["normal", "mini"];
// the deal's stagger has classes card--i0 to card--i9; later cards share the last delay
const LAST_STAGGER = 9;

/** @param {unknown} code */
function checkCode(code) {
  if (code === null) return;
  if (typeof code !== "string" || code.length !== 2 || !(code[0] in RANKS) || !(code[1] in SUITS)) {
    throw new Error(`unknown card code ${JSON.stringify(code)}: a rank of 23456789TJQKA then a suit of cdhs (e.g. "Th"), or null for a face-down card`);
  }
}

/** A card in words: "Ten of hearts", or "face down" for null. @param {string | null} code */
export function cardName(code) {
  checkCode(code);
  return code === null ? "face down" : `${RANKS[code[0]]} of ${SUITS[code[1]]}`;
}

/**
 * How a card lies: its place in the hand (the deal's stagger), on its side (a third
 * card), part of the made hand, dimmed, and its size.
 * @typedef {object} CardLook
 * @property {number} [index]
 * @property {boolean} [sideways]
 * @property {boolean} [made]
 * @property {boolean} [dim]
 * @property {"normal" | "mini"} [size]
 */

/** One card's HTML: code like "Th" (null for face down), its place in the hand and its state.
 * @param {string | null} code
 * @param {CardLook} [look]
 */
export function cardHtml(code, { index = 0, sideways = false, made = false, dim = false, size = "normal" } = {}) {
  checkCode(code);
  if (!Number.isInteger(index) || index < 0) {
    throw new Error(`card index ${JSON.stringify(index)}: a whole number from 0, the card's place in its hand`);
  }
  if (!SIZES.includes(size)) {
    throw new Error(`card size ${JSON.stringify(size)}: one of ${SIZES.map((s) => `"${s}"`).join(", ")}`);
  }
  const classes = ["card", `card--i${Math.min(index, LAST_STAGGER)}`];
  if (code === null) classes.push("card--down");
  if (sideways) classes.push("card--sideways");
  if (made) classes.push("card--made");
  if (dim) classes.push("card--dim");
  if (size === "mini") classes.push("card--mini");
  const face = code === null ? "back" : size === "mini" ? `${code}-mini` : code;
  return (
    `<span class="${classes.join(" ")}" role="img" aria-label="${cardName(code)}">` +
    `<svg class="card__face" viewBox="0 0 240 336" aria-hidden="true" focusable="false">` +
    `<use href="${SPRITE}#${face}" width="240" height="336"/></svg></span>`
  );
}
