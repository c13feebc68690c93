// The scorepad at a table without a steady connection: the queue of unsent
// hands, the service worker and the screen's wake lock (the hand form's own save
// is pad-save.js's).
//
// Choices:
// - The queue lives in the page (IndexedDB, which needs no service worker), so
//   an open sheet keeps and retries what was typed even where no worker runs
//   (plain http to a LAN address). It holds new hands only; corrections,
//   voids and undo need the server's answer and are sent as ordinary forms.
// - Each hand gets its idempotency key when it is typed and keeps it until the
//   server has stored it: a retry after a lost answer stores nothing twice.
// - Hands are sent one at a time, oldest first. A hand the server refuses
//   (a typo the server catches, the game over) stops the queue: the later
//   hands were typed after it and wait, nothing is dropped; the refusal is
//   shown with the server's words and the player discards or retypes it.

import { $, $$ } from "./pad-dom.js";
import { all as allQueued, put as putQueued, drop as dropQueued } from "./pad-store.js";
import { lang, listed, say, sayCount } from "./pad-words.js";
import { lockFixes, showProvisional } from "./pad-provisional.js";
import { followQueue, known, rememberSheet } from "./pad-next.js";
import { byUnit, landedHere, setupQueuedForm } from "./pad-save.js";

/** @typedef {import("./pad-store.js").Entry} Entry */

const RETRY_MS = 10000;

// ---------------------------------------------------------------- the stored queue

/** @param {string} game */
async function queuedFor(game) {
  return (await allQueued()).filter((item) => item.game === game);
}

// ---------------------------------------------------------------- sending

/** @type {Promise<void> | null} */
let syncing = null;
let synced = Number(sessionStorage.getItem("scorepad-synced") || 0);  // across the reload below
sessionStorage.removeItem("scorepad-synced");

// The hands the sheet reloaded below must show (its game's, and how many): a sheet
// showing fewer is the worker's kept copy (see stale).
/** @type {{game: string | undefined, hands: number} | null} */
let owed = JSON.parse(sessionStorage.getItem("scorepad-owed") || "null");
sessionStorage.removeItem("scorepad-owed");

let leaving = false;  // a link followed or a form sent: that page is coming (see refresh)
window.addEventListener("beforeunload", () => { leaving = true; });
window.addEventListener("pageshow", () => { leaving = false; });  // back from the cache

/** @param {Document} page @param {number} status @returns {string} */
function refusalText(page, status) {
  // The form's own words first (its banner, then a field's error), else the error page's.
  for (const selector of ["#main .banner", "#main .error", "#main h1 + p"]) {
    const node = $(selector, page);
    if (node && node.textContent.trim()) return node.textContent.trim();
  }
  return say("refused", { status });
}

// A request that has not been answered in SEND_MS is given up and tried again later
// (its key stores it once): a connection that died without a word (Wi-Fi gone between
// the phone and the router) would otherwise hold the whole queue.
const SEND_MS = 20000;

/** @param {string} url @param {[string, string][]} fields */
function post(url, fields) {
  return fetch(url, { method: "POST", body: new URLSearchParams(fields),
                      credentials: "same-origin", headers: { Accept: "text/html" },
                      signal: AbortSignal.timeout(SEND_MS) });
}

// Sends what waits, oldest first, one game's hands in the order typed; resolves
// when it stops (all sent, or no connection). A refused hand holds back only
// the later hands of its own game. Asked again while sending (a refused hand
// discarded or retried meanwhile), it goes round once more before it resolves.
let again = false;

function sync() {
  if (syncing) {
    again = true;
    return syncing;
  }
  syncing = (async () => {
    try {
      do {
        again = false;
        await sendWaiting();
      } while (again);
    } finally {
      syncing = null;
    }
  })();
  return syncing;
}

async function sendWaiting() {
  const blocked = new Set();
  for (;;) {
    const item = (await allQueued()).find((queued) => !blocked.has(queued.game));
    if (!item) break;
    if (item.refused) { blocked.add(item.game); continue; }
    let response;
    try {
      response = await post(item.url, item.fields);
    } catch {
      break;  // no connection yet: try again later
    }
    if (response.ok && response.redirected) {
      await dropQueued(Number(item.seq));
      if (landedHere(item, response.url)) continue;  // the form's own save, kept
      synced += 1;
      for (const panel of $$("[data-queue]")) {
        if (panel.dataset.queue === item.game) panel.dataset.hands = String(Number(panel.dataset.hands) + 1);
      }
      continue;
    }
    if (response.status >= 500) break;  // busy or down for a moment: keep it
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const token = /** @type {HTMLInputElement | null} */ ($("input[name=csrf_token]", page));
    if (response.status === 400 && token && !item.newToken) {
      // The form's CSRF token went stale while the hand waited: once, with a fresh one.
      item.fields = item.fields.map(([name, value]) =>
        [name, name === "csrf_token" ? token.value : value]);
      item.newToken = true;
    } else {
      item.refused = refusalText(page, response.status);
    }
    await putQueued(item);
  }
}

// ---------------------------------------------------------------- the panel


const KINDS = ["knock", "gin", "big_gin"];  // the quick form's kinds (void has its own line)

// One line for a waiting hand, from what was typed (the names are the panel's).
/** @param {[string, string][]} fields @param {string[]} names @returns {string} */
function summary(fields, names) {
  const given = new Map(fields);
  const mode = given.get("mode");
  if (mode === "quick") return quickLine(given, names, "");
  if (mode === "deal") {
    return say("deal_line", { first: quickLine(given, names, "g0_"),
                             second: quickLine(given, names, "g1_") });
  }
  if (mode === "cards") {
    const who = names[Number(given.get("knocker"))] || "?";
    const counts = names.map((_, seat) => fields.filter(([name]) => name === `cards_${seat}`).length)
      .filter((count) => count > 0);
    return say("went_out", { name: who, counts: listed(counts.map(String)) });
  }
  return say("deal_record");
}

// A quick entry (of a hand, or of one game of a deal: its fields start with ``prefix``).
/** @param {Map<string, string>} given @param {string[]} names @param {string} prefix */
function quickLine(given, names, prefix) {
  const kind = given.get(`${prefix}kind`) || "knock";
  if (kind === "void") return say("void");
  const who = names[Number(given.get(`${prefix}knocker`))] || "?";
  const mine = kind === "knock" ? given.get(`${prefix}knocker_deadwood`) || "?" : "0";
  return say("quick_line", { name: who, kind: KINDS.includes(kind) ? say(kind) : kind, mine,
                            other: given.get(`${prefix}defender_deadwood`) || "?" });
}

/** @param {HTMLElement} panel @param {Entry[]} items */
function renderPanel(panel, items) {
  const game = panel.dataset.queue;
  const names = JSON.parse(panel.dataset.names || "[]");
  const mine = items.filter((item) => item.game === game);
  const offline = !navigator.onLine;
  // Redrawn only when something changed: the panel is a live region, read out on change.
  const { hands } = known(panel);
  const state = JSON.stringify([offline, synced, hands,
                                mine.map((item) => [item.seq, item.refused])]);
  if (state === panel.dataset.state) return;
  panel.dataset.state = state;
  panel.replaceChildren();
  panel.hidden = !mine.length && !offline && !synced;
  if (panel.hidden) return;
  const heading = document.createElement("h2");
  heading.id = "queue-title";
  panel.append(heading);
  const note = document.createElement("p");
  note.className = "small";
  panel.append(note);
  if (!mine.length) {
    panel.className = offline ? "queue offline" : "queue done";
    heading.textContent = say(offline ? "no_connection" : "all_synced");
    note.textContent = offline ? say("kept_later") : sayCount("synced", synced);
    return;
  }
  panel.className = "queue waiting";
  heading.textContent = sayCount("waiting", mine.length);
  note.textContent = say(offline ? "kept_offline" : "kept_online");
  const list = document.createElement("ol");
  for (const [index, item] of mine.entries()) {
    const n = hands + index + 1;  // the number it will have on the sheet
    const row = document.createElement("li");
    const badge = document.createElement("span");
    badge.className = item.refused ? "badge refused" : "badge waiting";
    badge.textContent = say(item.refused ? "not_saved" : "waiting_badge");
    const line = byUnit(panel, "hand_line", "deal_line_n");
    row.append(badge, " ", say(line, { num: number(n), summary: summary(item.fields, names) }));
    if (item.refused) {
      const why = document.createElement("p");
      why.className = "error";
      why.textContent = item.refused;
      const discard = document.createElement("button");
      discard.type = "button";
      discard.className = "danger";
      discard.textContent = say(byUnit(panel, "discard_hand", "discard_deal"), { num: number(n) });
      discard.addEventListener("click", async () => {
        await dropQueued(Number(item.seq));
        refresh(true);
      });
      const retry = document.createElement("button");
      retry.type = "button";
      retry.className = "secondary";
      retry.textContent = say("try_again");
      retry.addEventListener("click", async () => {
        delete item.refused;
        await putQueued(item);
        refresh(true);
      });
      row.append(why, discard, " ", retry);
    }
    list.append(row);
  }
  panel.append(list);
}

async function refresh(send = false) {
  const panels = $$("[data-queue]");
  if (!panels.length) return;
  const before = synced;
  if (send) await sync();
  const items = await allQueued();
  for (const panel of panels) {
    rememberSheet(panel.dataset.queue);
    renderPanel(panel, items);
  }
  for (const form of $$("form[data-queue-game]")) {
    followQueue(form, items, byUnit(panels[0], "hand_n", "deal_n"));
  }
  // The sheet shows the new totals once the last waiting hand is on it.
  const sheetPanel = panels.find((panel) => panel.dataset.reload !== undefined);
  if (!sheetPanel) return;
  const waiting = items.filter((i) => i.game === sheetPanel.dataset.queue);
  if (synced > before && !waiting.length) {
    reloadSheet(sheetPanel.dataset.queue, Number(sheetPanel.dataset.hands));
    return;
  }
  if (await stale(sheetPanel)) return;
  // Until then, the board counts the hands waiting on this phone, provisionally.
  await showProvisional(waiting, Number(sheetPanel.dataset.hands), sheetPanel.dataset.unit);
}

/** @param {number} n */
const number = (n) => n.toLocaleString(lang);

// The sheet reloads, to show ``hands`` hands of ``game`` (the synced count kept across).
/** @param {string | undefined} game @param {number} hands */
function reloadSheet(game, hands) {
  sessionStorage.setItem("scorepad-synced", String(synced));
  sessionStorage.setItem("scorepad-owed", JSON.stringify({ game, hands }));
  // not over a page the player is already going to (a link tapped while the hand went
  // out): reloading would cancel it and leave them on the sheet
  if (!leaving) window.location.reload();
}

// A sheet reloaded once its hands were sent that shows fewer hands than it sent is the
// worker's kept copy from before them (the server did not answer the reload in time):
// its page is asked for again by script (the worker gives a script no kept copy, and
// keeps the answer), each round of the queue until the server answers; then it reloads,
// to show as many hands as that answer has (an undo on another phone may have taken one).
/** @param {HTMLElement} panel the sheet's queue panel @returns {Promise<boolean>} */
async function stale(panel) {
  if (!owed || owed.game !== panel.dataset.queue || Number(panel.dataset.hands) >= owed.hands) {
    owed = null;
    return false;
  }
  try {
    const response = await fetch(window.location.href, {
      cache: "no-store", credentials: "same-origin", headers: { Accept: "text/html" } });
    if (!response.ok) return true;
    const page = new DOMParser().parseFromString(await response.text(), "text/html");
    const fresh = $("[data-queue]", page);
    reloadSheet(owed.game, fresh ? Number(fresh.dataset.hands) : 0);
  } catch {
    // no answer yet: the next round asks again
  }
  return true;
}

// ---------------------------------------------------------------- worker and wake lock

function registerWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register("/sw.js", { type: "module" }).then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      // Keep the hand forms this sheet links to, so they open offline too; and this
      // page itself when its navigation began before the worker took over, when it
      // shows a save's notice (the worker keeps no such page: it keeps the sheet anew),
      // or when it is not kept at all.
      // A page can be controlled (the worker's claim at activation) yet not have come
      // through it (its navigation began before): the cache says whether it is kept.
      const keep = $$("a[data-keep]").map((a) => /** @type {HTMLAnchorElement} */ (a).href);
      const claim = !navigator.serviceWorker.controller;
      const notice = new URL(location.href).searchParams.has("done");
      return Promise.all([caches.match(location.href), caches.match("/offline")])
        .then(([page, offline]) => {
          if ((claim || notice || !page) && keep.length) keep.push(location.href);
          // The worker's page for addresses it has no copy of speaks the page's language.
          if (!offline || offline.headers.get("Content-Language") !== lang) keep.push("/offline");
          if ((keep.length || claim) && registration.active) {
            registration.active.postMessage({ keep, claim });
          }
        });
    })
    .catch(() => {});  // no worker: the page and its queue still work online
}

/** @type {WakeLockSentinel | null} */
let wakeLock = null;

async function keepAwake() {
  if (!("wakeLock" in navigator) || document.visibilityState !== "visible" || wakeLock) return;
  try {
    wakeLock = await navigator.wakeLock.request("screen");
    wakeLock.addEventListener("release", () => { wakeLock = null; });
  } catch {
    wakeLock = null;  // refused (battery saver, no secure context): the screen may sleep
  }
}

export function startOffline() {
  registerWorker();
  $$("form[data-queue-game]").forEach((form) => setupQueuedForm(form, refresh));
  if ($("[data-awake]")) {
    keepAwake();
    document.addEventListener("visibilitychange", keepAwake);
  }
  if ($("[data-locks-game]")) allQueued().then(lockFixes);
  if (!$("[data-queue]")) return;
  for (const panel of $$("[data-queue]")) panel.dataset.handsShown = panel.dataset.hands;
  refresh(true);
  window.addEventListener("online", () => refresh(true));
  window.addEventListener("offline", () => refresh());
  setInterval(() => refresh(true), RETRY_MS);
}
