/* The passenger's safety pieces (docs/passenger-safety.md), beside passenger.js: it fires "taxi:request" with the
   frame about to be sent and "taxi:ride" with the ride after every change; nothing here reaches into passenger.js.
   - the needs ticked (a wheelchair, a child seat) go with the request, and why no cab was found yet shows;
   - the plate and the boarding code to check before getting in (the right cab);
   - "Compartilhar corrida": a link anyone can open to follow the ride, revocable (POST/DELETE /api/rides/<id>/share/);
   - SOS: alerts the central at once with the phone's position (POST /api/rides/<id>/sos/) and offers the 190 call. */
(function () {
  "use strict";
  var T = window.Taxi;
  var OPEN = ["requested", "offered", "accepted", "arriving", "on_board"], ACTIVE = ["accepted", "arriving", "on_board"];
  var ride = null, sharedRide = null, sosRide = null;
  function $(id) { return document.getElementById(id); }
  function headers() {
    var me = window.TaxiPassenger && window.TaxiPassenger.me;
    return { "Content-Type": "application/json", Authorization: "Passenger " + (me ? me.token : "") };
  }
  function call(method, url, body) {
    return fetch(url, { method: method, headers: headers(), body: body ? JSON.stringify(body) : undefined }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (b) { return { ok: r.ok, status: r.status, body: b }; });
    });
  }

  // --- an equipped cab (taxilaw.accessibility) --------------------------------------------------------
  document.addEventListener("taxi:request", function (ev) {
    ev.detail.needs = Array.prototype.map.call(document.querySelectorAll("#request-form input[name=needs]:checked"),
      function (i) { return i.value; });
  });
  function showNeeds(r) {
    var unmet = $("needs-unmet"), asked = $("ride-needs");
    unmet.hidden = !(r && r.needs_unmet);
    unmet.textContent = (r && r.needs_unmet) || "";
    asked.hidden = !(r && r.needs_display);
    asked.textContent = r && r.needs_display ? "Você pediu um táxi " + r.needs_display + "." : "";
  }

  // --- the right cab: the plate and the code, the same on the driver's screen ------------------------
  function showBoarding(r) {
    var box = $("boarding-check"), on = !!(r && r.boarding_code && (r.status === "accepted" || r.status === "arriving"));
    box.hidden = !on;
    if (on) { $("boarding-plate").textContent = r.cvi ? r.cvi.plate : "—"; $("boarding-code").textContent = r.boarding_code; }
  }

  // --- sharing --------------------------------------------------------------------------------------
  $("share-ride").addEventListener("click", function () {
    if (!ride) return;
    var id = ride.id;
    call("POST", "/api/rides/" + id + "/share/").then(function (res) {
      if (!res.ok) { T.notice(res.body.detail || "Não foi possível criar o link; tente de novo.", "error"); return; }
      sharedRide = id;
      $("share-url").value = res.body.url;
      $("share-box").hidden = false;
      if (navigator.share) navigator.share({ title: "Acompanhe minha corrida de táxi", url: res.body.url }).catch(function () {});
      T.notice("Link criado: mande para quem vai acompanhar a corrida.", "ok");
    }).catch(function () { T.notice("Sem conexão; tente de novo.", "error"); });
  });
  $("share-copy").addEventListener("click", function () {
    var input = $("share-url");
    input.select();
    (navigator.clipboard ? navigator.clipboard.writeText(input.value) : Promise.reject()).then(function () {
      T.notice("Link copiado.", "ok");
    }).catch(function () { T.notice("Selecione o link e copie.", "info"); });
  });
  $("share-revoke").addEventListener("click", function () {
    if (!ride) return;
    call("DELETE", "/api/rides/" + ride.id + "/share/").then(function (res) {
      if (!res.ok) { T.notice(res.body.detail || "Não foi possível parar de compartilhar; tente de novo.", "error"); return; }
      sharedRide = null; $("share-box").hidden = true; $("share-url").value = "";
      T.notice("Pronto: o link deixou de funcionar.", "ok");
    }).catch(function () { T.notice("Sem conexão; tente de novo.", "error"); });
  });

  // --- SOS: one tap alerts the central; the 190 call is offered at once ---------------------------
  function where() {
    return new Promise(function (resolve) {
      if (!navigator.geolocation) { resolve(null); return; }
      var done = false, finish = function (v) { if (!done) { done = true; resolve(v); } };
      setTimeout(function () { finish(null); }, 3000);  // the alert never waits long for the GPS
      navigator.geolocation.getCurrentPosition(function (p) {
        finish({ lat: p.coords.latitude, lon: p.coords.longitude, accuracy_m: p.coords.accuracy });
      }, function () { finish(null); }, { enableHighAccuracy: true, timeout: 2500, maximumAge: 30000 });
    });
  }
  $("sos").addEventListener("click", function () {
    if (!ride) return;
    var id = ride.id;
    sosRide = id;
    $("sos-box").hidden = false;
    $("sos-sent").textContent = "Avisando a central…";
    where().then(function (fix) { return call("POST", "/api/rides/" + id + "/sos/", fix || {}); }).then(function (res) {
      $("sos-sent").textContent = res.ok ? res.body.message : (res.body.detail || "Não foi possível avisar a central. Ligue 190.");
    }).catch(function () { $("sos-sent").textContent = "Sem conexão com a central. Ligue 190."; });
    $("sos-call").focus();
  });

  function showSafety(r) {
    var open = !!(r && OPEN.indexOf(r.status) >= 0), active = !!(r && ACTIVE.indexOf(r.status) >= 0);
    $("safety").hidden = !open;
    $("sos").hidden = !active; $("sos-help").hidden = !active;
    if (!r || r.id !== sharedRide || !open) { $("share-box").hidden = true; if (!open) sharedRide = null; }
    if (!r || r.id !== sosRide) $("sos-box").hidden = true;
  }

  document.addEventListener("taxi:ride", function (ev) {
    ride = ev.detail;
    showNeeds(ride); showBoarding(ride); showSafety(ride);
  });
  window.TaxiSafety = { get ride() { return ride; } };
})();
