// Advice in words (the hint's and the coach's): the server says it in the round's
// dollars, on average; the exact figures per $1 of Ante sit behind a Details tap, a
// native disclosure (keyboard and screen reader as any <details>). The coach's visit
// tally is summed here, so its dollars are rounded here by the server's rule
// (riverboat.money.readable_cents).
import { escape, money } from "./state.js";

/**
 * The figures behind a Details tap, as markup.
 * @param {string} text
 * @returns {string}
 */
export function details(text) {
  closeOnTapElsewhere();
  return `<details class="advice-details"><summary>Details</summary><p>${escape(text)}</p></details>`;
}

// open figures float over the table: a tap or a focus anywhere else closes them (the
// tap itself goes on to what it was on)
let closing = false;
function closeOnTapElsewhere() {
  if (closing) return;
  closing = true;
  /** @param {Event} event */
  const close = (event) => {
    for (const open of /** @type {NodeListOf<HTMLDetailsElement>} */ (document.querySelectorAll(".advice-details[open]"))) {
      if (!open.contains(/** @type {Node | null} */ (event.target))) open.open = false;
    }
  };
  document.addEventListener("pointerdown", close, true);
  document.addEventListener("focusin", close, true);
}

// an expected amount in cents rounded for reading: to the cent below $1, to 10 cents
// below $10, to the dollar from $10 up (the band is the unrounded amount's)
/**
 * @param {number} cents
 * @returns {number}
 */
export function readable(cents) {
  const size = Math.abs(cents), step = size < 100 ? 1 : size < 1000 ? 10 : 100;
  return Math.sign(cents) * Math.round(size / step) * step;
}

// "about $4.20", or "less than $0.01" for an amount that rounds to nothing
/** @param {number} cents @returns {string} */
export const about = (cents) => (readable(cents) ? `about ${money(Math.abs(readable(cents)))}` : "less than $0.01");
