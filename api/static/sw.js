// The scorepad's service worker: the app shell and the pages already opened, offline.
//
// Choices: network first, always. Online, every page and file comes fresh from
// the server (the sheet must never show old totals while the server is
// reachable); each good answer is kept in the cache, and only when the
// network fails is the kept copy shown (not to a page's script refreshing what
// the page shows: that request fails instead). So there is no version to bump
// when pad.css or pad.js change. The app shell (the start page, the style sheet,
// the script, the icons and the manifest) is stored at install, so it opens
// offline after one visit. Same-origin GETs are handled so; the JSON API goes
// to the network untouched. Unsent hands wait in the page's own queue
// (pad-offline.js, which queues them itself when the phone knows it is
// offline); the one POST handled here is a new hand's form sent the ordinary
// way while the phone believes it is online but the server does not answer
// (Wi-Fi up, laptop gone): the hand joins the same queue, and the form opens
// again showing it "waiting to sync". The worker is a module worker (registered
// with type "module"), so it shares pad-store.js with the page as an ES module.
//
// Languages: pages are kept by address, whatever their language (the phone's choice
// is in a cookie); network first means that after the language switch the next page
// opened online speaks the new one. The worker's own page for an address it has no
// copy of is the server's /offline, kept at install in the phone's language; a page in
// another language asks for it to be kept again (pad-offline.js).

import { put as putQueued } from "/static/pad-store.js";

// ``self`` is this worker's scope: a service worker's (tsc's webworker lib types it as any
// worker's).
const worker = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));

const CACHE = "scorepad-v1";
const SHELL = ["/", "/static/pad.css", "/static/pad.js", "/static/pad-offline.js",
               "/static/pad-store.js", "/static/pad-live.js", "/static/pad-dom.js",
               "/static/pad-cards.js", "/static/pad-words.js", "/static/pad-score.js",
               "/static/pad-quick.js", "/static/pad-provisional.js", "/static/pad-share.js",
               "/static/pad-save.js", "/static/pad-reach.js", "/static/pad-lock.js",
               "/static/pad-next.js",
               "/offline",
               "/static/pad-icon.svg", "/static/pad-icon-192.png", "/manifest.webmanifest"];

worker.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL))
    .then(() => worker.skipWaiting()));
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))))
    .then(() => worker.clients.claim()));
});

async function offlinePage() {
  const kept = await (await caches.open(CACHE)).match("/offline");
  const body = kept ? await kept.text() : "<!doctype html><title>Offline</title><h1>Offline</h1>";
  return new Response(body, { status: 503, headers: { "Content-Type": "text/html; charset=utf-8" } });
}

// A page with the one-off notice of a save (?done=added&n=3: "Hand 3 added." and its
// Undo) is not kept: opened offline later, it must not announce that again, nor offer
// an Undo that cannot be sent. Offline, its address opens the page kept without it.
/** @param {Request} request */
function keptAs(request) {
  const url = new URL(request.url);
  if (url.searchParams.has("done")) {
    url.searchParams.delete("done");
    url.searchParams.delete("n");
  }
  return url.href;
}

/** @param {Cache} cache @param {Request} request @param {Response} response */
async function keep(cache, request, response) {
  if (response.ok && response.type === "basic" && !response.redirected &&
      keptAs(request) === request.url) {
    await cache.put(request.url, response.clone());
  }
  return response;
}

/** @param {Request} request @returns {Promise<Response>} */
async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    return await keep(cache, request, await fetch(request));
  } catch (error) {
    // A page's script asking for a page (the live sheet's update, a sheet checking it
    // is not older than the hands it sent: fetch(), no destination) wants the server's
    // answer or none: a kept copy could be older than what it shows. (Its cache
    // "no-store" would say so too, but DevTools, and so the tests, send "reload".)
    if (request.destination === "") throw error;
    const kept = await cache.match(keptAs(request)) ||
                 (request.mode === "navigate" && await cache.match(request, { ignoreSearch: true }));
    if (kept) return kept;
    if (request.mode === "navigate") return offlinePage();
    throw error;
  }
}

// A sheet asks for the pages it links to (its hand forms) to be kept, so that a
// hand can be entered offline even on a form not opened yet (and for itself, when
// it opened before the worker took over). A page the worker
// does not control yet asks to be claimed: its navigation began while the
// worker was still installing (the first game started from the start page),
// after the worker's own claim at activation, so nothing else would ever make
// that open sheet work offline.
worker.addEventListener("message", (event) => {
  if (event.data && event.data.claim) event.waitUntil(worker.clients.claim());
  /** @type {string[]} */
  const urls = (event.data && event.data.keep) || [];
  const same = urls.filter((u) => new URL(u, worker.location.href).origin === worker.location.origin);
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(same.map((u) => {
    const page = new Request(keptAs(new Request(u)), { credentials: "same-origin" });
    return fetch(page).then((r) => keep(cache, page, r)).catch(() => null);
  }))));
});

const NEW_HAND = /^\/games\/([\w-]+)\/hand$/;

/** @param {Request} request @param {string} game @returns {Promise<Response>} */
async function sendOrQueue(request, game) {
  const copy = request.clone();
  try {
    return await fetch(request);
  } catch (error) {
    const fields = [...(await copy.formData())].filter(
      /** @param {[string, FormDataEntryValue]} field @returns {field is [string, string]} */
      (field) => typeof field[1] === "string");
    const given = new Map(fields);
    if ((given.get("action") || "save") !== "save") return offlinePage();  // a preview: nothing to keep
    if (!given.has("action")) fields.push(["action", "save"]);
    await putQueued({ game, url: request.url, fields, created: new Date().toISOString() });
    const form = new URL(request.url);
    form.searchParams.set("mode", given.get("mode") || "quick");
    return Response.redirect(form.href, 303);
  }
}

worker.addEventListener("fetch", (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  const newHand = NEW_HAND.exec(url.pathname);
  if (request.method === "POST" && request.mode === "navigate" && newHand) {
    event.respondWith(sendOrQueue(request, newHand[1]));
    return;
  }
  if (request.method !== "GET") return;
  if (url.pathname.startsWith("/api/") || url.pathname === "/pad/melds") return;
  event.respondWith(networkFirst(request));
});
