// The print button of a round's table cards: shown only where a script can print.

for (const button of document.querySelectorAll("[data-print]")) {
  const print = /** @type {HTMLButtonElement} */ (button);
  print.hidden = false;
  print.addEventListener("click", () => window.print());
}
