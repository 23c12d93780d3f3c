// Only the name of what covers `el` (cover.js), if anything: no handle to fetch.
// uses: cover
(cover, el, args) => {
  const found = cover(el, args);
  return found && found[0];
}
