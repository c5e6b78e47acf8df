// The table's sounds and vibrations. Every sound is made here with the Web Audio API
// (oscillators and a burst of noise through filters): no audio file is fetched.
//
// cue(name) plays one: "deal" (the cards of a deal, one after another), "card" (one
// card turned), "chip" (a chip placed), "win", "bigwin", "loss", "push" (a round
// settled) and "refused" (a chip or deal the server refused). It follows the settings:
// sound on or off and its volume, vibration on or off, the Fast speed (the deal's
// cards come quicker). The AudioContext is made on the first tap or key press (a
// browser lets a page start sound only after a gesture) and never before. It sleeps
// (is suspended) once its last sound has ended, and wakes for the next cue or gesture:
// a running context renders silence through its compressor for as long as the page is
// open, the device's CPU and battery spent on nothing.
import { $ } from "./state.js";
import { canVibrate, onSettings, pace, settings } from "./settings.js";

export const CUES = ["deal", "card", "chip", "win", "bigwin", "loss", "push", "refused"];

/** The cues whose sound was scheduled, and those that vibrated, in order (for tests
 * and the curious: nothing on `window`). `voices` counts the audio nodes started.
 * @type {string[]} */
export const played = [];
/** @type {string[]} */
export const buzzed = [];
export const counts = { voices: 0 };

// a short tap for a chip, a double buzz for a win; a loss barely at all
/** @type {Record<string, number | number[]>} */
const BUZZ = { deal: 12, chip: 8, win: [20, 40, 20], bigwin: [30, 40, 30, 40, 90], loss: 25, push: 10, refused: [40, 30, 40] };

/** @type {AudioContext | null} */
let context = null;
/** @type {GainNode | null} */
let master = null;
/** @type {AudioBuffer | null} */
let hiss = null;
/** when the last sound scheduled ends, on the context's clock (seconds) */
let ends = 0;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let sleeping;
/** suspended by the page, and not woken since (the state may read "running" until the
 * suspension is done, in some browsers) */
let asleep = false;

/** How long the context stays awake after its last sound ends (seconds). */
export const AWAKE = 2;

const level = () => (settings.volume / 100) ** 2 * 0.9;  // the slider heard as even steps

// made or woken by a gesture, and only once sound is on and can be heard
function unlock() {
  if (!settings.sound || settings.volume === 0) return;
  if (!context) {
    const Context = window.AudioContext || /** @type {Window & { webkitAudioContext?: typeof AudioContext }} */ (window).webkitAudioContext;
    if (!Context) return;
    context = new Context();
    master = context.createGain();
    master.gain.value = level();
    const squash = context.createDynamicsCompressor();  // chords and clicks never clip
    master.connect(squash);
    squash.connect(context.destination);
  }
  wake();
}

// the context woken (where the browser lets it be), to sleep again AWAKE seconds after
// its last sound ends
function wake() {
  if (!context || context.state === "closed") return;
  if (asleep || context.state === "suspended") {
    asleep = false;
    context.resume().catch(() => {});
  }
  clearTimeout(sleeping);
  sleeping = setTimeout(doze, (Math.max(0, ends - context.currentTime) + AWAKE) * 1000);
}

// the context suspended, unless a sound was scheduled since or it is not awake yet
function doze() {
  const awake = context;
  if (!awake || awake.state === "closed") return;
  if (awake.currentTime < ends) return wake();  // a sound scheduled since: awake until it ends
  if (awake.state !== "running") {  // still waking (or the browser holds it): look again later
    sleeping = setTimeout(doze, AWAKE * 1000);
    return;
  }
  asleep = true;
  // a cue or tap while it was going to sleep has woken it: wake it again once asleep
  awake.suspend().then(() => { if (!asleep) awake.resume().catch(() => {}); }, () => {});
}
for (const kind of ["pointerdown", "keydown", "touchend"]) {
  document.addEventListener(kind, unlock, { capture: true, passive: true });
}
onSettings(() => {
  unlock();  // sound turned on: the change is a gesture of its own
  if (master) master.gain.setTargetAtTime(level(), /** @type {AudioContext} */ (context).currentTime, 0.02);
});

/** The AudioContext's state ("running", "suspended"), or "none" before any gesture. */
export const audioState = () => (context ? context.state : "none");

// ------------------------------------------------------------------ voices
// (each called only from cue, once the context and its master gain are made)
/** @typedef {{ type?: OscillatorType, gain?: number, glide?: number | null }} ToneOptions */

/** @returns {[AudioContext, GainNode]} */
const made = () => [/** @type {AudioContext} */ (context), /** @type {GainNode} */ (master)];

/**
 * A note: an oscillator with a quick attack and an exponential fall.
 * @param {number} at when, on the context's clock (seconds)
 * @param {number} frequency Hz
 * @param {number} length seconds
 * @param {ToneOptions} [options]
 */
function tone(at, frequency, length, { type = "triangle", gain = 0.3, glide = null } = {}) {
  const [context, master] = made();
  const osc = context.createOscillator(), env = context.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(frequency, at);
  if (glide) osc.frequency.exponentialRampToValueAtTime(glide, at + length);
  env.gain.setValueAtTime(0.0001, at);
  env.gain.exponentialRampToValueAtTime(gain, at + 0.008);
  env.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(env);
  env.connect(master);
  osc.start(at);
  osc.stop(at + length + 0.02);
  ends = Math.max(ends, at + length + 0.02);
  counts.voices += 1;
}

/**
 * A burst of noise through a band-pass filter: a card sliding, the click of a chip.
 * @param {number} at when, on the context's clock (seconds)
 * @param {number} length seconds
 * @param {{ from?: number, to?: number, q?: number, gain?: number }} [options] the band's sweep (Hz), its Q, the peak gain
 */
function noise(at, length, { from = 4000, to = 1200, q = 1.2, gain = 0.4 } = {}) {
  const [context, master] = made();
  if (!hiss) {
    hiss = context.createBuffer(1, Math.round(context.sampleRate * 0.5), context.sampleRate);
    const samples = hiss.getChannelData(0);
    for (let i = 0; i < samples.length; i++) samples[i] = Math.random() * 2 - 1;
  }
  const source = context.createBufferSource(), band = context.createBiquadFilter(), env = context.createGain();
  source.buffer = hiss;
  band.type = "bandpass";
  band.Q.value = q;
  band.frequency.setValueAtTime(from, at);
  band.frequency.exponentialRampToValueAtTime(to, at + length);
  env.gain.setValueAtTime(0.0001, at);
  env.gain.exponentialRampToValueAtTime(gain, at + 0.006);
  env.gain.exponentialRampToValueAtTime(0.0001, at + length);
  source.connect(band);
  band.connect(env);
  env.connect(master);
  source.start(at, Math.random() * 0.3, length + 0.02);
  ends = Math.max(ends, at + length + 0.02);
  counts.voices += 1;
}

/** @param {number} at */
const card = (at) => noise(at, 0.09, { from: 5200, to: 1400, gain: 0.5 });
/**
 * @param {number} at
 * @param {number} [pitch]
 */
const chip = (at, pitch = 1) => {
  noise(at, 0.03, { from: 6000 * pitch, to: 4000 * pitch, q: 4, gain: 0.35 });
  tone(at, 2900 * pitch, 0.06, { type: "sine", gain: 0.12 });
  tone(at + 0.03, 3700 * pitch, 0.05, { type: "sine", gain: 0.08 });
};
/**
 * Notes one after another, `step` seconds apart (0: a chord).
 * @param {number} at
 * @param {number[]} frequencies
 * @param {number} step seconds between notes
 * @param {number} length
 * @param {ToneOptions} [options]
 */
const notes = (at, frequencies, step, length, options) =>
  frequencies.forEach((frequency, i) => tone(at + i * step, frequency, length, options));

/** @type {Record<string, (at: number) => void>} */
const VOICES = {
  deal: (at) => { for (let i = 0; i < 4; i++) card(at + i * 0.07 * pace()); },
  card,
  chip: (at) => chip(at),
  win: (at) => {
    notes(at, [523.25, 659.25, 783.99, 1046.5], 0.085, 0.28, { gain: 0.26 });
    chip(at + 0.36, 1.1);
  },
  bigwin: (at) => {
    notes(at, [523.25, 659.25, 783.99, 1046.5, 1318.5, 1568, 2093], 0.07, 0.3, { gain: 0.24 });
    notes(at + 0.5, [523.25, 659.25, 783.99], 0, 0.9, { gain: 0.12 });  // the chord held
    for (let i = 0; i < 6; i++) chip(at + 0.5 + i * 0.06, 0.9 + (i % 3) * 0.1);  // the chips paid
  },
  loss: (at) => notes(at, [392, 311.13], 0.16, 0.32, { type: "sine", gain: 0.22 }),
  push: (at) => notes(at, [587.33, 587.33], 0.12, 0.14, { type: "sine", gain: 0.14 }),
  refused: (at) => tone(at, 150, 0.16, { type: "square", gain: 0.07, glide: 110 }),
};

/** Play the cue `name` (one of CUES) as the settings allow: its vibration, where the
 * device has one and it is on, and its sound once a gesture has let sound start.
 * Says whether the sound was scheduled.
 * @param {string} name
 * @returns {boolean}
 */
export function cue(name) {
  if (!CUES.includes(name)) throw new Error(`unknown cue ${JSON.stringify(name)}: one of ${CUES.join(", ")}`);
  if (settings.haptics && canVibrate() && BUZZ[name]) {
    try {
      if (navigator.vibrate(BUZZ[name])) buzzed.push(name);
    } catch { /* a browser that refuses it now */ }
  }
  if (!settings.sound || settings.volume === 0 || !context || context.state === "closed") return false;
  VOICES[name](context.currentTime + 0.01);
  wake();  // a sleeping context plays what was scheduled as soon as it is awake
  played.push(name);
  return true;
}

// the settings' Try it: a win at the volume chosen (the tap itself lets sound start)
const tryIt = $("settings-try");
if (tryIt) {
  tryIt.addEventListener("click", () => {
    unlock();
    cue("win");
  });
}
