/* Passenger page (/passageiro/): sign up (name, phone), request a cab, follow it, see its CVI and the driver's CMT (Art. 32), cancel. */
(function () {
  "use strict";
  var T = window.Taxi;
  var KEY = "taxiMuriae.passenger";
  var OPEN = ["requested", "offered", "accepted", "arriving", "on_board"];
  var CANCELLABLE = ["requested", "offered", "accepted", "arriving"];
  var me = load();
  var ride = null, socket = null, pendingRequest = null;
  var SENT = "Pedido enviado; procurando o táxi mais próximo…";

  var base = T.baseMap("map"), map = base.map;
  var pickupMarker = null, cabMarker = null, destinationMarker = null;
  var latIn = document.getElementById("pickup-lat"), lonIn = document.getElementById("pickup-lon");
  var dLatIn = document.getElementById("destination-lat"), dLonIn = document.getElementById("destination-lon");

  function load() { try { return JSON.parse(localStorage.getItem(KEY)) || null; } catch (e) { return null; } }
  function save(v) { me = v; if (v) localStorage.setItem(KEY, JSON.stringify(v)); else localStorage.removeItem(KEY); }
  function show(id) {
    ["signup", "request", "ride"].forEach(function (s) { document.getElementById(s).hidden = s !== id; });
    document.getElementById("ride-state").hidden = id !== "ride"; // the sheet's half that follows the ride
  }

  function auth() { return me && me.token ? { Authorization: "Passenger " + me.token } : {}; }
  var addressIn = document.getElementById("pickup-address"), streetOut = document.getElementById("pickup-street");
  /** "Rua X, bairro Y" under the pickup, and in the address field unless the passenger wrote one. */
  function describe(lat, lon) {
    if (!me || !me.token) return;
    T.reverseLookup(lat, lon, auth).then(function (body) {
      if (body.error) { streetOut.textContent = body.error; T.notice(body.error, "error"); return; }
      streetOut.textContent = body.address ? "Embarque: " + body.address : (body.message || "");
      if (body.address && (!addressIn.value.trim() || addressIn.dataset.auto === "1")) { addressIn.value = body.address; addressIn.dataset.auto = "1"; }
    }).catch(function () {});
  }
  addressIn.addEventListener("input", function () { addressIn.dataset.auto = ""; });
  T.addressSearch(document.getElementById("pickup-search"), document.getElementById("pickup-suggestions"), auth, function (s) {
    document.getElementById("pickup-search").value = s.label;
    T.showStreet(base, s.geometry);
    latIn.value = s.lat.toFixed(6); lonIn.value = s.lon.toFixed(6);
    setPickup(s.lat, s.lon, false);
    addressIn.value = s.label; addressIn.dataset.auto = "1";
    pointsChanged();
  });
  var destIn = document.getElementById("destination-address");
  T.addressSearch(destIn, document.getElementById("destination-suggestions"), auth, function (s) {
    T.showStreet(base, s.geometry);
    mark("destination", s.lat, s.lon, s.label);
  });
  /** A point marked for the passenger (a map tap, a suggestion, a recent place): the hidden fields, the marker, the address. */
  function mark(which, lat, lon, label) {
    if (which === "destination") {
      dLatIn.value = lat.toFixed(6); dLonIn.value = lon.toFixed(6);
      setDestination(lat, lon);
      if (label) destIn.value = label;
    } else {
      latIn.value = lat.toFixed(6); lonIn.value = lon.toFixed(6);
      setPickup(lat, lon, !!label, !!label);
      if (label) { addressIn.value = label; addressIn.dataset.auto = "1"; streetOut.textContent = "Embarque: " + label; }
    }
    pointsChanged();
  }
  function setPickup(lat, lon, pan, known) {
    if (!known) describe(lat, lon); // a ride's pickup already carries its address
    if (pickupMarker) pickupMarker.setLatLng([lat, lon]);
    else pickupMarker = L.circleMarker([lat, lon], { radius: 9, color: "#5b21b6", weight: 2, fillColor: "#8b5cf6", fillOpacity: 0.9, className: "pickup-marker" }).bindTooltip(T.tip("Embarque")).addTo(map);
    if (pan) map.setView([lat, lon], Math.max(map.getZoom(), 16));
  }
  function setCab(pos) {
    if (!pos || pos.lat == null) { if (cabMarker) { map.removeLayer(cabMarker); cabMarker = null; } return; }
    if (cabMarker) cabMarker.setLatLng([pos.lat, pos.lon]);
    else cabMarker = L.circleMarker([pos.lat, pos.lon], { radius: 9, color: "#111827", weight: 1.5, fillColor: T.CAB_COLOUR.a_caminho, fillOpacity: 0.95, className: "cab-marker my-cab" }).bindTooltip(T.tip("Seu táxi")).addTo(map);
  }

  function setDestination(lat, lon) {
    if (lat == null) { if (destinationMarker) { map.removeLayer(destinationMarker); destinationMarker = null; } return; }
    if (destinationMarker) destinationMarker.setLatLng([lat, lon]);
    else destinationMarker = L.circleMarker([lat, lon], { radius: 8, color: "#065f46", weight: 2, fillColor: "#34d399", fillOpacity: 0.9, className: "destination-marker" }).bindTooltip(T.tip("Destino")).addTo(map);
  }
  /** The points typed or clicked: {pickup, destination} (each null when not valid). */
  function points() {
    var lat = T.parseCoord(latIn.value), lon = T.parseCoord(lonIn.value), dlat = T.parseCoord(dLatIn.value), dlon = T.parseCoord(dLonIn.value);
    return {
      pickup: isFinite(lat) && isFinite(lon) ? { lat: lat, lon: lon, address: document.getElementById("pickup-address").value.trim() } : null,
      destination: isFinite(dlat) && isFinite(dlon) ? { lat: dlat, lon: dlon, address: document.getElementById("destination-address").value.trim() } : null
    };
  }
  function pointsChanged() { document.dispatchEvent(new CustomEvent("taxi:points", { detail: points() })); }

  map.on("click", function (e) {
    if (document.getElementById("request").hidden) return;
    mark(document.getElementById("pick-destination").checked ? "destination" : "pickup", e.latlng.lat, e.latlng.lng);
  });

  // --- last places used (this phone only: localStorage), to pick again ----------------------------
  var PLACES = "taxiMuriae.places", MAX_PLACES = 5;
  function places() { try { return JSON.parse(localStorage.getItem(PLACES)) || []; } catch (e) { return []; } }
  function remember(p) {
    if (!p || !p.address) return; // a place without a name is not one to pick again
    var list = places().filter(function (q) { return q.address !== p.address; });
    list.unshift({ address: p.address, lat: p.lat, lon: p.lon });
    localStorage.setItem(PLACES, JSON.stringify(list.slice(0, MAX_PLACES)));
    showPlaces();
  }
  function showPlaces() {
    var list = places(), ul = document.getElementById("recent-list");
    ul.textContent = "";
    document.getElementById("recent").hidden = !list.length;
    list.forEach(function (p) {
      ul.appendChild(T.el("li", {}, [
        T.el("span", { class: "recent-name", text: p.address }),
        T.el("button", { type: "button", class: "chip", "aria-label": "Embarcar em " + p.address, text: "embarque",
          onclick: function () { mark("pickup", p.lat, p.lon, p.address); } }),
        T.el("button", { type: "button", class: "chip", "aria-label": "Ir para " + p.address, text: "destino",
          onclick: function () { mark("destination", p.lat, p.lon, p.address); } })
      ]));
    });
  }
  showPlaces();
  document.getElementById("locate").addEventListener("click", function () {
    if (!navigator.geolocation) { T.notice("Seu navegador não informa a localização; marque no mapa.", "error"); return; }
    T.notice("Obtendo sua localização…", "info");
    navigator.geolocation.getCurrentPosition(function (p) {
      latIn.value = p.coords.latitude.toFixed(6); lonIn.value = p.coords.longitude.toFixed(6);
      setPickup(p.coords.latitude, p.coords.longitude, true);
      pointsChanged();
      T.notice("Localização marcada (precisão de " + Math.round(p.coords.accuracy) + " m).", "ok");
    }, function () { T.notice("Não foi possível obter sua localização; marque no mapa.", "error"); }, { enableHighAccuracy: true, timeout: 15000 });
  });

  // --- sign up ------------------------------------------------------------------------------------
  document.getElementById("signup-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var name = document.getElementById("signup-name").value.trim(), phone = document.getElementById("signup-phone").value.trim();
    if (!name || !phone) { T.notice("Informe seu nome e telefone.", "error"); return; }
    fetch("/api/passengers/", { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify({ name: name, phone: phone }) })
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, status: r.status, body: body }; }); })
      .then(function (res) {
        if (!res.ok) { T.notice(apiError(res), "error"); return; }
        save({ token: res.body.token, name: res.body.name });
        T.notice("Pronto, " + res.body.name + "! Agora marque onde você está.", "ok");
        connect();
      })
      .catch(function () { T.notice("Sem conexão; tente de novo.", "error"); });
  });
  function apiError(res) {
    if (res.status === 429) return "Muitos cadastros a partir desta rede; tente mais tarde.";
    var b = res.body || {}, parts = [];
    var fields = b.fields || b.errors || b;
    Object.keys(fields).forEach(function (k) { var v = fields[k]; if (Array.isArray(v)) parts.push(v.join(" ")); else if (typeof v === "string" && k !== "code") parts.push(v); });
    return parts.join(" ") || "Não foi possível concluir o cadastro.";
  }
  document.getElementById("forget").addEventListener("click", function () {
    pendingRequest = null;
    if (socket) socket.stop();
    save(null); ride = null; show("signup");
  });

  // --- request / cancel ---------------------------------------------------------------------------
  document.getElementById("request-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var pts = points();
    if (!pts.pickup) { T.notice("Marque o embarque no mapa ou use sua localização.", "error"); return; }
    var frame = { type: "ride_request", pickup: pts.pickup };
    if (pts.destination) frame.destination = pts.destination;
    document.dispatchEvent(new CustomEvent("taxi:request", { detail: frame }));  // passenger_safety.js adds the needs
    if (socket && socket.isOpen()) { socket.send(frame); T.notice(SENT, "info"); return; }
    // Still connecting (the page just opened, or the network blinked): the request goes with the next snapshot.
    pendingRequest = frame;
    T.notice("Conectando à central; seu pedido será enviado assim que a conexão voltar…", "info");
  });
  document.getElementById("cancel-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    if (ride && socket) socket.send({ type: "ride_cancel", ride_id: ride.id, reason: document.getElementById("cancel-reason").value.trim() });
  });
  document.getElementById("new-ride").addEventListener("click", function () { ride = null; setCab(null); document.getElementById("ride-explain").hidden = true; render(); });

  // --- the ride -----------------------------------------------------------------------------------
  function text(id, value) { document.getElementById(id).textContent = value == null || value === "" ? "—" : value; }
  function render() {
    document.dispatchEvent(new CustomEvent("taxi:ride", { detail: ride }));
    if (!me) { show("signup"); return; }
    document.getElementById("passenger-name").textContent = me.name;
    if (!ride) { show("request"); return; }
    show("ride");
    text("ride-id", "nº " + ride.id);
    document.getElementById("ride-title").textContent = "Sua corrida nº " + ride.id;
    text("ride-status", T.RIDE_STATUS[ride.status] || ride.status);
    document.getElementById("ride-status").className = "rs-" + ride.status;
    var p = ride.pickup || {};
    text("ride-address", "Embarque: " + (p.address || T.fmtCoord(p.lat) + "; " + T.fmtCoord(p.lon)));
    var times = ["pedida em " + T.fmtDate(ride.requested_at)];
    if (ride.accepted_at) times.push("aceita em " + T.fmtDate(ride.accepted_at));
    if (ride.completed_at) times.push("concluída em " + T.fmtDate(ride.completed_at));
    if (ride.cancelled_at) times.push("cancelada em " + T.fmtDate(ride.cancelled_at));
    text("ride-times", times.join(" · "));
    var info = document.getElementById("cab-info");
    info.hidden = !(ride.cvi || ride.driver);
    if (ride.cvi) {
      text("cvi-plate", ride.cvi.plate); text("cvi-model", [ride.cvi.make, ride.cvi.model].filter(Boolean).join(" "));
      text("cvi-colour", ride.cvi.colour); text("cvi-permit", ride.cvi.permit);
    } else { ["cvi-plate", "cvi-model", "cvi-colour"].forEach(function (i) { text(i, null); }); text("cvi-permit", ride.permit); }
    text("driver-name", ride.driver && ride.driver.name); text("driver-cmt", ride.driver && ride.driver.cmt);
    var fare = document.getElementById("ride-fare");
    fare.hidden = !ride.fare;
    if (ride.fare) fare.textContent = "Valor pago (taxímetro, Art. 43): " + T.fmtMoney(ride.fare);
    // A fare held for DIMUTRAN's review is not charged: no amount to pay, no Pix, what happens next instead
    var review = ride.fare_review;
    document.getElementById("fare-review").hidden = !review;
    if (review) { fare.hidden = true; text("fare-review-title", review.title); text("fare-review-message", review.message); }
    var pay = review ? null : ride.payment;
    document.getElementById("ride-payment").hidden = !pay;
    document.getElementById("pix-box").hidden = !(pay && pay.pix);
    if (pay) {
      text("payment-method", "Pagamento: " + pay.method_display + (pay.pix ? " para " + pay.receiver : ""));
      if (pay.pix) { document.getElementById("pix-qr").src = pay.pix_qr; document.getElementById("pix-copy").value = pay.pix; }
    }
    document.getElementById("escalated-help").hidden = !(ride.escalated && ride.status === "requested");
    document.getElementById("arrived").hidden = ride.status !== "arriving";
    eta(ride);
    document.getElementById("cancel-form").hidden = CANCELLABLE.indexOf(ride.status) < 0;
    document.getElementById("new-ride").hidden = OPEN.indexOf(ride.status) >= 0;
    if (p.lat != null) setPickup(p.lat, p.lon, false, true);
    setCab(OPEN.indexOf(ride.status) >= 0 ? ride.cab_position : null);
    follow();
  }

  /** The cab and the pickup both in view while the cab comes, unless the passenger took the map (dragged it). */
  var tookMap = null; // the ride whose map the passenger moved herself
  map.on("dragstart", function () { tookMap = ride ? ride.id : null; });
  function follow() {
    var coming = ride && (ride.status === "accepted" || ride.status === "arriving");
    if (!coming || tookMap === ride.id || !pickupMarker || !cabMarker) return;
    map.fitBounds(L.latLngBounds([pickupMarker.getLatLng(), cabMarker.getLatLng()]).pad(0.3), { animate: false, maxZoom: 17 });
  }

  // --- never left waiting: what happens now, the cab's ETA, the "arrived" alert ------------------
  var URBAN_KMH = 20, DETOUR = 1.3; // a cab across town: straight line x detour at town speed (a hint, not a promise)
  var audio = null;
  document.addEventListener("pointerdown", function () { if (!audio && window.AudioContext) audio = new AudioContext(); }, { once: true });
  function chime() {
    if (audio) [0, 0.25, 0.5].forEach(function (at, i) {
      var o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = [660, 880, 990][i]; g.gain.value = 0.2; o.connect(g); g.connect(audio.destination);
      o.start(audio.currentTime + at); o.stop(audio.currentTime + at + 0.2);
    });
    if (navigator.vibrate) navigator.vibrate([300, 150, 300]);
  }
  function metres(a, b) {
    var R = 6371000, rad = Math.PI / 180, dLat = (b.lat - a.lat) * rad, dLon = (b.lon - a.lon) * rad;
    var h = Math.pow(Math.sin(dLat / 2), 2) + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.pow(Math.sin(dLon / 2), 2);
    return 2 * R * Math.asin(Math.sqrt(h));
  }
  function eta(r) {
    var box = document.getElementById("ride-eta"), cab = r && r.cab_position, p = r && r.pickup;
    box.hidden = !(r && r.status === "accepted"); // until she boards: the arrival alert takes over on "arriving"
    if (box.hidden) return;
    if (!(cab && cab.lat != null && p && p.lat != null)) { box.textContent = "Táxi a caminho; calculando quando chega…"; return; }
    var m = metres(cab, p) * DETOUR, min = Math.max(1, Math.round(m / 1000 / URBAN_KMH * 60));
    box.textContent = "Táxi a caminho: chega em cerca de " + min + " min (" + (m / 1000).toFixed(1).replace(".", ",") + " km).";
  }
  var CANCELLED_BY = { passenger: "Você cancelou a corrida.", operator: "A central cancelou a corrida", driver: "O motorista cancelou a corrida",
    no_show: "O motorista registrou que não encontrou você no embarque", no_cab: "A central encerrou o pedido" };
  function explain(prev, r) {
    var box = document.getElementById("ride-explain"), text = "";
    if (r.status === "cancelled") {
      text = CANCELLED_BY[r.cancelled_by] || "A corrida foi cancelada.";
      if (r.cancelled_by === "no_cab") text += (r.cancel_reason ? ": " + r.cancel_reason : "") + ". Peça de novo quando quiser ou ligue para a central.";
      else if (r.cancelled_by && r.cancelled_by !== "passenger") text += (r.cancel_reason ? ": " + r.cancel_reason : "") + ". Peça outro táxi quando quiser; se foi uma recusa, você pode reclamar à DIMUTRAN em “Minhas corridas”.";
    } else if (prev && prev.id === r.id && prev.escalated && prev.status === "requested" && r.status === "offered") {
      text = "A central indicou um táxi para você; aguardando o motorista confirmar.";
    }
    box.hidden = !text;
    box.textContent = text;
    if (text && r.status === "offered") T.notice(text, "ok");
  }

  function onRide(r) {
    if (ride && ride.id === r.id && r.version != null && ride.version != null) {
      if (r.version < ride.version) return;
      if (r.version > ride.version + 1) { socket.resync(); }
    }
    var prev = ride;
    if (!ride || ride.id === r.id || OPEN.indexOf(r.status) >= 0) ride = r;
    if (ride === r) {
      if (prev && prev.id === r.id && prev.status !== r.status) T.notice(""); // the last step's words are stale now
      if (!prev || prev.id !== r.id) { remember(r.pickup); remember(r.destination); } // places the central took, not refused ones
      if (prev && prev.id === r.id && prev.cab_position && !r.cab_position) r.cab_position = prev.cab_position;
      explain(prev, r);
      if (r.status === "arriving" && (!prev || prev.id !== r.id || prev.status !== "arriving")) { chime(); T.notice("Seu táxi chegou!", "ok"); }
    }
    render();
  }

  /** The request made while connecting, once the central has answered (not when a ride is already open). */
  function sendPending(rideOpen) {
    var frame = pendingRequest;
    pendingRequest = null;
    if (frame && !rideOpen && socket.send(frame)) T.notice(SENT, "info");
  }

  function connect() {
    if (socket) socket.stop();
    render();
    socket = T.liveSocket("/ws/passenger/", {
      open: function (s) { s.send({ type: "auth", token: me.token }); },
      message: function (msg) {
        switch (msg.type) {
          case "snapshot":
            var open = (msg.rides || []).filter(function (r) { return OPEN.indexOf(r.status) >= 0; });
            if (open.length) ride = open[0];
            else if (ride && OPEN.indexOf(ride.status) >= 0) ride = null; // it ended while we were away
            if (msg.passenger && msg.passenger.name) save({ token: me.token, name: msg.passenger.name });
            render();
            sendPending(open.length > 0);
            break;
          case "ride_update": onRide(msg.ride); break;
          case "cab_position": if (ride && ride.id === msg.ride_id) { ride.cab_position = { lat: msg.lat, lon: msg.lon }; setCab(ride.cab_position); eta(ride); follow(); } break;
          case "error":
            if (msg.code === "bad_token" || msg.code === "session_ended") { /* session_ended: the token was replaced (erasure), then a 4401 close */ socket.stop(); save(null); ride = null; show("signup"); T.notice("Cadastro não encontrado; identifique-se de novo.", "error"); }
            else T.notice(T.errorText(msg), "error");
            break;
          default: break;
        }
      }
    });
    socket.start();
  }

  if (me && me.token) connect(); else { show("signup"); T.setConn("off", "não identificado"); }
  window.TaxiPassenger = { get ride() { return ride; }, get me() { return me; }, map: map, points: points,
    /** Mark a point as a tap on the map would ("pickup" or "destination"); with a label, as a picked address. */
    mark: mark,
    /** A ride begun elsewhere (a booking's, at its time): reconnect, and the snapshot brings it. */
    resync: function () { if (socket) socket.resync(); },
    /** Drop the connection as a network failure would (the page reconnects by itself). */
    drop: function () { if (socket) socket.drop(); },
    /** The network is back: reconnect now. */
    reconnect: function () { if (socket) socket.reconnect(); } };
})();
