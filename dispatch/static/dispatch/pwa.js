/* The passenger page as an app (docs/passenger-app.md): registers the service worker (offline shell), says when the
   phone is offline and reconnects as soon as it is back, and tells the passenger, while the page is hidden, that the
   cab accepted, arrived, or that no cab took the ride yet (with the notification permission). */
(function () {
  "use strict";
  var T = window.Taxi, P = window.TaxiPassenger;
  var registration = null;
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/passageiro/sw.js", { scope: "/passageiro/" })
      .then(function (reg) { registration = reg; })
      .catch(function () {}); // no worker (private mode, old browser): the page works, just not offline
  }

  // --- offline, and back ---------------------------------------------------------------------------
  var banner = document.getElementById("offline");
  function onlineChanged() {
    banner.hidden = navigator.onLine;
    if (navigator.onLine) P.reconnect(); // at once, not after the socket's back-off
    else T.setConn("off", "sem conexão");
  }
  window.addEventListener("online", onlineChanged);
  window.addEventListener("offline", onlineChanged);
  if (!navigator.onLine) onlineChanged();

  // --- notifications while away --------------------------------------------------------------------
  var ask = document.getElementById("notify-ask");
  function permission() { return window.Notification ? Notification.permission : "denied"; }
  function offerToAsk() { ask.hidden = permission() !== "default"; }
  ask.addEventListener("click", function () {
    Notification.requestPermission().then(offerToAsk);
  });
  offerToAsk();

  var EVENTS = {
    accepted: function (r) { return { title: "Táxi a caminho", body: "Um táxi aceitou sua corrida" + (r.cvi ? ": placa " + r.cvi.plate + "." : ".") }; },
    arriving: function (r) { return { title: "Seu táxi chegou!", body: "Confira a placa" + (r.cvi ? " " + r.cvi.plate : "") + " e o motorista antes de embarcar." }; },
    no_cab: function () { return { title: "Nenhum táxi aceitou ainda", body: "A central foi avisada e vai indicar um táxi para você." }; }
  };
  var told = {};
  /** The event a ride's new state is, if it is one to tell: accept, arrival, no cab. */
  function eventOf(r) {
    if (r.status === "accepted" || r.status === "arriving") return r.status;
    if (r.status === "requested" && r.escalated) return "no_cab";
    return null;
  }
  document.addEventListener("taxi:ride", function (ev) {
    var r = ev.detail, kind = r && eventOf(r), key = r && r.id + ":" + kind;
    if (!kind || told[key]) return;
    told[key] = true; // once per ride and event, seen or not: a notification after she came back would be noise
    if (document.visibilityState !== "hidden" || permission() !== "granted") return;
    var words = EVENTS[kind](r);
    var reg = registration ? Promise.resolve(registration) : navigator.serviceWorker.ready;
    reg.then(function (sw) {
      return sw.showNotification(words.title, { body: words.body, tag: "corrida-" + r.id + "-" + kind, lang: "pt-BR",
        icon: document.querySelector("link[rel=icon][sizes='192x192']").href, data: { ride: r.id } });
    }).catch(function () {});
  });
})();
