// Controls that need the server, turned off for a reason and on again once no reason is
// left: pad-provisional.js's (hands wait on the phone) and pad-reach.js's (no connection).
// Each reason is a sentence on the page, by its id, which the control's aria-describedby
// names. A button is disabled; a link keeps its place and words but loses its address
// (role=link, aria-disabled: a link still, one that cannot be followed now).

/** @param {HTMLElement} control @param {string} why (a reason's id) @param {boolean} locked */
export function setLocked(control, why, locked) {
  const reasons = new Set((control.dataset.lockedBy || "").split(" ").filter(Boolean));
  if (locked) reasons.add(why);
  else reasons.delete(why);
  const on = reasons.size > 0;
  if (on) {
    control.dataset.lockedBy = [...reasons].join(" ");
    control.setAttribute("aria-describedby", control.dataset.lockedBy);
  } else {
    delete control.dataset.lockedBy;
    control.removeAttribute("aria-describedby");
  }
  if (control.tagName === "BUTTON") {
    /** @type {HTMLButtonElement} */ (control).disabled = on;
  } else if (on && control.hasAttribute("href")) {
    control.dataset.href = control.getAttribute("href") ?? "";
    control.removeAttribute("href");
    control.setAttribute("role", "link");
    control.setAttribute("aria-disabled", "true");
  } else if (!on && control.dataset.href) {
    control.setAttribute("href", control.dataset.href);
    delete control.dataset.href;
    control.removeAttribute("role");
    control.removeAttribute("aria-disabled");
  }
}
