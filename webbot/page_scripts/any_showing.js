// Whether any of the elements shows.
// uses: helpers
({visible}, elements) => elements.some(visible)
