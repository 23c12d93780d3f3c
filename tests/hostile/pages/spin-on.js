// Added to a copy of a bundled game (tests/hostile/test_spinning_handlers.py): once the event
// this script's address names (?on=focus|mousedown|keydown|visibility) reaches the page, the
// page's script takes its main thread for good, as a handler that loops would. With &hang=URL
// (a server that never answers) it waits on a synchronous request to it instead of looping:
// as stuck to the bot, without burning a core while the test waits.
const asked = new URL(document.currentScript.src).searchParams;
const on = asked.get("on"), hang = asked.get("hang");
const spin = hang ? () => {
  const request = new XMLHttpRequest();
  request.open("GET", hang, false);
  request.send();
} : () => { while (true) {} };
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
