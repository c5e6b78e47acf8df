// A win celebrated: gold coins and confetti burst from the result banner and a ring of
// light spreads from it, for about a second (less at Fast speed), then the layer is
// gone. It is for the eye alone (aria-hidden), lets every tap through (pointer-events:
// none, motion.css) and is not shown at all under reduced motion.
//
// settled(round) is what a finished round sets off: its sound (win, big win, loss or
// push) and, for a win, the celebration, once the dealt cards have landed.
import { $ } from "./state.js";
/** @typedef {import("./state.js").RoundView} RoundView */
import { cue } from "./sound.js";
import { pace, reducedMotion } from "./settings.js";
import { ROUND } from "./states.js";

/** Each celebration shown: its amount and whether it was big (for tests).
 * @type {{ amount: number, big: boolean }[]} */
export const celebrations = [];

// a win of this many times the round's stakes or more is a big win
export const BIG_WIN = 4;
const LIFE = { normal: 1100, big: 1700 };  // ms at normal speed

/**
 * Celebrate `amount` (cents won) over the element `over`; returns the layer, or null
 * when reduced motion is asked for or the element is not on screen.
 * @param {HTMLElement | null} over
 * @param {number} amount
 * @param {{ big?: boolean }} [options] a big win: more coins, for longer
 * @returns {HTMLDivElement | null}
 */
export function celebrate(over, amount, { big = false } = {}) {
  if (reducedMotion() || !over) return null;
  const box = over.getBoundingClientRect();
  if (!box.width || !box.height) return null;
  const layer = document.createElement("div");
  layer.className = big ? "celebration celebration--big" : "celebration";
  layer.setAttribute("aria-hidden", "true");
  const life = (big ? LIFE.big : LIFE.normal) * pace();
  layer.style.setProperty("--life", `${life}ms`);
  layer.style.setProperty("--x", `${box.left + box.width / 2}px`);
  layer.style.setProperty("--y", `${box.top + box.height / 2}px`);
  layer.style.setProperty("--w", `${box.width}px`);
  layer.style.setProperty("--h", `${box.height}px`);
  const ring = document.createElement("span");
  ring.className = "celebration__ring";
  layer.append(ring);
  const count = big ? 40 : 20, reach = Math.max(box.width, 160) * (big ? 0.85 : 0.6);
  for (let i = 0; i < count; i++) {
    const bit = document.createElement("span");
    bit.className = i % 3 === 2 ? "celebration__bit celebration__bit--paper" : "celebration__bit";
    const angle = (i / count) * 2 * Math.PI + Math.random() * 0.4;
    const distance = reach * (0.55 + Math.random() * 0.45);
    bit.style.setProperty("--dx", `${Math.cos(angle) * distance}px`);
    bit.style.setProperty("--dy", `${Math.sin(angle) * distance * 0.6}px`);
    bit.style.setProperty("--spin", `${Math.round((Math.random() - 0.5) * 720)}deg`);
    bit.style.setProperty("--delay", `${Math.round(Math.random() * 0.18 * life)}ms`);
    bit.style.setProperty("--hue", `${[45, 42, 50, 0, 140][i % 5]}`);
    layer.append(bit);
  }
  document.body.append(layer);
  // gone once its animations have ended (none running: at once, after its time)
  const moving = layer.getAnimations({ subtree: true });
  if (moving.length) Promise.all(moving.map((animation) => animation.finished)).then(() => layer.remove(), () => layer.remove());
  else setTimeout(() => layer.remove(), life);
  celebrations.push({ amount, big });
  return layer;
}

/** The round's stakes in all (cents). @param {RoundView} round @returns {number} */
const staked = (round) => Object.values(round.stakes || round.wagers || {}).reduce((sum, cents) => sum + cents, 0);

/** A finished round's sound and, for a win, its celebration over the banner. A void
 * round, or a coup watched without a bet (no net), sets off nothing.
 * @param {RoundView | null | undefined} round
 */
export function settled(round) {
  if (!round || round.status !== ROUND.settled || round.net === null || round.net === undefined) return;
  const net = round.net;  // a round is never changed once received
  const big = net > 0 && net >= BIG_WIN * Math.max(1, staked(round));
  const name = net > 0 ? (big ? "bigwin" : "win") : net < 0 ? "loss" : "push";
  // after the cards' slide (none under reduced motion); the banner is drawn by then
  setTimeout(() => {
    cue(name);
    const banner = $("banner");
    if (net > 0 && !banner.hidden && banner.dataset.round === String(round.id)) celebrate(banner, net, { big });
  }, reducedMotion() ? 0 : 420 * pace());
}
