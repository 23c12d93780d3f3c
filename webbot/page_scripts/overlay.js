// The outermost fixed or sticky element on top at points spread over the frame's window (a
// banner at the top or bottom, a dialog in the middle), if any.
// uses: helpers
({visible, up}) => {
  for (const fy of [0.05, 0.5, 0.95]) {
    for (const fx of [0.1, 0.5, 0.9]) {
      let over = null;
      for (let e = document.elementFromPoint(fx * innerWidth, fy * innerHeight);
           e && e !== document.body && e !== document.documentElement; e = up(e)) {
        if (['fixed', 'sticky'].includes(getComputedStyle(e).position)) over = e;
      }
      if (over && visible(over)) return over;
    }
  }
  return null;
}
