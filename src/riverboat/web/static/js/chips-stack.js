// Chips on the felt: a stake broken into the table's denominations, drawn as a small
// stack of casino chips (edge stripes, the value on the face), the largest at the bottom.

// the colour of each value, as casinos colour them; a value not listed takes orange
/** @type {Record<number, string>} */
const COLOURS = { 100: "white", 500: "red", 2500: "green", 10000: "black", 50000: "purple", 100000: "orange" };
const MOST_DRAWN = 6;  // a taller stack is capped; its amount is written beside it

/** The chips that make `amount` cents, largest first (greedy); a remainder smaller than
 * the smallest chip (a commission's cents) is left out.
 * @param {number} amount
 * @param {readonly number[]} denominations
 * @returns {number[]}
 */
export function breakChips(amount, denominations) {
  if (!Number.isInteger(amount) || amount < 0) throw new Error(`chip amount ${JSON.stringify(amount)}: whole cents, 0 or more`);
  /** @type {number[]} */
  const chips = [];
  let left = amount;
  for (const value of [...denominations].sort((a, b) => b - a)) {
    while (left >= value) { chips.push(value); left -= value; }
  }
  return chips;
}

/** @param {number} value */
const face = (value) => (value >= 100000 ? `${value / 100000}K` : String(value / 100));

/** One chip seen from above: its rim stripes, inlay ring and value.
 * @param {number} value
 * @param {number} level its place up the stack, from 0 */
function chipSvg(value, level) {
  const colour = COLOURS[value] || "orange";
  return `<svg class="chip3d chip3d--${colour} chip3d--l${level}" viewBox="0 0 40 40" aria-hidden="true" focusable="false">` +
    `<circle class="chip3d__edge" cx="20" cy="20" r="19"/>` +
    `<circle class="chip3d__stripes" cx="20" cy="20" r="16.5" pathLength="48"/>` +
    `<circle class="chip3d__inlay" cx="20" cy="20" r="11"/>` +
    `<text class="chip3d__value" x="20" y="24.2" text-anchor="middle">${face(value)}</text></svg>`;
}

/** One chip of `value` cents as the tray shows it: the same face as on the felt. @param {number} value */
export const chipFaceHtml = (value) => chipSvg(value, 0);

/** A stack for `amount` cents, or "" for none; `kind` adds a class (paid, taken).
 * @param {number} amount
 * @param {readonly number[]} denominations
 * @param {string} [kind] */
export function chipStackHtml(amount, denominations, kind = "") {
  const chips = breakChips(Math.max(0, Math.round(amount)), denominations);
  if (!chips.length) return "";
  const drawn = chips.slice(0, MOST_DRAWN);  // the largest, at the bottom of the stack
  const more = chips.length > MOST_DRAWN ? `<b class="stack__more">×${chips.length}</b>` : "";
  return `<span class="stack${kind ? ` stack--${kind}` : ""}" aria-hidden="true">${drawn.map(chipSvg).join("")}${more}</span>`;
}
