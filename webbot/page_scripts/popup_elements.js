// The elements showing in the frame that match any of the CSS selectors (a consent
// manager's own popup, as the library's rule for it names it), in the document and its open
// shadow roots; a selector the page's CSS engine refuses is passed over.
// uses: helpers
({visible, roots}, selectors) => {
  const found = [];
  for (const root of roots()) {
    for (const selector of selectors) {
      try {
        for (const e of root.querySelectorAll(selector)) if (visible(e)) found.push(e);
      } catch (refused) { /* not CSS this engine reads */ }
    }
  }
  return found;
}
