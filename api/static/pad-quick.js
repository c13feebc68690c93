// The quick form on a phone: one screen, no phone keyboard, the score as it is tapped.
//
// Taps for an ordinary knock (Ana knocks with 3 against Bor's 25): Ana's chip "3" (who
// went out, Knock and her deadwood: 1 tap), the keypad's 2 and 5 (2 taps), Add to the
// sheet (1 tap): 4 taps. A gin is its player's chip "Gin"; a one-digit count on the
// keypad makes either 3 taps. Big gin and void keep their choices in the form's fields,
// below the chips (a chip sets Knock or Gin).
//
// Choices:
// - The form's own fields stay, so what is sent is what the form without JavaScript
//   sends: the chips tick its radios and fill its fields. The deadwood fields get
//   inputmode="none" (the phone's keyboard stays shut; a real keyboard still types).
// - The keypad writes to the deadwood field last focused, the other player's unless
//   another was chosen; at most two digits (no count is above 98: a third digit starts
//   the count again), ⌫ takes the last one back.
// - The score shown live is pad-score.js addHand on the sheet as the page was made
//   (#sheet-state, the summary the core's score_sheet goes on from): the core's rules,
//   proven equal to them (tests/test_pad_score.py), never a second copy. A hand not yet
//   complete, or one the server would refuse, shows nothing; Add gets the server's words.
//   While hands wait on the phone, or the page is older than the sheet it came from
//   (data-sheet-moved, pad-offline.js), the totals are not known here: the hand's own
//   score shows alone.
// - Without JavaScript the form is the plain fields with Preview and Add.

import { $, $$ } from "./pad-dom.js";
import { addHand, NeedsServer, Refused } from "./pad-score.js";
import { say, sayParts } from "./pad-words.js";

/** @typedef {import("./pad-score.js").Sheet} Sheet */
/** @typedef {import("./pad-score.js").HandRecord} HandRecord */
/** A pad's parts the keyboard works with.
 * @typedef {{pad: HTMLElement, rows: HTMLElement[], press: (chip: HTMLElement) => void,
 *   type: (key: string) => void}} Keys */
// (templates/pad/hand.html's quick_pad: a pad is in its form, in main, with its game's
// deadwood fields, its typed count, and a Gin chip in each row that is never hidden)

/** @type {Record<string, string>} */
const SAID = { knock: "live_knock", gin: "live_gin", big_gin: "live_big_gin",
               undercut: "live_undercut" };

/** @param {HTMLElement} element (a form[data-quick] or form[data-deal]) */
export function setupQuickPad(element) {
  const form = /** @type {HTMLFormElement} */ (element);
  const pads = $$("[data-quick-pad]", form);
  pads.forEach((pad) => setupPad(form, pad));
  // the first pad takes the focus (no keyboard opens): digits and Enter work at once
  if (pads.length && !/** @type {HTMLElement} */ (form.closest("main")).querySelector("[role=alert]")) {
    pads[0].focus({ preventScroll: true });
  }
}

// One pad: the chips and keypad of one game (prefix "" on the quick form, g0_ and g1_ for the
// games of a partnership deal), writing to that game's fields.
/** @param {HTMLFormElement} form @param {HTMLElement} pad */
function setupPad(form, pad) {
  pad.hidden = false;
  const prefix = pad.dataset.prefix || "";
  /** @param {string} name */
  const field = (name) => /** @type {HTMLInputElement} */ ($(`[name="${prefix}${name}"]`, form));
  const mine = field("knocker_deadwood");
  const theirs = field("defender_deadwood");
  let target = theirs;
  for (const input of [mine, theirs]) {
    input.inputMode = "none";
    input.addEventListener("focus", () => { target = input; });
  }
  const stateBlock = $("#sheet-state");
  /** @type {Sheet | null} */
  const state = stateBlock ? JSON.parse(stateBlock.textContent) : null;
  const shown = $("[data-live-preview]", pad);
  const count = /** @type {HTMLElement} */ ($("[data-typed-count]", pad));
  const chips = $$("[data-chip-knocker]", pad);
  const rows = $$(".chips", pad);

  /** @param {string} name @param {string | undefined} value */
  const choose = (name, value) => {
    const radio = /** @type {HTMLInputElement | null} */ (
      $(`input[name="${prefix}${name}"][value="${value}"]`, form));
    if (!radio || radio.checked) return;
    radio.checked = true;
    radio.dispatchEvent(new Event("change", { bubbles: true }));
  };

  const update = () => {
    /** @param {string} name */
    const checked = (name) => /** @type {HTMLInputElement | null} */ (
      $(`input[name="${prefix}${name}"]:checked`, form))?.value;
    const knocker = checked("knocker");
    const kind = checked("kind");
    for (const chip of chips) {
      const gin = chip.dataset.chipDeadwood === "0";
      const on = chip.dataset.chipKnocker === knocker && (gin ? kind === "gin"
        : kind === "knock" && mine.value === chip.dataset.chipDeadwood);
      chip.setAttribute("aria-pressed", String(on));
    }
    const other = rows.find((row) => knocker !== undefined && !$(`[data-chip-knocker="${knocker}"]`, row));
    showCount(count, other ? other.getAttribute("aria-label") : "", theirs.value);
    if (shown && state) preview(form, state, shown);  // (the preview comes with the sheet)
  };

  /** @param {HTMLElement} chip */
  const press = (chip) => {
    choose("knocker", chip.dataset.chipKnocker);
    choose("kind", chip.dataset.chipDeadwood === "0" ? "gin" : "knock");
    mine.value = /** @type {string} */ (chip.dataset.chipDeadwood);
    target = theirs;
    update();
  };
  /** @param {string} key */
  const type = (key) => {
    const typed = target.value;
    if (key === "back") target.value = typed.slice(0, -1);
    else target.value = typed.length >= 2 ? key : typed + key;
    update();
  };
  for (const chip of chips) chip.addEventListener("click", () => press(chip));
  for (const key of $$("[data-key]", pad)) {
    key.addEventListener("click", () => type(/** @type {string} */ (key.dataset.key)));
  }
  followUpcard(form, prefix, pad, update);
  pad.addEventListener("keydown", (event) => keys(event, { pad, rows, press, type }));
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  form.addEventListener("reset", () => setTimeout(update));  // a kept hand: the next one
  update();
}

// The keyboard on a pad (the pad or one of its keys focused): before a chip is pressed a
// digit presses the chip of that deadwood in the focused row (the first row from the pad
// itself; 0 is Gin) and the arrows up and down move between the players' rows; after it,
// digits (and Backspace) write the other player's count, and Enter adds the hand.
/** @param {KeyboardEvent} event @param {Keys} parts */
function keys(event, { pad, rows, press, type }) {
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const pressed = $("[aria-pressed=true]", pad);
  const target = /** @type {HTMLElement} */ (event.target);  // the pad or one of its keys
  const row = /** @type {HTMLElement | null} */ (target.closest(".chips"))
    || (target === pad ? rows[0] : null);
  const digit = /^[0-9]$/.test(event.key);
  let done = true;
  if (digit && !pressed && row) {
    const chip = $(`[data-chip-deadwood="${event.key}"]:not([hidden])`, row);
    if (chip) {
      press(chip);
      chip.focus();  // Enter on it adds the hand
    }
  } else if ((digit || event.key === "Backspace") && pressed) type(digit ? event.key : "back");
  else if (event.key === "Enter" && pressed && (target === pad || target === pressed)) {
    const add = $("[data-pad-add]", /** @type {HTMLFormElement} */ (pad.closest("form")));
    if (add) add.click();
  } else if ((event.key === "ArrowDown" || event.key === "ArrowUp") && row) {
    const next = rows[rows.indexOf(row) + (event.key === "ArrowDown" ? 1 : -1)];
    if (next) /** @type {HTMLElement} */ ($(".chip:not([hidden])", next)).focus();
  } else done = false;
  if (done) event.preventDefault();
}

// The other player's count as typed, above the keypad: "Bor: 25" (a long name cut short,
// never the count), or the count alone before it is known whose it is.
/** @param {HTMLElement} count @param {string | null} name @param {string} typed */
function showCount(count, name, typed) {
  const said = !typed ? "" : name ? say("typed_count", { name, points: typed }) : typed;
  if (count.textContent === said) return;
  const who = document.createElement("span");
  who.className = "who";
  who.textContent = name;
  const points = document.createElement("b");
  points.textContent = typed;
  count.replaceChildren(...(!typed ? [] : name ? sayParts("typed_count", { name: who, points })
    : [points]));
}

// Oklahoma: the first upcard sets the knock limit; only the chips within it are offered.
/** @param {HTMLFormElement} form @param {string} prefix @param {HTMLElement} pad
 * @param {() => void} update */
function followUpcard(form, prefix, pad, update) {
  /** @type {Record<string, number> | null} */
  const limits = pad.dataset.upcardLimits ? JSON.parse(pad.dataset.upcardLimits) : null;
  const upcard = /** @type {HTMLSelectElement | null} */ ($(`select[name="${prefix}upcard"]`, form));
  if (!limits || !upcard) return;
  const follow = () => {
    const limit = limits[upcard.value];
    for (const chip of $$("[data-chip-deadwood]", pad)) {
      chip.hidden = limit !== undefined && Number(chip.dataset.chipDeadwood) > limit;
    }
    update();
  };
  upcard.addEventListener("change", follow);
  follow();
}

// The score of the hand as typed so far, after the sheet ``state``, in ``shown``.
/** @param {HTMLFormElement} form @param {Sheet} state @param {HTMLElement} shown */
function preview(form, state, shown) {
  const fields = [...new FormData(form)].filter(
    /** @param {[string, FormDataEntryValue]} field @returns {field is [string, string]} */
    (field) => typeof field[1] === "string");
  /** @type {{record: HandRecord}} */
  let added;
  try {
    added = addHand(state, fields);
  } catch (error) {
    if (!(error instanceof Refused || error instanceof NeedsServer)) throw error;
    shown.replaceChildren();
    return;
  }
  const { record } = added;
  const names = state.players;
  // a deal of two games (four players) has no one outcome to say: no live line for it
  const key = record.void ? "live_void" : record.winner === null ? "live_tie" : SAID[String(record.outcome)];
  if (key === undefined) {
    shown.replaceChildren();
    return;
  }
  const name = record.winner === null ? undefined : names[record.winner];  // a void: none
  const line = say(key, { name, points: record.points });
  const text = [line];
  // a Hollywood card's totals are each game's
  if (state.scoring !== "hollywood" && !form.hasAttribute("data-sheet-moved")) {
    const totals = names.map((name, i) => `${name} ${record.totals[i]}`).join(", ");
    text.push(say("live_totals", { totals }));
  }
  const said = text.join(" ");
  if (shown.textContent !== said) shown.textContent = said;
}
