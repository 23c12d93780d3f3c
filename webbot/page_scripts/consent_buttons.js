// Every consent button showing in the frame, best first: [element, vendor, answer, label].
// uses: helpers
({visible, words, clean, BUTTONS, roots, inBoxAbout}, [vendors, decline, accept, context]) => {
  const no = new RegExp(decline, 'i'), yes = new RegExp(accept, 'i');
  const about = new RegExp(context, 'i');
  const found = [], seen = new Set();
  const add = (button, vendor, answer) => {
    if (seen.has(button) || !visible(button)) return;
    seen.add(button);
    found.push([button, vendor, answer, words(button)]);
  };
  const shadows = roots();
  const inRoots = selector => shadows.flatMap(r => [...r.querySelectorAll(selector)]);
  for (const [name, box, declineSel, acceptSel] of vendors) {
    const dialogs = inRoots(box).filter(visible);
    if (!dialogs.length) continue;
    const inside = dialogs.flatMap(d => [d, ...(d.shadowRoot ? [d.shadowRoot] : [])])
      .flatMap(d => [...d.querySelectorAll(BUTTONS)]);
    inRoots(declineSel).forEach(b => add(b, name, 'declined'));
    inside.filter(b => no.test(clean(words(b)))).forEach(b => add(b, name, 'declined'));
    inRoots(acceptSel).forEach(b => add(b, name, 'accepted'));
    inside.filter(b => yes.test(clean(words(b)))).forEach(b => add(b, name, 'accepted'));
  }
  const buttons = inRoots(BUTTONS).filter(visible);
  for (const [re, answer] of [[no, 'declined'], [yes, 'accepted']]) {
    buttons.filter(b => re.test(clean(words(b))) && inBoxAbout(b, about))
      .forEach(b => add(b, 'a consent dialog', answer));
  }
  const declines = found.filter(f => f[2] === 'declined');
  return [...declines, ...found.filter(f => f[2] !== 'declined')];
}
