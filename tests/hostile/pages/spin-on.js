// Added to a copy of a bundled game (tests/hostile/test_spinning_handlers.py): once the event
// this script's address names (?on=focus|mousedown|keydown|visibility) reaches the page, the
// page's script takes its main thread for good, as a handler that loops would.
const on = new URL(document.currentScript.src).searchParams.get("on");
const spin = () => { while (true) {} };
if (on === "visibility") {
  document.addEventListener("visibilitychange", spin);
  window.addEventListener("pagehide", spin);
} else if (on === "focus") {
  window.addEventListener("focus", spin);
  document.addEventListener("focusin", spin, true);
  if (window !== window.top || document.querySelector("iframe")) {
    window.addEventListener("blur", spin);  // (a frame of this page took the focus)
  }
} else {
  window.addEventListener(on, spin, true);
}
