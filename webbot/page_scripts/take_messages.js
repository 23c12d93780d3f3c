// The texts watch_messages.js recorded since the last take. (The page's own scripts can reach
// the list: what comes back is bounded, and text.)
() => (Array.isArray(window.__webbotSaid) ? window.__webbotSaid.splice(0) : [])
  .slice(-50).map(text => String(text).slice(0, 2000))
