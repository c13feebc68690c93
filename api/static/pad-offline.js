// The scorepad at a table without a steady connection: the queue of unsent
// hands, the service worker and the screen's wake lock.
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
// - Online with nothing waiting, the form is sent the ordinary way (the
//   server's page, with its errors, as without JavaScript), with a key. With
//   no connection (navigator.onLine false), or while hands of this game wait,
//   a new hand joins the queue instead: hands reach the sheet in the order typed.
// - A hand sent the ordinary way shows it is under way: its button says so and
//   cannot be pressed again (aria-busy). Without an answer in KEPT_AFTER_MS the
//   page stops waiting and the hand joins the queue with the same key (so a
//   request that did reach the server stores nothing twice), and the page says
//   the hand is kept on this phone and will be sent.

import { $, $$ } from "./pad-dom.js";
import { all as allQueued, put as putQueued, drop as dropQueued } from "./pad-store.js";
import { lang, listed, say, sayCount } from "./pad-words.js";
import { lockFixes, showProvisional } from "./pad-provisional.js";

const RETRY_MS = 10000;
const KEPT_AFTER_MS = 3000;

// ---------------------------------------------------------------- the stored queue

async function queuedFor(game) {
  return (await allQueued()).filter((item) => item.game === game);
}

function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return "pad-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// ---------------------------------------------------------------- sending

let syncing = null;
let synced = Number(sessionStorage.getItem("scorepad-synced") || 0);  // across the reload below
sessionStorage.removeItem("scorepad-synced");

let leaving = false;  // a link followed or a form sent: that page is coming (see refresh)
window.addEventListener("beforeunload", () => { leaving = true; });
window.addEventListener("pageshow", () => { leaving = false; });  // back from the cache

function refusalText(page, status) {
  // The form's own words first (its banner, then a field's error), else the error page's.
  for (const selector of ["#main .banner", "#main .error", "#main h1 + p"]) {
    const node = $(selector, page);
    if (node && node.textContent.trim()) return node.textContent.trim();
  }
  return say("refused", { status });
}

function post(url, fields) {
  return fetch(url, { method: "POST", body: new URLSearchParams(fields),
                      credentials: "same-origin", headers: { Accept: "text/html" } });
}

// Sends what waits, oldest first, one game's hands in the order typed; resolves
// when it stops (all sent, or no connection). A refused hand holds back only
// the later hands of its own game.
function sync() {
  syncing ??= (async () => {
    const blocked = new Set();
    try {
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
          await dropQueued(item.seq);
          synced += 1;
          for (const panel of $$("[data-queue]")) {
            if (panel.dataset.queue === item.game) panel.dataset.hands = Number(panel.dataset.hands) + 1;
          }
          continue;
        }
        if (response.status >= 500) break;  // busy or down for a moment: keep it
        const page = new DOMParser().parseFromString(await response.text(), "text/html");
        const token = $("input[name=csrf_token]", page);
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
    } finally {
      syncing = null;
    }
  })();
  return syncing;
}

// ---------------------------------------------------------------- the panel


const KINDS = ["knock", "gin", "big_gin"];  // the quick form's kinds (void has its own line)

// One line for a waiting hand, from what was typed (the names are the panel's).
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
function quickLine(given, names, prefix) {
  const kind = given.get(`${prefix}kind`) || "knock";
  if (kind === "void") return say("void");
  const who = names[Number(given.get(`${prefix}knocker`))] || "?";
  const mine = kind === "knock" ? given.get(`${prefix}knocker_deadwood`) || "?" : "0";
  return say("quick_line", { name: who, kind: KINDS.includes(kind) ? say(kind) : kind, mine,
                            other: given.get(`${prefix}defender_deadwood`) || "?" });
}

function renderPanel(panel, items) {
  const game = panel.dataset.queue;
  const names = JSON.parse(panel.dataset.names || "[]");
  const mine = items.filter((item) => item.game === game);
  const offline = !navigator.onLine;
  // Redrawn only when something changed: the panel is a live region, read out on change.
  const state = JSON.stringify([offline, synced, panel.dataset.hands,
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
    const n = Number(panel.dataset.hands) + index + 1;  // the number it will have on the sheet
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
        await dropQueued(item.seq);
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
  for (const panel of panels) renderPanel(panel, items);
  for (const form of $$("form[data-queue-game]")) followQueue(form, items);
  // The sheet shows the new totals once the last waiting hand is on it.
  const sheetPanel = panels.find((panel) => panel.dataset.reload !== undefined);
  if (!sheetPanel) return;
  const waiting = items.filter((i) => i.game === sheetPanel.dataset.queue);
  if (synced > before && !waiting.length) {
    sessionStorage.setItem("scorepad-synced", String(synced));
    // not over a page the player is already going to (a link tapped while the hand went
    // out): reloading would cancel it and leave them on the sheet
    if (!leaving) window.location.reload();
    return;
  }
  // Until then, the board counts the hands waiting on this phone, provisionally.
  await showProvisional(waiting, Number(sheetPanel.dataset.hands), sheetPanel.dataset.unit);
}

// ---------------------------------------------------------------- the hand form

// While hands of this game wait, the page numbers the next hand after them and
// the form sends it behind them; the dealer is not known until they are on the sheet.
function followQueue(form, items) {
  const panel = $(`[data-queue="${form.dataset.queueGame}"]`);
  const waiting = items.filter((item) => item.game === form.dataset.queueGame);
  if (waiting.length) form.dataset.waiting = "yes";
  else delete form.dataset.waiting;
  const title = $("h1");
  if (title) {
    title.textContent = say(byUnit(panel, "hand_n", "deal_n"),
                            { num: number(Number(panel.dataset.hands) + waiting.length + 1) });
  }
  // The dealer shown was the server's for the hand after those it knew then.
  const moved = waiting.length > 0 || panel.dataset.hands !== panel.dataset.handsShown;
  $$("[data-dealer-line]").forEach((line) => { line.hidden = moved; });
  // So is the sheet the quick form's live score would add its totals to (pad-quick.js).
  form.toggleAttribute("data-sheet-moved", moved);
}

// The message of a hand, or of a deal at a table of four (the panel's data-unit).
function byUnit(panel, hand, deal) {
  return panel.dataset.unit === "deal" ? deal : hand;
}

const number = (n) => n.toLocaleString(lang);

async function queueHand(form, fields) {
  await putQueued({ game: form.dataset.queueGame, fields, created: new Date().toISOString(),
                    url: new URL(form.getAttribute("action"), window.location.href).href });
  form.reset();
  handKey(form).value = newKey();
  rememberKey(form);
  for (const input of $$("[data-grid], input[name=kind]:checked", form)) {
    input.dispatchEvent(new Event("change"));
  }
  await refresh();
  const panel = $("[data-queue]");
  panel.tabIndex = -1;
  panel.focus();
  panel.scrollIntoView({ block: "start" });
}

function tell(form, text) {
  let note = $("[data-offline-note]", form);
  if (!note) {
    note = document.createElement("p");
    note.className = "banner";
    note.setAttribute("role", "alert");
    note.dataset.offlineNote = "";
    note.tabIndex = -1;
    $(".actions", form).before(note);
  }
  note.textContent = text;
  note.focus();
}

// One key per hand typed, in the form's own key field (form_key, which the
// server renders with the sheet version it was built from). A page opened
// without a connection is a copy kept for offline, whose key every such
// opening would repeat: it gets a fresh key; so does the form once a hand
// joins the queue. A page opened online keeps the server's key, so that Back
// then Save, or a double tap, sends the same key and is stored once.
function handKey(form) {
  let key = $("input[name=form_key]", form);
  if (!key) {
    key = document.createElement("input");
    key.type = "hidden";
    key.name = "form_key";
    form.append(key);
  }
  return key;
}

// The key (and sheet version) this history entry's form had, kept in the entry itself.
// Back to a form already sent normally shows the browser's copy (its own key: the server
// answers "already saved"); a browser short of memory fetches the page again instead,
// with a new key, and the hand would be stored twice. The entry remembers the first key.
function rememberKey(form) {
  const version = $("input[name=version]", form);
  history.replaceState({ ...(history.state || {}), handForm: {
    key: handKey(form).value, version: version ? version.value : null } }, "");
}

function setupQueuedForm(form) {
  const key = handKey(form);
  const kept = (history.state || {}).handForm;
  const [navigation] = performance.getEntriesByType("navigation");
  if (kept && navigation && navigation.type === "back_forward") {
    key.value = kept.key;
    const version = $("input[name=version]", form);
    if (version && kept.version !== null) version.value = kept.version;
  } else if (!navigator.onLine || !key.value) {
    key.value = newKey();
  }
  rememberKey(form);
  let queueing = false;
  form.addEventListener("submit", (event) => {
    // A double tap, or a tap on another button of a form under way (its request
    // would replace the save's).
    if (queueing || form.dataset.saving) { event.preventDefault(); return; }
    const submitter = event.submitter;
    if (submitter && submitter.value !== "save") {
      // "Check the hand" and "Preview the score" need the server's answer.
      if (!navigator.onLine) {
        event.preventDefault();
        tell(form, say("no_preview"));
      }
      return;
    }
    // A queued hand carries no sheet version: the queue's order is the truth, and the
    // hands queued before it change the version the form was built from.
    const fields = [...new FormData(form)].filter(
      ([name, value]) => typeof value === "string" && name !== "version");
    fields.push(["action", "save"]);
    const keep = () => {
      queueing = true;
      return queueHand(form, fields).finally(() => { queueing = false; refresh(true); });
    };
    if (navigator.onLine && !form.dataset.waiting) {  // sent the ordinary way
      saving(form, submitter, keep);
      return;
    }
    event.preventDefault();
    if (form.dataset.queueOne !== undefined && form.dataset.waiting) {
      // Three or four players: who plays the next hand depends on the one waiting.
      tell(form, say("first_waits"));
      return;
    }
    keep();
  });
  // Back to this form from the page its hand led to: ready for the next hand.
  window.addEventListener("pageshow", (event) => { if (event.persisted) saved(form); });
}

// The form's hand is under way: its button says so. After KEPT_AFTER_MS without an
// answer the page stops waiting, ``keep`` queues the hand, and the page says so.
function saving(form, button, keep) {
  form.dataset.saving = "yes";
  if (button) {  // as wide as it was, so that nothing moves under a second tap
    button.style.minWidth = `${button.getBoundingClientRect().width}px`;
    button.dataset.label = button.textContent;
    button.textContent = say("saving");
    button.setAttribute("aria-busy", "true");
    setTimeout(() => { button.disabled = true; });  // once the form's fields are taken
  }
  const timer = setTimeout(async () => {
    window.stop();  // the page's own request gives way to the queue (the same key)
    await keep();
    saved(form);
    const panel = $(`[data-queue="${form.dataset.queueGame}"]`);
    tell(form, say(byUnit(panel, "kept_slow_hand", "kept_slow_deal")));
  }, KEPT_AFTER_MS);
  window.addEventListener("pagehide", () => clearTimeout(timer), { once: true });
}

function saved(form) {
  delete form.dataset.saving;
  for (const button of $$("button[aria-busy]", form)) {
    button.textContent = button.dataset.label;
    button.removeAttribute("aria-busy");
    button.style.minWidth = "";
    button.disabled = false;
  }
}

// ---------------------------------------------------------------- worker and wake lock

function registerWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register("/sw.js", { type: "module" }).then(() => navigator.serviceWorker.ready)
    .then((registration) => {
      // Keep the hand forms this sheet links to, so they open offline too; and this
      // page itself when its navigation began before the worker took over.
      const keep = $$("a[data-keep]").map((a) => a.href);
      const claim = !navigator.serviceWorker.controller;
      if (claim && keep.length) keep.push(location.href);
      // The worker's page for addresses it has no copy of speaks the page's language.
      return caches.match("/offline").then((kept) => {
        if (!kept || kept.headers.get("Content-Language") !== lang) keep.push("/offline");
        if ((keep.length || claim) && registration.active) {
          registration.active.postMessage({ keep, claim });
        }
      });
    })
    .catch(() => {});  // no worker: the page and its queue still work online
}

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
  $$("form[data-queue-game]").forEach(setupQueuedForm);
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
