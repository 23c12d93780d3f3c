// Installed once in the Daily SET's frame: records each new text of the message box
// (`selector`) in window.__webbotSaid, and wakes a waiting said_or_covered.js. False where
// there is no message box.
selector => {
  const box = document.querySelector(selector);
  if (!box) return false;
  if (window.__webbotSaid) return true;
  const said = window.__webbotSaid = [];
  // Every change of the box's text counts, the same text again included ("GREAT!" twice).
  new MutationObserver(() => {
    const text = box.innerText.trim();
    if (text) said.push(text);
    if (text && window.__webbotWake) window.__webbotWake();
  }).observe(box, {subtree: true, childList: true, characterData: true});
  return true;
}
