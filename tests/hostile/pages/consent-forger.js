// A page script that speaks the consent library's protocol to the bot: the library's binding
// (window.autoconsentSendMessage) takes messages from any script in the page's world. The
// attacks come from window.__consentAttacks (a list) or ?attack=a,b (default: all of them).
// What the bot sends back to this document is counted in window.__consentTest (a test hook).
(function () {
  "use strict";
  var send = window.autoconsentSendMessage;
  var test = window.__consentTest = { initResps: 0, evalResps: 0, received: 0, sent: 0,
                                      done: false };
  if (typeof send !== "function") return;
  var all = ["optout", "errors", "init", "eval", "types", "huge", "impostor", "deep"];
  var asked = window.__consentAttacks ||
      (new URLSearchParams(location.search).get("attack") || "all").split(",");
  var attacks = asked.indexOf("all") >= 0 ? all : asked;
  var FORGED = "FORGED-CMP";

  function post(message) {
    test.sent++;
    try { send(message).catch(function () {}); } catch (e) { /* a message it refused */ }
  }

  // Count the bot's replies: it calls window.autoconsentReceiveMessage in this document.
  var real = window.autoconsentReceiveMessage;
  window.autoconsentReceiveMessage = function (message) {
    test.received++;
    if (message && message.type === "initResp") test.initResps++;
    if (message && message.type === "evalResp") test.evalResps++;
    return real ? real(message) : undefined;
  };

  var claim = function () {
    post({ type: "cmpDetected", cmp: FORGED, url: location.href });
    post({ type: "popupFound", cmp: FORGED, url: location.href });
    post({ type: "optOutResult", cmp: FORGED, result: true, scheduleSelfTest: false,
           url: location.href });
    post({ type: "optInResult", cmp: FORGED, result: true, scheduleSelfTest: false,
           url: location.href });
    post({ type: "autoconsentDone", cmp: FORGED, isCosmetic: false, url: location.href,
           duration: 1, totalClicks: 1 });
  };
  var ATTACKS = {
    // A dialog answered that never was, said again and again while the bot looks.
    optout: function (round) { claim(); },
    // An error list that would grow without end.
    errors: function (round) {
      if (round > 0) return;
      for (var i = 0; i < 5000; i++) {
        post({ type: "autoconsentError", details: { msg: FORGED + " error " + i } });
      }
    },
    // The rules asked for again and again from the same document.
    init: function (round) {
      for (var i = 0; i < (round ? 1 : 20); i++) post({ type: "init", url: location.href });
    },
    // Code the page chose, for the bot to run.
    eval: function (round) {
      post({ type: "eval", id: "forged-" + round,
             code: "window.__pwned = true; document.title = 'PWNED'; true" });
    },
    // The protocol's kinds with fields of the wrong types, and kinds it does not have.
    types: function (round) {
      if (round >= 5) return;
      post({ type: "optOutResult", cmp: 5, result: true });
      post({ type: "optOutResult", cmp: { name: FORGED }, result: true });
      post({ type: "optOutResult", cmp: FORGED, result: "true" });
      post({ type: "optOutResult", cmp: FORGED + " ".repeat(200), result: true });
      post({ type: "popupFound", cmp: [FORGED] });
      post({ type: "report", state: "done" });
      post({ type: "report", state: { lifecycle: FORGED.repeat(20) } });
      post({ type: "initResp", config: {}, rules: {} });
      post({ type: ["optOutResult"], cmp: FORGED, result: true });
      post(null);
      post(FORGED);
      post([FORGED, true]);
      post(12345);
    },
    // A message of megabytes.
    huge: function (round) {
      if (round === 0) {
        post({ type: "optOutResult", cmp: FORGED, result: true, pad: "x".repeat(5e6) });
      }
    },
    // A page's own overlay (a newsletter box, say), claimed as a vendor's dialog: the bot's
    // ask to decline is answered by the page itself, which says it declined and takes its
    // overlay away; nothing is clicked.
    impostor: function (round) {
      if (round === 0) {
        var overlay = document.createElement("div");
        overlay.id = "page-overlay";
        overlay.style.cssText = "position:fixed;left:0;right:0;bottom:0;height:90px;" +
                                "background:#234;color:#fff;z-index:5";
        overlay.textContent = "Sign up for our newsletter";
        document.body.appendChild(overlay);
        var counted = window.autoconsentReceiveMessage;
        window.autoconsentReceiveMessage = function (message) {
          if (message && (message.type === "optOut" || message.type === "optIn")) {
            overlay.remove();
            post({ type: message.type + "Result", cmp: "Onetrust", result: true,
                   scheduleSelfTest: false, url: location.href });
            post({ type: "autoconsentDone", cmp: "Onetrust", isCosmetic: false,
                   url: location.href, duration: 1, totalClicks: 1 });
            test.received++;
            return undefined;
          }
          return counted(message);
        };
      }
      if (document.getElementById("page-overlay")) {
        post({ type: "cmpDetected", cmp: "Onetrust", url: location.href });
        post({ type: "popupFound", cmp: "Onetrust", url: location.href });
      }
    },
    // A message nested a thousand deep.
    deep: function (round) {
      if (round > 0) return;
      var deep = {};
      for (var i = 0, at = deep; i < 1000; i++) at = at.inner = {};
      post({ type: "autoconsentError", details: deep });
    }
  };
  // Rounds through the first seconds of the page, while the bot looks for the game and plays.
  var round = 0;
  var timer = setInterval(function () {
    attacks.forEach(function (name) { if (ATTACKS[name]) ATTACKS[name](round); });
    if (++round >= 30) { clearInterval(timer); test.done = true; }
  }, 200);
})();
