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
import { say } from "./pad-words.js";

const SAID = { knock: "live_knock", gin: "live_gin", big_gin: "live_big_gin",
               undercut: "live_undercut" };

export function setupQuickPad(form) {
  const pad = $("[data-quick-pad]", form);
  if (!pad) return;
  pad.hidden = false;
  const mine = $("#knocker_deadwood", form);
  const theirs = $("#defender_deadwood", form);
  let target = theirs;
  for (const field of [mine, theirs]) {
    field.inputMode = "none";
    field.addEventListener("focus", () => { target = field; });
  }
  const stateBlock = $("#sheet-state");
  const state = stateBlock ? JSON.parse(stateBlock.textContent) : null;
  const shown = $("[data-live-preview]", pad);

  const choose = (name, value) => {
    const radio = $(`input[name=${name}][value="${value}"]`, form);
    if (!radio || radio.checked) return;
    radio.checked = true;
    radio.dispatchEvent(new Event("change", { bubbles: true }));
  };

  const update = () => {
    const knocker = ($("input[name=knocker]:checked", form) || {}).value;
    const kind = ($("input[name=kind]:checked", form) || {}).value;
    for (const chip of $$("[data-chip-knocker]", pad)) {
      const gin = chip.dataset.chipDeadwood === "0";
      const on = chip.dataset.chipKnocker === knocker && (gin ? kind === "gin"
        : kind === "knock" && mine.value === chip.dataset.chipDeadwood);
      chip.setAttribute("aria-pressed", String(on));
    }
    if (shown) preview(form, state, shown);
  };

  for (const chip of $$("[data-chip-knocker]", pad)) {
    chip.addEventListener("click", () => {
      choose("knocker", chip.dataset.chipKnocker);
      choose("kind", chip.dataset.chipDeadwood === "0" ? "gin" : "knock");
      mine.value = chip.dataset.chipDeadwood;
      target = theirs;
      update();
    });
  }
  for (const key of $$("[data-key]", pad)) {
    key.addEventListener("click", () => {
      const typed = target.value;
      if (key.dataset.key === "back") target.value = typed.slice(0, -1);
      else target.value = typed.length >= 2 ? key.dataset.key : typed + key.dataset.key;
      update();
    });
  }
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  form.addEventListener("reset", () => setTimeout(update));  // a kept hand: the next one
  update();
}

// The score of the hand as typed so far, after the sheet ``state``, in ``shown``.
function preview(form, state, shown) {
  const fields = [...new FormData(form)].filter(([, value]) => typeof value === "string");
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
  let line;
  if (record.void) line = say("live_void");
  else if (record.winner === null) line = say("live_tie");
  else line = say(SAID[record.outcome], { name: names[record.winner], points: record.points });
  const text = [line];
  // a Hollywood card's totals are each game's
  if (state.scoring !== "hollywood" && !form.hasAttribute("data-sheet-moved")) {
    const totals = names.map((name, i) => `${name} ${record.totals[i]}`).join(", ");
    text.push(say("live_totals", { totals }));
  }
  const said = text.join(" ");
  if (shown.textContent !== said) shown.textContent = said;
}
