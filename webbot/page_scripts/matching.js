// The elements matching a CSS selector, in the document and its open shadow roots (as
// Playwright's CSS engine finds them), without Playwright's selector engine: a page's first
// use of it costs 50-100 ms of set-up, at the start of every game.
// uses: helpers
({all}, selector) => all(selector)
