// Each card's middle in the page, null where it is missing, out of view or something is on
// top of it there (what Way.guard looks for, for all the cards at once).
selectors => selectors.map(selector => {
  const card = document.querySelector(selector);
  if (!card) return null;
  const r = card.getBoundingClientRect();
  if (r.width < 1 || r.height < 1 || r.left < 0 || r.top < 0 || r.right > innerWidth
      || r.bottom > innerHeight) return null;
  const x = r.left + r.width / 2, y = r.top + r.height / 2;
  const top = document.elementFromPoint(x, y);
  return top && (top === card || card.contains(top)) ? [x, y] : null;
})
