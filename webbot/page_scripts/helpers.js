// Pieces the consent and cover scripts share, as one object: whether an element shows, its
// words, a label cleaned for matching, the buttons' selector, the document and its open shadow
// roots, elements matching a selector in them, an element's parent across shadow roots, and
// whether a box around a button speaks of something.
(() => {
  const visible = e => {
    if (!e || !e.isConnected) return false;
    const r = e.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) return false;
    const s = getComputedStyle(e);
    return s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0.05;
  };
  const words = e => (e.innerText || e.value || e.getAttribute('aria-label') || '')
    .replace(/\s+/g, ' ').trim();
  const clean = t => t.toLowerCase().replace(/[!.…›»▸▶►>✓]+/g, ' ').replace(/\s+/g, ' ').trim();
  const BUTTONS = 'button, [role=button], a, input[type=button], input[type=submit]';
  // The document and every open shadow root in it.
  const roots = () => {
    const found = [document];
    for (let i = 0; i < found.length; i++) {
      for (const e of found[i].querySelectorAll('*')) if (e.shadowRoot) found.push(e.shadowRoot);
    }
    return found;
  };
  const all = (selector, within) =>
    (within ? [within] : roots()).flatMap(r => [...r.querySelectorAll(selector)]);
  const up = e => e.parentElement || (e.getRootNode() instanceof ShadowRoot ?
                                      e.getRootNode().host : null);
  // Whether a box around `b` (up to 8 levels, across shadow roots) speaks of `about`.
  const inBoxAbout = (b, about) => {
    for (let e = up(b), i = 0; e && e !== document.body && i < 8; e = up(e), i++) {
      const text = e.innerText || '';
      if (text.length < 3000 && about.test(text)) return true;
    }
    return false;
  };
  // An element's name: its tag, #id and first two classes ("div#cmp.banner.top").
  const named = e => e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
    [...e.classList].slice(0, 2).map(c => '.' + c).join('');
  return {visible, words, clean, BUTTONS, roots, all, up, inBoxAbout, named};
})()
