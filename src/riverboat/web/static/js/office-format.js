// What the back office writes for people, and reads from them: money as the table
// writes it ($1,234.50), an amount typed in dollars read as whole cents by its digits
// (never through a float), times the server keeps in UTC shown in the browser's zone,
// and long hashes in groups.
import { escape, money } from "./state.js";

export { escape, money };

/** The most dollars an amount may have before its point: 10 digits ($9,999,999,999.99). */
const MOST_DIGITS = 10;
const DOLLARS = /^\$?(\d{1,3}(?:,\d{3})+|\d+)?(?:\.(\d*))?$/;

/**
 * An amount typed in dollars as whole cents: "12.50", "$12.5", "1,234", ".75"; by its
 * digits, so "0.29" is 29 cents exactly. Anything else is a sentence saying what is
 * wrong with it.
 * @param {string} text
 * @returns {{ cents: number, error?: undefined } | { cents?: undefined, error: string }}
 */
export function parseDollars(text) {
  const typed = text.trim().replace(/\s+/g, "");
  if (!typed) return { error: "an amount is needed, in dollars: 12.50" };
  if (/^[-−]/.test(typed)) return { error: "the amount is positive: Credit adds to the balance, Debit takes from it" };
  const found = DOLLARS.exec(typed);
  if (!found || (found[1] === undefined && !found[2])) return { error: "an amount in dollars and cents, like 12.50" };
  const whole = (found[1] || "0").replaceAll(",", ""), part = found[2] || "";
  if (part.length > 2) return { error: "at most two figures after the point: whole cents" };
  if (whole.replace(/^0+/, "").length > MOST_DIGITS) return { error: "the amount is too large" };
  const cents = Number(whole) * 100 + Number(part.padEnd(2, "0"));
  if (cents < 1) return { error: "the amount is at least $0.01" };
  return { cents };
}

/** "+$5", "−$2.50", "$0": a change of money, signed. @param {number} cents */
export const signed = (cents) => (cents > 0 ? `+${money(cents)}` : cents < 0 ? `−${money(-cents)}` : money(0));

/** @param {number} cents @returns {"win" | "loss" | "push"} */
export const tone = (cents) => (cents > 0 ? "win" : cents < 0 ? "loss" : "push");

/** A time the server sent in UTC (without its zone, or with it). @param {string} text */
export const when = (text) => new Date(/[Zz]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);

/** A time as markup: short, in the browser's zone, the exact instant in its attribute. @param {string} text */
export function timeHtml(text) {
  const date = when(text);
  return `<time datetime="${date.toISOString()}">${escape(date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }))}</time>`;
}

/** A hash in groups of 8 that wrap. @param {string} hash */
export const hashHtml = (hash) => `<code class="hash">${(hash.match(/.{1,8}/g) || []).map((g) => `<span>${escape(g)}</span>`).join("")}</code>`;

/** A share as a percentage: 0.034 → "3.40%"; null → "—". @param {number | null | undefined} share @param {number} [digits] */
export const percent = (share, digits = 2) => (share === null || share === undefined ? "—" : `${(share * 100).toFixed(digits).replace(/^-/, "−")}%`);

/**
 * One element made from markup (escaped by its maker).
 * @param {string} html
 * @returns {HTMLElement}
 */
export function element(html) {
  const template = document.createElement("template");
  template.innerHTML = html.trim();
  return /** @type {HTMLElement} */ (template.content.firstElementChild);
}
