// The frame's width and each element's area, in the frame's own CSS pixels: one round trip.
elements => [document.documentElement.clientWidth, elements.map(e => {
  const r = e.getBoundingClientRect();
  return r.width * r.height;
})]
