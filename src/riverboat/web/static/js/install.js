// The table installed on a phone's home screen (manifest.webmanifest), and the page
// without its server. The service worker (/sw.js, riverboat/web/sw.js) keeps the page's
// own files so the table opens at once; it is registered only once the page has loaded
// and the browser is idle, so it never holds up the first deal. It keeps none of the
// server's answers: offline the page opens, says the table needs its server, and
// nothing can be played until it is back.

export const OFFLINE = "You are offline: the table deals only when it can reach its server.";
// how often the page opened without its server asks for it again, in milliseconds
const RETRY = 5000;

// the parts of the page that play: the felt and the action bar; the header too on a page
// that opened without its server, as none of its buttons has anything behind it then
/** @param {boolean} all @returns {HTMLElement[]} */
const playing = (all) => /** @type {HTMLElement[]} */ ([document.getElementById("table"), document.getElementById("action-bar"),
  ...(all ? [document.querySelector("header")] : [])].filter(Boolean));

/** @type {HTMLParagraphElement | null} the offline note, made once */
let note = null;
/** The note shown (`on`) or put away, and the playing parts inert while it shows.
 * @param {boolean} on @param {boolean} [all] the header too */
function showOffline(on, all = false) {
  if (!note) {
    note = document.createElement("p");
    note.id = "offline-note";
    note.className = "offline-note";
    note.setAttribute("role", "status");
    note.hidden = true;
    (document.querySelector("main") || document.body).append(note);  // fixed: anywhere in it
  }
  document.body.toggleAttribute("data-offline", on);
  for (const part of playing(all || on === false)) part.inert = on;
  const shown = note;
  shown.hidden = !on;
  shown.textContent = "";
  // the sentence set a moment after the note shows, so a screen reader reads it out
  if (on) setTimeout(() => { if (!shown.hidden) shown.textContent = OFFLINE; }, 50);
}

// the worker answered this page with the shell it kept (body data-offline): none of
// the page's requests reached the server, so the page is started again once it answers
// (asked for a small file the worker never answers itself)
function waitForTheServer() {
  let asking = false;
  const ask = async () => {
    if (asking) return;
    asking = true;
    const answered = await fetch("/sw.js", { cache: "no-store" }).then((r) => r.ok, () => false);
    if (answered) location.reload();
    else asking = false;
  };
  setInterval(ask, RETRY);
  window.addEventListener("online", ask);
}

if (document.body.hasAttribute("data-offline")) {
  showOffline(true, true);
  waitForTheServer();
} else {
  window.addEventListener("offline", () => showOffline(true));
  window.addEventListener("online", () => showOffline(false));
  if (!navigator.onLine) showOffline(true);
}

function register() {
  navigator.serviceWorker.register("/sw.js").catch((error) => console.warn(`The table cannot be installed: ${error.message}`));
}
if ("serviceWorker" in navigator && window.isSecureContext) {
  const idle = () => ("requestIdleCallback" in window ? requestIdleCallback(register, { timeout: 2000 }) : setTimeout(register, 500));
  if (document.readyState === "complete") idle();
  else window.addEventListener("load", idle, { once: true });
}
