// The elements showing in the frame that match any of the selectors (a consent manager's own
// popup, as the library detects it), in the document and its open shadow roots. A selector is
// CSS, or a path of CSS selectors, each step looked for inside the open shadow root (or the
// same-site frame) of what the step before it found, as the library reads such a path; a
// selector the page's CSS engine refuses is passed over.
// uses: helpers
({visible, roots}, selectors) => {
  const inside = e => e.shadowRoot || (() => {
    try { return e.contentDocument; } catch (otherSite) { return null; }
  })();
  const matching = (places, selector) => places.flatMap(place => {
    try { return [...place.querySelectorAll(selector)]; } catch (refused) { return []; }
  });
  const found = [];
  for (const selector of selectors) {
    const path = Array.isArray(selector) ? selector : [selector];
    let places = roots(), elements = [];
    for (const [i, step] of path.entries()) {
      elements = matching(places, step);
      if (i < path.length - 1) places = elements.map(inside).filter(Boolean);
    }
    found.push(...elements.filter(visible));
  }
  return found;
}
