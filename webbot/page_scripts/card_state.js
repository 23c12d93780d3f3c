// A Daily SET card's checkbox (named `name`; the card: `selector`): "ticked", "none",
// "covered" (unticked, something else over the card's middle in this frame: a popup took the
// click), or "unticked".
(name, selector) => {
  const box = document.querySelector(`input[name="${name}"]`);
  if (!box) return "none";
  if (box.checked) return "ticked";
  const card = document.querySelector(selector);
  if (!card) return "unticked";
  const r = card.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return top && top !== card && !card.contains(top) ? "covered" : "unticked";
}
