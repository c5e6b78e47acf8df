// The player's settings: sound (and its volume), vibration, speed, reduced motion and
// the card back. Kept in localStorage, applied as classes on <html> (motion.css reads
// them), and chosen in the settings dialog (key s, or Settings in the table menu).
//
// The classes are also kept on their own, as one string, for js/early.js: a classic
// script in <head> that puts them on <html> before the table first paints (a module
// such as this one runs only once the page is parsed).
import { $, $button, $dialog, $input } from "./state.js";

/**
 * The player's settings.
 * @typedef {object} Settings
 * @property {boolean} sound
 * @property {number} volume 0 to 100
 * @property {boolean} haptics
 * @property {"normal" | "fast"} pace
 * @property {"system" | "reduce"} motion
 * @property {"red" | "blue" | "green"} back
 */

const KEY = "riverboat-settings", LOOK = "riverboat-look";

// every setting, its default first; what a stored value may be
const CHOICES = {
  sound: [true, false],
  haptics: [true, false],
  pace: ["normal", "fast"],
  motion: ["system", "reduce"],
  back: ["red", "blue", "green"],
};
/** @type {Settings} */
const DEFAULTS = { sound: true, volume: 60, haptics: true, pace: "normal", motion: "system", back: "red" };

/** The settings now: read from storage at once, a bad or missing value its default. */
export const settings = read(stored());

/** @returns {string | null} */
function stored() {
  try {
    return localStorage.getItem(KEY);
  } catch { return null; }  // storage refused: the defaults
}

/**
 * Settings from their stored JSON: anything unknown or out of range is the default.
 * @param {string | null} text
 * @returns {Settings}
 */
export function read(text) {
  /** @type {Record<string, unknown>} */
  let stored = {};
  try {
    stored = JSON.parse(text || "{}") || {};
  } catch { /* a damaged entry: the defaults */ }
  const chosen = { ...DEFAULTS };
  for (const [name, values] of Object.entries(CHOICES)) {
    if (/** @type {readonly unknown[]} */ (values).includes(stored[name])) /** @type {Record<string, unknown>} */ (chosen)[name] = stored[name];
  }
  const volume = Number(stored.volume);
  if (Number.isInteger(volume) && volume >= 0 && volume <= 100) chosen.volume = volume;
  return chosen;
}

/**
 * The classes on <html> that carry the settings to the CSS.
 * @param {Settings} [chosen]
 * @returns {string[]}
 */
export function lookClasses(chosen = settings) {
  const classes = [];
  if (chosen.pace === "fast") classes.push("pace-fast");
  if (chosen.motion === "reduce") classes.push("reduce-motion");
  if (chosen.back !== "red") classes.push(`back-${chosen.back}`);
  return classes;
}

const ALL_CLASSES = ["pace-fast", "reduce-motion", ...CHOICES.back.map((back) => `back-${back}`)];

export function applySettings() {
  const root = document.documentElement;
  root.classList.remove(...ALL_CLASSES);
  root.classList.add(...lookClasses());
}

/** @type {((settings: Settings) => void)[]} */
const listeners = [];
/**
 * Calls `listener(settings)` after every change (sound.js follows the volume).
 * @param {(settings: Settings) => void} listener
 */
export function onSettings(listener) { listeners.push(listener); }

/** @param {Partial<Settings>} change settings to change (checked, as stored ones are) */
export function changeSettings(change) {
  Object.assign(settings, read(JSON.stringify({ ...settings, ...change })));
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
    localStorage.setItem(LOOK, lookClasses().join(" "));
  } catch { /* storage full or refused: the change holds for this visit */ }
  applySettings();
  for (const listener of listeners) listener(settings);
}

const systemReduces = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/** Reduced motion, asked for here or by the system: no celebration, no deal slide. */
export const reducedMotion = () => settings.motion === "reduce" || systemReduces();

/** How long the animations take against normal speed: 1, or less when Fast. */
export const pace = () => (settings.pace === "fast" ? 0.5 : 1);

export const canVibrate = () => typeof navigator.vibrate === "function";

// ------------------------------------------------------------------ the dialog
// the controls are named for the setting they change (data-setting), radios by value
function drawPanel() {
  const panel = $("settings");
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (panel.querySelectorAll("[data-setting]"))) {
    const value = settings[/** @type {keyof Settings} */ (input.dataset.setting)];
    if (input.type === "checkbox") input.checked = value === true;
    else if (input.type === "radio") input.checked = input.value === value;
    else input.value = String(value);
  }
  $input("settings-volume").disabled = !settings.sound;
  $button("settings-try").disabled = !settings.sound;
  $("settings-volume-said").textContent = `${settings.volume}%`;
  $("settings-haptics-note").textContent = canVibrate()
    ? "On a phone that has it: a tap for a chip, a buzz for a win."
    : "This device does not vibrate for the page.";
  $("settings-motion-note").textContent = systemReduces()
    ? "The system asks for reduced motion: the table follows it."
    : "The system does not ask for reduced motion.";
}

function bindPanel() {
  const panel = $("settings");
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (panel.querySelectorAll("[data-setting]"))) {
    const name = /** @type {keyof Settings} */ (input.dataset.setting);
    input.addEventListener(input.type === "range" ? "input" : "change", () => {
      if (input.type === "checkbox") changeSettings({ [name]: input.checked });
      else if (input.type === "range") changeSettings({ [name]: Number(input.value) });
      else if (input.checked) changeSettings({ [name]: input.value });
      drawPanel();
    });
  }
}

/** The settings dialog, its controls showing the settings now. */
export function openSettings() {
  if ($dialog("tables").open) $dialog("tables").close();
  drawPanel();
  if (!$dialog("settings").open) $dialog("settings").showModal();
}

export function setupSettings() {
  applySettings();
  bindPanel();
  $("settings-open").onclick = openSettings;
  // opened from the table menu, which has closed: the focus goes back to its opener
  $("settings").addEventListener("close", () => {
    if (!document.activeElement || document.activeElement === document.body) $("logo").focus();
  });
  window.matchMedia("(prefers-reduced-motion: reduce)").addEventListener("change", () => {
    if ($dialog("settings").open) drawPanel();
  });
}
