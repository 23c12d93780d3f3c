// Waits in the Daily SET's frame until the message box says something new ("said", woken by
// watch_messages.js's observer, when it is `watching`), the card with checkbox `name` (if
// given) is unticked with something else over its middle ("covered", looked at every 16 ms),
// or `ms` pass (null). A newer wait takes over from an older one, which then ends at its own
// time.
// uses: card_state
(cardState, [name, selector, ms, watching]) => new Promise(done => {
  if (watching && window.__webbotSaid && window.__webbotSaid.length) return done("said");
  const finish = why => {
    if (window.__webbotWake === wake) window.__webbotWake = null;
    clearTimeout(timer);
    done(why);
  };
  const wake = () => finish("said");
  window.__webbotWake = wake;
  const timer = setTimeout(() => finish(null), ms);
  if (!name) return;
  (function look() {  // (timers, not animation frames: those stop in a hidden frame)
    if (window.__webbotWake !== wake) return;  // ended, or a newer wait took over
    if (cardState(name, selector) === "covered") return finish("covered");
    setTimeout(look, 16);
  })();
})
