// The wall screen of an event: it follows the event without a reload or a tap.
//
// Every second the page asks for itself again with If-None-Match: the page's ETag (the
// data-wall attribute, quoted) is a digest of the whole event, so while nothing changed the
// answer is an empty 304; once a table's score or result changed, the new page comes and
// its content replaces the old (the wall has no form or focus to keep).

const EVERY = 1000;

function follow(main) {
  let busy = false;
  async function check() {
    const shown = main.querySelector("[data-wall]");
    if (busy || !shown) return;
    busy = true;
    try {
      const response = await fetch(window.location.href, {
        headers: { Accept: "text/html", "If-None-Match": `"${shown.dataset.wall}"` },
        cache: "no-store",
      });
      if (response.status !== 200) return;
      const fresh = new DOMParser().parseFromString(await response.text(), "text/html")
        .getElementById("main");
      if (fresh && fresh.querySelector("[data-wall]")) main.replaceChildren(...fresh.childNodes);
    } catch {
      // the server out of reach for a moment: the next check tries again
    } finally {
      busy = false;
    }
  }
  setInterval(check, EVERY);
}

const main = document.getElementById("main");
if (main && main.querySelector("[data-wall]")) follow(main);
