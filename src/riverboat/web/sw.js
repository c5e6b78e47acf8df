// riverboat's service worker, served at /sw.js (scope "/") by riverboat/web/routes/worker.py,
// which puts two constants before this text: VERSION, a hash of the page's files taken when
// the server started, and PRECACHE, the URLs of those files ("/" for the page itself).
//
// It keeps the page's own files so that the table opens at once, installed or not; it
// never keeps an answer of the server's: nothing under /api/ or /ws/, not /openapi.json,
// no request but a GET, nothing from another origin. The server stays the table: offline
// the page opens and says that it needs its server, and nothing can be played.
const CACHE = `riverboat-${VERSION}`;
const KEPT = new Set(PRECACHE);
const NEVER = /^\/(api|ws)(\/|$)|^\/openapi\.json$/;

self.addEventListener("install", (event) => {
  // every file fetched afresh (not from the HTTP cache), so the cache holds this version's
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "reload" }))))
    .then(() => self.skipWaiting()));  // a new riverboat takes over at the next page load
});

self.addEventListener("activate", (event) => {
  // the caches of earlier versions go (and anything else of ours not this version's)
  event.waitUntil(caches.keys().then((names) => Promise.all(names
    .filter((name) => name.startsWith("riverboat-") && name !== CACHE)
    .map((name) => caches.delete(name)))));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || NEVER.test(url.pathname)) return;
  if (request.mode === "navigate" && url.pathname === "/") event.respondWith(page(request));
  else if (KEPT.has(url.pathname) && !url.search) event.respondWith(kept(request));
  // anything else goes to the network as if there were no worker
});

// a page file: from this version's cache, else from the network (not kept: the cache
// holds exactly the files listed when it was made). Read with caches.match, which
// never makes the cache it names: caches.open would make it again in a worker whose
// version a newer one has just replaced (a fetch under way as it activated), leaving
// an empty cache of the old version behind
async function kept(request) {
  return (await caches.match(request, { cacheName: CACHE, ignoreVary: true })) || fetch(request);
}

// a proxy's answer for a server it cannot reach
const UNREACHED = new Set([502, 503, 504]);

// the page: from the server when it answers (a fresh CSRF cookie with it), else the
// shell kept at install, marked offline (body data-offline) for js/install.js to say so
async function page(request) {
  try {
    const answer = await fetch(request);
    if (!UNREACHED.has(answer.status)) return answer;
    return (await shell()) || answer;
  } catch (error) {
    const kept = await shell();
    if (!kept) throw error;
    return kept;
  }
}

async function shell() {
  const kept = await caches.match("/", { cacheName: CACHE, ignoreVary: true });
  if (!kept) return null;
  const headers = new Headers(kept.headers);  // the page's own, its policy among them
  headers.delete("content-length");
  headers.delete("content-encoding");
  const html = (await kept.text()).replace("<body>", "<body data-offline>");
  return new Response(html, { status: 200, headers });
}
