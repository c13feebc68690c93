// The round clock (the wall, the director's page, a table's sheet: [data-clock]): the time
// left counted down each second from the server's figure (data-left, whole seconds when the
// page was made) by the time the page has run since, so the phone's own clock never
// counts. At zero it says "Time is up". A clock pad-follow.js brings in a new part of the
// page is counted from when it is first seen. Without the script the figure stays as the
// page was made (the wall reloads every 10 seconds without scripts).

/** @type {WeakMap<Element, number>} */
const seen = new WeakMap();

/** @param {number} seconds @returns {string} m:ss below an hour, else h:mm:ss */
function shown(seconds) {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const secs = String(seconds % 60).padStart(2, "0");
  return hours ? `${hours}:${String(minutes).padStart(2, "0")}:${secs}` : `${minutes}:${secs}`;
}

function tick() {
  const now = performance.now();
  for (const clock of document.querySelectorAll("[data-clock]")) {
    const since = seen.get(clock) ?? now;
    seen.set(clock, since);
    const given = Number(/** @type {HTMLElement} */ (clock).dataset.left) || 0;
    const left = Math.max(0, Math.ceil(given - (now - since) / 1000));
    const time = clock.querySelector(".clock-time");
    if (time && time.textContent !== shown(left)) time.textContent = shown(left);
    const running = /** @type {HTMLElement | null} */ (clock.querySelector(".clock-left"));
    const up = /** @type {HTMLElement | null} */ (clock.querySelector(".clock-up"));
    if (running) running.hidden = left === 0;
    if (up) up.hidden = left !== 0;
  }
}

tick();
setInterval(tick, 250);
