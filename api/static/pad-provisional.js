// The sheet page while hands wait on the phone (issue 21): the board shows the
// totals, boxes, next dealer and game end with the waiting hands scored here
// (pad-score.js's provisional(), after the sheet the server sent in #sheet-state),
// marked provisional; Undo and the hand links (where a hand is corrected or made
// void) are disabled, with a sentence saying why, and so are a hand page's Correct
// and Void.
//
// Choices:
// - The server's figures are the page's own: once nothing waits, the board the
//   server rendered is put back as it was; once the waiting hands are on the sheet,
//   pad-offline.js reloads the page, so the server's answer replaces what was
//   scored here.
// - A hand the page cannot score (pad-score.js's NeedsServer: a deal record, a card
//   hand with a declared play) or that the server will refuse (the scorer's Refused,
//   or a hand the server has refused already) stops the scoring: the figures are
//   those before it, and a sentence says which hand and why.
// - Undo, correction and voiding change hands the waiting ones come after, and need
//   the server's answer: while hands wait they are not offered (disabled, not hidden,
//   so the page does not jump; without a connection their pages would not open).

import { $, $$ } from "./pad-dom.js";
import { setLocked } from "./pad-lock.js";
import { provisional, Refused } from "./pad-score.js";
import { lang, say, sayCount, sayParts } from "./pad-words.js";

/** @typedef {import("./pad-store.js").Entry} Entry */
/** @typedef {import("./pad-score.js").Sheet} Sheet */
/** @typedef {import("./pad-score.js").Column} Column */
/** @typedef {import("./pad-score.js").DealGame} DealGame */
/** @typedef {import("./pad-score.js").Provisional} Provisional */
/** @typedef {import("./pad-score.js").FullSheet} ApiSheet (the API's sheet: its hands listed) */
// (the sheet page with #sheet-state always has its board, its [data-live] heading and
// #provisional-note: templates/pad/sheet.html, macros.html's board)

const TEAMS = [[0, 2], [1, 3]];  // the sides at a table of four (api.pad.labels.side_names)
const TEAM_OF = [0, 1, 0, 1];
/** @param {number} n */
const number = (n) => n.toLocaleString(lang);

/** @type {{source: string, parts: [string, Node][]} | null} */
let kept = null;  // the server's board and next line as rendered, to put back: {source, parts}
/** @type {ApiSheet | null} */
let fetched = null;  // the game's sheet from the API, once hands were sent since the page came

/** @returns {[string, Node][]} */
function keep() {
  return ["section.board", "[data-next]"].filter((selector) => $(selector))
    .map((selector) => [selector, /** @type {HTMLElement} */ ($(selector)).cloneNode(true)]);
}

// The server's sheet the waiting hands follow: the page's (#sheet-state), or, when some
// hands were sent since it came (``hands`` on the sheet now), the API's sheet; null
// when that cannot be had now.
/** @param {string} source @param {number} hands @returns {Promise<Sheet | null>} */
async function serverSheet(source, hands) {
  /** @type {Sheet} */
  const page = JSON.parse(source);
  if (page.hands === hands) return page;
  if (fetched && fetched.hands.length === hands) return fetched;
  try {
    const live = /** @type {HTMLElement} */ ($("[data-live]"));
    const response = await fetch(/** @type {string} */ (live.dataset.live), {
      headers: { Accept: "application/json" }, cache: "no-store" });
    if (!response.ok) return null;
    fetched = /** @type {ApiSheet} */ (await response.json());
  } catch {
    return null;  // no connection: the hands sent are on the server, not known here
  }
  return fetched.hands.length === hands ? fetched : null;
}

/** @param {string} text */
function bdi(text) {
  const node = document.createElement("bdi");
  node.textContent = text;
  return node;
}

// A message of the server's with <b> round a placeholder: its pieces, bold kept.
/** @param {string} key @param {Record<string, Node>} values @returns {(string | Node)[]} */
function bold(key, values) {
  /** @type {(string | Node)[]} */
  const pieces = [];
  let inBold = false;
  for (const piece of sayParts(key, values)) {
    if (typeof piece !== "string") {
      if (inBold) {
        const b = document.createElement("b");
        b.append(piece);
        pieces.push(b);
      } else pieces.push(piece);
      continue;
    }
    for (const part of piece.split(/(<\/?b>)/)) {
      if (part === "<b>") inBold = true;
      else if (part === "</b>") inBold = false;
      else if (part) pieces.push(part);
    }
  }
  return pieces;
}

/** @param {string} text */
function chip(text) {
  const node = document.createElement("span");
  node.className = "dealer-chip";
  node.dataset.provisional = "";
  node.textContent = text;
  return node;
}

// The winner's name as the server writes it (views_result.winner_line): the catalog's
// "Winner: %(name)s" round the name's own nodes, its words marked.
/** @param {HTMLElement} name */
function crown(name) {
  const own = [...name.childNodes];
  const NAME = "\u0000";
  name.replaceChildren(...sayParts("winner", { name: NAME }).flatMap((piece) => {
    if (piece === NAME) return own;
    const node = document.createElement("span");
    node.className = "winner-word";
    node.dataset.provisional = "";
    node.textContent = piece;
    return [node];
  }));
}

// What side ``p`` still needs, as the server words it (views_sheet's ``needed_in``): with
// Hollywood's columns, the first open game those points would close.
/** @param {Sheet} sheet @param {number} p */
function needs(sheet, p) {
  const points = sheet.needed[p];
  const column = (sheet.columns || []).find((col) => !col.over && col.needed[p] === points);
  return column ? say("needs_in", { points, n: column.game }) : say("needs", { points });
}

// The board's cards, one per side, from a sheet summary.
/** @param {Sheet} sheet */
function drawBoard(sheet) {
  const four = sheet.players.length === 4;
  const hollywood = sheet.scoring === "hollywood";
  const dealing = four ? TEAM_OF[sheet.next_dealer] : sheet.next_dealer;
  for (const card of $$(".board .player")) {
    const p = Number(card.dataset.player);
    const name = /** @type {HTMLElement} */ ($(".name", card));
    $$(".dealer-chip, .winner-word", name).forEach((node) => node.remove());
    if (!sheet.over && dealing === p) name.append(" ", chip(say(four ? "deal_next" : "deals_next")));
    if (sheet.over && sheet.result && sheet.result.winner === p) crown(name);
    let said;
    if (hollywood) {
      const totals = /** @type {Column[]} */ (sheet.columns)
        .map((column) => (column.opened[p] ? column.totals[p] : null));
      $$(".games .game b", card).forEach((node, c) => { node.textContent = String(totals[c] ?? "·"); });
      said = totals.map((total, c) => say("game_total", { n: c + 1, total: total ?? "–" })).join(", ");
    } else {
      /** @type {HTMLElement} */ ($(".total", card)).textContent = String(sheet.totals[p]);
      said = sayCount("points", sheet.totals[p]);
    }
    const boxes = sayCount("boxes", sheet.boxes[p]);
    const meta = /** @type {HTMLElement} */ ($(".meta", card));
    meta.textContent = sheet.over ? boxes : `${boxes} · ${needs(sheet, p)}`;
    const side = four ? TEAMS[p].map((seat) => sheet.players[seat]).join(" & ") : sheet.players[p];
    card.setAttribute("aria-label", say("labelled", { label: side, value: `${said}, ${boxes}` }));
  }
}

// Who deals (and plays) next, as the server words it.
/** @param {Sheet} sheet @returns {(string | Node)[]} */
function nextLine(sheet) {
  const names = sheet.players;
  if (names.length === 4) {  // a deal's sheet names its games
    const [first, second] = /** @type {DealGame[]} */ (sheet.next_games).map((game) => sayParts("deals_to", {
      dealer: bdi(names[game.dealer]),
      other: bdi(names[game.players[0] + game.players[1] - game.dealer]) }));
    const pieces = (/** @type {(string | Node)[]} */ parts) => { const span = document.createElement("span"); span.append(...parts); return span; };
    return sayParts("next_four", { first: pieces(first), second: pieces(second) });
  }
  const dealer = sheet.next_dealer;
  if (names.length === 3) {
    const [a, b] = [0, 1, 2].filter((p) => p !== dealer);
    return bold("next_three", { dealer: bdi(names[dealer]), a: bdi(names[a]), b: bdi(names[b]) });
  }
  return bold("next_two", { dealer: bdi(names[dealer]) });
}

/** @param {string} text */
function sentence(text, className = "small") {
  const node = document.createElement("p");
  node.className = className;
  node.textContent = text;
  return node;
}

// Undo, correction and voiding (the sheet's hand links lead to them) on or off.
/** @param {boolean} locked */
function lock(locked) {
  for (const control of $$("form[data-locks] button, a[data-locks], table.hands a")) {
    setLocked(control, "locked-why", locked);
  }
}

// A hand's own page: its Correct and Void wait too while hands of its game wait.
/** @param {Entry[]} items */
export function lockFixes(items) {
  const section = $("[data-locks-game]");
  if (!section) return;
  const waiting = items.some((item) => item.game === section.dataset.locksGame);
  lock(waiting);
  const why = $("#locked-why");
  if (waiting && !why) {
    const said = sentence(say("locked"));
    said.id = "locked-why";
    section.append(said);
  } else if (!waiting && why) why.remove();
}

// The board for the hands of this game waiting on the phone (the queue's items, in order),
// ``hands`` the number on the server's sheet, ``unit`` "hand" or "deal".
/** @param {Entry[]} waiting @param {number} hands @param {string | undefined} unit */
export async function showProvisional(waiting, hands, unit) {
  const note = $("#provisional-note");
  const block = $("#sheet-state");
  if (!note || !block) return;
  const source = block.textContent;  // a live update of the page brings a new one
  const state = JSON.stringify([source, hands, waiting.map((item) => [item.seq, Boolean(item.refused)])]);
  if (state === note.dataset.state) return;
  const server = waiting.length ? await serverSheet(source, hands) : null;
  if (waiting.length && !server) return;  // keep what is shown until the sheet is known
  note.dataset.state = state;
  if (!kept || kept.source !== source) kept = { source, parts: keep() };
  else {
    for (const [selector, copy] of kept.parts) {
      /** @type {HTMLElement} */ ($(selector)).replaceWith(copy.cloneNode(true));
    }
  }
  lock(waiting.length > 0);
  note.replaceChildren();
  note.hidden = !waiting.length;
  /** @type {HTMLElement} */ ($("section.board")).classList.toggle("provisional", waiting.length > 0);
  if (!waiting.length || !server) return;  // (hands wait: their sheet is known, above)

  const refused = waiting.findIndex((item) => item.refused);
  const typed = (refused < 0 ? waiting : waiting.slice(0, refused)).map((item) => item.fields);
  /** @type {Provisional} */
  let scored;
  try {
    scored = provisional(server, typed);
  } catch {
    scored = { sheet: server, records: [], stopped: { index: 0, error: null } };  // not scored here
  }
  const stopped = scored.stopped ?? (refused >= 0 ? { index: refused, error: new Refused("refused") } : null);
  const sheet = scored.sheet;

  const head = document.createElement("p");
  const badge = document.createElement("span");
  badge.className = "badge waiting";
  badge.textContent = say("provisional");
  head.append(badge, " ", say("provisional_note"));
  note.append(head);
  if (stopped) {
    const n = number(hands + stopped.index + 1);
    const key = stopped.error instanceof Refused ? "refused" : "on_sync";
    note.append(sentence(say(`${key}_${unit}`, { num: n }), "small stopped"));
  }
  const last = hands + scored.records.length;
  if (sheet.over) note.append(sentence(say(`ends_${unit}`, { num: number(last) }), "ends"));
  const why = sentence(say("locked"));
  why.id = "locked-why";
  note.append(why);

  drawBoard(sheet);
  const next = $("[data-next]");
  if (next) {
    next.hidden = sheet.over;
    next.replaceChildren(...nextLine(sheet));
  }
}
