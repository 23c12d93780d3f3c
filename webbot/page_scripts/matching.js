// The elements matching a CSS selector, in the document and its open shadow roots (as
// Playwright's CSS engine finds them), without Playwright's selector engine, whose first use
// in a page costs a noticeable set-up delay at the start of every game.
// uses: helpers
({all}, selector) => all(selector)
