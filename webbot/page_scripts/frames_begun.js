// The browser's wall-clock time (ms) when the page starts its `count`-th animation frame from
// now; after a second, whatever it is (a page that draws no frames: hidden).
(element, count) => new Promise(done => {
  setTimeout(() => done(Date.now()), 1000);
  (function next() { requestAnimationFrame(() => --count ? next() : done(Date.now())); })();
})
