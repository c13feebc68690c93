// The hand form's save (issue 26, item 9): a new hand goes out, and lands on the sheet.
//
// Choices:
// - Online with nothing waiting, the form is sent the ordinary way (the server's page,
//   with its errors, as without JavaScript), with a key. Its button says *Saving…* and
//   cannot be pressed again (aria-busy).
// - Without the next page in KEPT_AFTER_MS (a slow network, or none: Wi-Fi up, laptop
//   gone) the page stops waiting, so that a lost connection never ends on the browser's
//   "no internet" page: the hand joins the queue (pad-offline.js) with the same key (a
//   request that did reach the server stores nothing twice), the page says it is kept
//   on this phone, and the form is ready for the next hand. The queue sends it at once.
// - Once the queue has it on the sheet, the page opens the sheet for it, as for any
//   save: "Hand 4 added." and its Undo, one message at a time (the "kept" note gives way
//   to "opening the sheet"; the hand is not counted as one typed without a
//   connection). The server's "already saved" is this very save (the page's own
//   request stored it before the page stopped waiting). A player already typing the
//   next hand stays on the form, told the kept hand is on the sheet.
// - With no connection (navigator.onLine false), or while hands of this game wait, a
//   new hand joins the queue at once: hands reach the sheet in the order typed.

import { $, $$ } from "./pad-dom.js";
import { put as putQueued } from "./pad-store.js";
import { say } from "./pad-words.js";

/** @typedef {import("./pad-store.js").Entry} Entry */
/** The queue's refresh (pad-offline.js): ``send`` sends what waits first.
 * @typedef {(send?: boolean) => Promise<void>} Refresh */

const KEPT_AFTER_MS = 3000;

/** @type {Map<string | undefined, HTMLFormElement>} */
const keptHere = new Map();  // key -> form: hands this page kept when its request was slow
let landing = false;

/** @param {[string, string][]} fields */
const keyOf = (fields) => (fields.find(([name]) => name === "form_key") || [])[1];

function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return "pad-" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// The message of a hand, or of a deal at a table of four (the panel's data-unit).
/** @param {HTMLElement | null} panel @param {string} hand @param {string} deal */
export function byUnit(panel, hand, deal) {
  return panel && panel.dataset.unit === "deal" ? deal : hand;
}

// (templates/pad/hand.html: the form that queues comes with its game's panel)
/** @param {HTMLFormElement} form */
const panelOf = (form) => /** @type {HTMLElement} */ ($(`[data-queue="${form.dataset.queueGame}"]`));

/** @param {HTMLFormElement} form @param {string} text */
function tell(form, text) {
  let note = $("[data-offline-note]", form);
  if (!note) {
    note = document.createElement("p");
    note.className = "banner";
    note.setAttribute("role", "alert");
    note.dataset.offlineNote = "";
    note.tabIndex = -1;
    /** @type {HTMLElement} */ ($(".actions", form)).before(note);  // every hand form has its buttons
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
/** @param {HTMLFormElement} form */
function handKey(form) {
  let key = /** @type {HTMLInputElement | null} */ ($("input[name=form_key]", form));
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
/** @param {HTMLFormElement} form */
function rememberKey(form) {
  const version = /** @type {HTMLInputElement | null} */ ($("input[name=version]", form));
  history.replaceState({ ...(history.state || {}), handForm: {
    key: handKey(form).value, version: version ? version.value : null } }, "");
}

/** @param {HTMLFormElement} form @param {[string, string][]} fields @param {Refresh} refresh */
async function queueHand(form, fields, refresh) {
  // (a queued form names its game, and has its action: templates/pad/hand.html)
  await putQueued({ game: /** @type {string} */ (form.dataset.queueGame), fields,
                    created: new Date().toISOString(),
                    url: new URL(/** @type {string} */ (form.getAttribute("action")),
                                 window.location.href).href });
  form.reset();
  handKey(form).value = newKey();
  rememberKey(form);
  for (const input of $$("[data-grid], input[name=kind]:checked", form)) {
    input.dispatchEvent(new Event("change"));
  }
  delete form.dataset.touched;  // the next hand: untouched until the player types it
  await refresh();
  const panel = panelOf(form);
  panel.tabIndex = -1;
  panel.focus();
  panel.scrollIntoView({ block: "start" });
}

// The queue stored ``item`` (pad-offline.js), the server answering with the sheet at
// ``url``: true when it was a hand this page kept, which then lands as the page's own
// save would have (and is not one typed without a connection).
/** @param {Entry} item @param {string} url */
export function landedHere(item, url) {
  const key = keyOf(item.fields);
  const form = keptHere.get(key);
  if (!form) return false;
  keptHere.delete(key);
  if (landing) return true;
  if (form.dataset.touched) {  // the player is typing the next hand: say where this one went
    const n = new URL(url).searchParams.get("n");
    tell(form, say(byUnit(panelOf(form), "on_sheet_hand", "on_sheet_deal"), { num: n || "" }));
    return true;
  }
  landing = true;
  tell(form, say("opening_sheet"));
  const sheet = new URL(url);
  if (sheet.searchParams.get("done") === "again") sheet.searchParams.set("done", "added");
  window.location.assign(sheet.href);
  return true;
}

/** @param {HTMLElement} element (a form[data-queue-game]) @param {Refresh} refresh */
export function setupQueuedForm(element, refresh) {
  const form = /** @type {HTMLFormElement} */ (element);
  const key = handKey(form);
  const kept = (history.state || {}).handForm;
  const [navigation] = /** @type {PerformanceNavigationTiming[]} */ (
    performance.getEntriesByType("navigation"));
  if (kept && navigation && navigation.type === "back_forward") {
    key.value = kept.key;
    const version = /** @type {HTMLInputElement | null} */ ($("input[name=version]", form));
    if (version && kept.version !== null) version.value = kept.version;
  } else if (!navigator.onLine || !key.value) {
    key.value = newKey();
  }
  rememberKey(form);
  for (const type of ["input", "change", "click"]) {
    form.addEventListener(type, (event) => { if (event.isTrusted) form.dataset.touched = "yes"; });
  }
  let queueing = false;
  form.addEventListener("submit", (event) => {
    // A double tap, or a tap on another button of a form under way (its request
    // would replace the save's).
    if (queueing || form.dataset.saving) { event.preventDefault(); return; }
    const submitter = /** @type {HTMLButtonElement | null} */ (event.submitter);
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
      /** @param {[string, FormDataEntryValue]} field @returns {field is [string, string]} */
      (field) => typeof field[1] === "string" && field[0] !== "version");
    fields.push(["action", "save"]);
    const keep = () => {
      queueing = true;
      return queueHand(form, fields, refresh).finally(() => { queueing = false; refresh(true); });
    };
    if (navigator.onLine && !form.dataset.waiting) {  // sent the ordinary way
      saving(form, submitter, () => {
        keptHere.set(keyOf(fields), form);
        return keep();
      });
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
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    landing = false;
    const note = $("[data-offline-note]", form);
    if (note) note.remove();
    saved(form);
  });
}

// The form's hand is under way: its button says so. After KEPT_AFTER_MS without the
// next page the page stops waiting, ``keep`` queues the hand, and the page says so.
/** @param {HTMLFormElement} form @param {HTMLButtonElement | null} button
 * @param {() => Promise<void>} keep */
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
    tell(form, say(byUnit(panelOf(form), "kept_slow_hand", "kept_slow_deal")));
  }, KEPT_AFTER_MS);
  window.addEventListener("pagehide", () => clearTimeout(timer), { once: true });
}

/** @param {HTMLFormElement} form */
function saved(form) {
  delete form.dataset.saving;
  for (const button of /** @type {HTMLButtonElement[]} */ ($$("button[aria-busy]", form))) {
    button.textContent = button.dataset.label ?? null;  // (always set with aria-busy)
    button.removeAttribute("aria-busy");
    button.style.minWidth = "";
    button.disabled = false;
  }
}
