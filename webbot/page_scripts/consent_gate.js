// An init script of every document, before the consent library's: the only way its messages
// reach the bot. The binding the bot exposed (under a name of the run's, taken off the page)
// is called through window.autoconsentSendMessage, which lets through MAX_MESSAGES messages
// a document at most, each as its JSON text of MAX_CHARS at most: a page that floods the
// channel (thousands of messages, megabytes) keeps that work in its own renderer, and the
// bot's connection to the browser stays free for the game.
([binding, most, longest]) => {
  const send = window[binding];
  delete window[binding];
  if (typeof send !== "function") return;
  let sent = 0;
  const gate = message => {
    if (++sent > most) return Promise.resolve();
    let text;
    try {
      text = JSON.stringify(message);
    } catch (notJson) {  // (cyclic, too deep, a BigInt, a getter that throws)
      return Promise.resolve();
    }
    if (typeof text !== "string" || text.length > longest) return Promise.resolve();
    return send(text);
  };
  Object.defineProperty(window, "autoconsentSendMessage",
                        {value: gate, writable: false, configurable: false});
}
