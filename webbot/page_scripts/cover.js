// What is on top of `el` at the first of `points` (fractions of its box) where something is:
// [its name and words, the button that closes or gets past it, or null]; ['outside', null]
// where a point lies outside the window; null when `el` itself shows at every point.
// `skip`: the words of such a button; `context`: those of a consent dialog, whose buttons
// are the consent chain's to press, never a cover's.
// uses: helpers
({visible, words, clean, BUTTONS, inBoxAbout, named}, el, [points, skip, context]) => {
  const r = el.getBoundingClientRect();
  let hit = null;
  for (const [fx, fy] of points) {
    const x = r.left + fx * r.width, y = r.top + fy * r.height;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return ['outside', null];
    // Inside a shadow root (a consent dialog's button) the document would only name the host.
    const top = (el.getRootNode().elementFromPoint ? el.getRootNode() : document)
      .elementFromPoint(x, y);
    if (top && top !== el && !el.contains(top)) { hit = top; break; }
  }
  if (!hit) return null;
  let root = hit;
  while (root.parentElement && root.parentElement !== document.body
         && !root.parentElement.contains(el)) root = root.parentElement;
  const text = words(root).slice(0, 60);
  const re = new RegExp(skip, 'i');
  const about = new RegExp(context, 'i');
  const closes = b => visible(b) && re.test(clean(words(b))) && !inBoxAbout(b, about);
  // A modal's backdrop may be what lies on top: its box's buttons count too.
  const inModal = b => {
    for (let e = b; e && e !== document.body; e = e.parentElement) {
      if (['fixed', 'sticky'].includes(getComputedStyle(e).position)) return true;
    }
    return false;
  };
  const button = [...root.querySelectorAll(BUTTONS)].find(closes) ||
    [...document.querySelectorAll(BUTTONS)].find(b => closes(b) && inModal(b) && !b.contains(el));
  return [named(root) + (text ? ` ("${text}")` : ''), button || null];
}
