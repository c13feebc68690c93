// The hand form's heading and dealer line (issue 26, item 9): the hand it takes is
// numbered, and its dealer named, as the sheet will have them.
//
// Choices:
// - A copy of the form kept for offline may be older than the sheet this phone saw
//   last (the worker had not fetched it again before the connection went). So every
//   page from the server with the game's sheet (#sheet-state and its data-version: the
//   sheet page, a new hand's form) leaves it in localStorage, the newest version kept,
//   and the form goes on from the newer of its own sheet and that one.
// - The hands waiting on the phone come next, scored by pad-score.js's provisional():
//   the dealer after them is the game's rules' (the winner or the loser deals, a void
//   hand is dealt again by the same player, ...). A waiting hand the page cannot score
//   (a deal record, a hand the server will refuse), or hands sent from this page since
//   it opened (their scores are the server's), leave the dealer unknown: the line is
//   hidden. At a table of three or four the form's players are the ones its page was
//   made for: the line shows only when nothing moved (pad-offline.js holds back a
//   second waiting hand there).

import { $, $$ } from "./pad-dom.js";
import { provisional } from "./pad-score.js";
import { lang, say, sayParts } from "./pad-words.js";

/** @typedef {import("./pad-store.js").Entry} Entry */
/** @typedef {import("./pad-score.js").Sheet} Sheet */
/** A sheet this phone saw: the summary in #sheet-state and its version.
 * @typedef {{version: number, state: Sheet}} Seen */

const STORE = "scorepad-sheet:";
/** @param {number} n */
const number = (n) => n.toLocaleString(lang);

/** @param {string | undefined} game @returns {Seen | null} */
function stored(game) {
  try {
    return JSON.parse(localStorage.getItem(STORE + game) ?? "null");
  } catch {
    return null;  // none kept, or not readable: the page's own sheet
  }
}

/** @returns {Seen | null} */
function pageSheet() {
  const block = $("#sheet-state");
  return block ? { version: Number(block.dataset.version), state: JSON.parse(block.textContent) } : null;
}

// Keeps the sheet this page shows for ``game`` when it is newer than the one kept.
/** @param {string | undefined} game */
export function rememberSheet(game) {
  const mine = pageSheet();
  const kept = stored(game);
  if (!mine || (kept && kept.version >= mine.version)) return;
  try {
    localStorage.setItem(STORE + game, JSON.stringify(mine));
  } catch {
    // storage full or refused: the form goes on from its own sheet
  }
}

/** @param {HTMLElement} line @param {Sheet} state @param {Entry[]} waiting */
function dealerLine(line, state, waiting) {
  /** @type {{stopped: unknown, sheet?: Sheet}} */
  let after;
  try {
    after = provisional(state, waiting.map((item) => item.fields));
  } catch {
    after = { stopped: true };
  }
  if (after.stopped || !after.sheet || after.sheet.over || state.players.length !== 2) {
    line.hidden = true;
    return;
  }
  const name = document.createElement("bdi");
  name.textContent = after.sheet.players[after.sheet.next_dealer];
  line.replaceChildren(...sayParts("deals_this", { name }));
  line.hidden = false;
}

// What this phone knows of the sheet before the hands waiting for ``panel``'s game: the
// number of hands on it, the sheet itself (null if none here), whether this page is
// older than it, and how many hands this page sent since it opened.
/** @param {HTMLElement} panel
 * @returns {{older: boolean, sentHere: number, state: Sheet | null, hands: number}} */
export function known(panel) {
  const own = pageSheet();
  const kept = stored(panel.dataset.queue);
  const older = Boolean(kept && own && kept.version > own.version);  // this page is a copy
  const sentHere = Number(panel.dataset.hands) - Number(panel.dataset.handsShown);
  if (older && kept) {  // a summary: its hands are their number
    return { older, sentHere, state: kept.state, hands: /** @type {number} */ (kept.state.hands) + sentHere };
  }
  return { older, sentHere, state: own && own.state, hands: Number(panel.dataset.hands) };
}

// The form's heading and dealer line for the hands of its game waiting now (``items``).
/** @param {HTMLElement} form @param {Entry[]} items @param {string} unitWord */
export function followQueue(form, items, unitWord) {
  const panel = /** @type {HTMLElement} */ ($(`[data-queue="${form.dataset.queueGame}"]`));
  const waiting = items.filter((item) => item.game === form.dataset.queueGame);
  if (waiting.length) form.dataset.waiting = "yes";
  else delete form.dataset.waiting;
  const { older, sentHere, state, hands } = known(panel);
  const title = $("h1");
  if (title) title.textContent = say(unitWord, { num: number(hands + waiting.length + 1) });
  const moved = waiting.length > 0 || sentHere > 0 || older;
  for (const line of $$("[data-dealer-line]")) {
    if (!moved) line.hidden = false;
    else if (sentHere > 0 || !state) line.hidden = true;
    else dealerLine(line, state, waiting);
  }
  // The quick form's live score adds its totals to the page's own sheet (pad-quick.js).
  form.toggleAttribute("data-sheet-moved", moved);
}
