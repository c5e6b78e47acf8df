// The status line: one toast just above the action bar (never under it, never under
// the felt), opaque, for a prompt or a refusal that says what to do. It shows for a few
// seconds (a refusal longer), a tap dismisses it; its text stays in the page
// (#message) and is read out once through the polite live region. A round's result
// is the banner's to show on the felt: its sentence is read out, not popped up.
import { $, state } from "./state.js";

/** How long each tone shows, in ms. */
const SHOWN = { info: 4000, result: 6000, refusal: 9000 };

/** @type {ReturnType<typeof setTimeout> | undefined} */
let fading;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let reading;

export function drawMessage() {
  const line = $("message"), message = state.message;
  clearTimeout(fading);
  line.textContent = message ? message.text : "";
  line.dataset.tone = message ? message.tone : "";
  line.classList.toggle("toast--shown", !!message && message.tone !== "result");
  if (message) fading = setTimeout(() => line.classList.remove("toast--shown"), SHOWN[message.tone]);
  // read out once; emptied first, so the same refusal twice is heard twice
  clearTimeout(reading);
  if (!message) return;
  $("announce").textContent = "";
  reading = setTimeout(() => { $("announce").textContent = message.text; }, 60);
}

/** A tap on the toast puts it away (its text stays for a screen reader to reread). */
export function setupMessages() {
  $("message").addEventListener("click", () => $("message").classList.remove("toast--shown"));
}
