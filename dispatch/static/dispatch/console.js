/* Operators' console (/central/): live cabs, open rides with their offers, phone rides and bookings, manual assignment,
   cancel, broadcast; built for a whole shift: the map fills the screen, an escalation rings and stays highlighted until
   handled, filters, and a log that keeps every notice. */
(function () {
  "use strict";
  var T = window.Taxi, el = T.el;
  var OPEN = ["requested", "offered", "accepted", "arriving", "on_board"];
  var WAITING = ["requested", "offered"];
  var BUSY = ["ocupado", "a_caminho"];
  var STALE_MS = 180000; // a cab with no position for 3 minutes has left (its connection died without a word)
  var state = { cabs: {}, rides: {}, offers: {}, phones: {}, cabMarkers: {}, rideMarkers: {}, lastResync: 0, unknownAsked: {}, seenAt: {}, ranks: [], alerted: {} };

  var base = T.baseMap("map", { fit: "boundary" }), map = base.map;
  var filters = { state: document.getElementById("filter-state"), zone: document.getElementById("filter-zone"), rank: document.getElementById("filter-rank") };

  // --- every notice is kept in the log (the banner vanishes after a few seconds) ---------------
  function notify(text, kind) {
    T.notice(text, kind);
    var log = document.getElementById("log");
    log.insertBefore(el("li", { class: "log-" + (kind || "info") }, [el("time", { text: T.fmtTime(new Date().toISOString()) }), " " + text]), log.firstChild);
    while (log.children.length > 500) log.removeChild(log.lastChild);
    document.getElementById("log-count").textContent = log.children.length;
  }
  // --- an escalation rings (WebAudio; browsers allow it after the operator's first click) --------
  var audio = null;
  document.addEventListener("pointerdown", function () { if (!audio && window.AudioContext) audio = new AudioContext(); }, { once: true });
  function ring() {
    if (!audio) return;
    [0, 0.35].forEach(function (at) {
      var o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = 880; g.gain.value = 0.15;
      o.connect(g); g.connect(audio.destination);
      o.start(audio.currentTime + at); o.stop(audio.currentTime + at + 0.2);
    });
  }
  function needsOperator(ride) { return ride.escalated && ride.status === "requested"; }
  function nearRank(point) {
    var id = filters.rank.value, rank = id && state.ranks.filter(function (r) { return String(r.id) === id; })[0];
    return !rank || (point && point.lat != null && distanceM(point, rank) <= 500);
  }
  function cabShown(cab) { return (!filters.zone.value || cab.zone === filters.zone.value) && nearRank(cab); }
  function rideShown(ride) {
    var f = filters.state.value;
    if (f === "escalated" && !needsOperator(ride)) return false;
    if (f === "waiting" && WAITING.indexOf(ride.status) < 0) return false;
    if (f === "active" && WAITING.indexOf(ride.status) >= 0) return false;
    return nearRank(ride.pickup);
  }
  Object.keys(filters).forEach(function (k) { filters[k].addEventListener("change", function () {
    Object.keys(state.cabs).forEach(function (id) { drawCab(state.cabs[id]); });
    renderCabTable(); renderRides();
  }); });
  T.fetchJSON("/api/geo/ranks.geojson").then(function (data) {
    state.ranks = (data.features || []).map(function (f) { return { id: f.properties.id, name: f.properties.name, lat: f.geometry.coordinates[1], lon: f.geometry.coordinates[0] }; });
    state.ranks.forEach(function (r) { filters.rank.appendChild(el("option", { value: String(r.id), text: r.name })); });
  }).catch(function () {});
  var cabLayer = L.layerGroup().addTo(map), rideLayer = L.layerGroup().addTo(map);
  var draft = null;

  // --- the pickup of a new ride: click on the map or type it -------------------------------------
  var latIn = document.getElementById("pickup-lat"), lonIn = document.getElementById("pickup-lon");
  function setDraft(lat, lon) {
    if (draft) rideLayer.removeLayer(draft);
    draft = L.circleMarker([lat, lon], { radius: 10, color: "#7c3aed", weight: 3, fillColor: "#c4b5fd", fillOpacity: 0.7, dashArray: "3 3", className: "draft-marker" })
      .bindTooltip(T.tip("Novo embarque")).addTo(rideLayer);
  }
  var dLatIn = document.getElementById("destination-lat"), dLonIn = document.getElementById("destination-lon");
  var addressIn = document.getElementById("pickup-address");
  var typedAddress = false; // the operator wrote the address: a reverse lookup does not overwrite it
  addressIn.addEventListener("input", function () { typedAddress = !!addressIn.value.trim(); });
  function placePickup(lat, lon, address) {
    latIn.value = lat.toFixed(6);
    lonIn.value = lon.toFixed(6);
    setDraft(lat, lon);
    estimate();
    if (address) { addressIn.value = address; typedAddress = false; return; }
    T.reverseLookup(lat, lon).then(function (body) {
      if (body.error) { notify(body.error, "error"); return; }
      if (!typedAddress && body.address) addressIn.value = body.address;
    }).catch(function () {});
  }
  map.on("click", function (e) {
    if (e.originalEvent && e.originalEvent.shiftKey) {  // Shift-click: the destination (for the fare estimate)
      dLatIn.value = e.latlng.lat.toFixed(6); dLonIn.value = e.latlng.lng.toFixed(6);
      estimate();
    } else {
      placePickup(e.latlng.lat, e.latlng.lng, ""); addressIn.focus();
    }
  });

  // --- the address as the operator types it: suggestions, the street outlined, the map centred on it --
  var searchIn = document.getElementById("pickup-search");
  T.addressSearch(searchIn, document.getElementById("pickup-suggestions"), function () { return {}; }, function (s) {
    searchIn.value = s.label;
    T.showStreet(base, s.geometry);
    placePickup(s.lat, s.lon, s.label);
    notify("Clique sobre " + s.name + " no ponto exato do embarque, se for outro.", "info");
  });

  // --- a known caller: their names and recent pickups ----------------------------------------------
  var phoneIn = document.getElementById("caller-phone"), history = document.getElementById("caller-history");
  var historySeq = 0, historyTimer = null, historyFor = null;
  // Looked up while the operator types (300 ms after the last key), and again on leaving the field.
  phoneIn.addEventListener("input", function () { clearTimeout(historyTimer); historyTimer = setTimeout(lookupCaller, 300); });
  phoneIn.addEventListener("change", function () { clearTimeout(historyTimer); lookupCaller(); });
  function lookupCaller() {
    var digits = phoneIn.value.replace(/\D/g, "");
    if (digits === historyFor) return;  // the same number: what is shown stays
    historyFor = digits;
    var mine = ++historySeq;
    history.textContent = ""; history.hidden = true;
    if (digits.length < 10) return;
    // POST: a phone number never goes in a URL (access logs, proxies, history)
    post("/central/chamadas.json", { phone: digits }).then(function (res) {
      if (!res.ok || mine !== historySeq) return;
      var body = res.body;
      if (!body.pickups.length && !body.names.length) return;
      var nameIn = document.getElementById("caller-name");
      var kids = [el("strong", { text: "Já ligou antes: " })];
      body.names.forEach(function (n) {
        kids.push(el("button", { type: "button", class: "history-name", text: n, onclick: function () { nameIn.value = n; } }));
      });
      body.pickups.forEach(function (p) {
        kids.push(el("button", { type: "button", class: "history-pickup", text: p.address || (T.fmtCoord(p.lat) + "; " + T.fmtCoord(p.lon)),
          onclick: function () { placePickup(p.lat, p.lon, p.address); map.setView([p.lat, p.lon], 17); } }));
      });
      kids.forEach(function (k) { history.appendChild(k); });
      history.hidden = false;
      if (!nameIn.value && body.names.length) nameIn.value = body.names[0];
    }).catch(function () {});
  }
  [latIn, lonIn, dLatIn, dLonIn].forEach(function (input) {
    input.addEventListener("change", function () {
      var lat = T.parseCoord(latIn.value), lon = T.parseCoord(lonIn.value);
      if (isFinite(lat) && isFinite(lon)) setDraft(lat, lon);
      estimate();
    });
  });
  function draftPoints() {
    var lat = T.parseCoord(latIn.value), lon = T.parseCoord(lonIn.value), dlat = T.parseCoord(dLatIn.value), dlon = T.parseCoord(dLonIn.value);
    return { pickup: isFinite(lat) && isFinite(lon) ? { lat: lat, lon: lon, address: document.getElementById("pickup-address").value.trim() } : null,
             destination: isFinite(dlat) && isFinite(dlon) ? { lat: dlat, lon: dlon } : null };
  }
  var estimateSeq = 0;
  function estimate() {
    var pts = draftPoints(), box = document.getElementById("estimate"), seq = ++estimateSeq;
    if (!pts.pickup || !pts.destination) { box.hidden = true; return; }
    post("/api/fare-estimate/", { origin: pts.pickup, destination: pts.destination }).then(function (res) {
      if (seq !== estimateSeq) return;
      box.hidden = false;
      box.className = "estimate" + (res.ok ? "" : " error");
      box.textContent = res.ok ? "Estimativa: " + res.body.low_display + " a " + res.body.high_display + " (Bandeira " + (res.body.flag === 2 ? "II" : "I") + ", " + res.body.flag_label + ")" : problem(res);
    });
  }
  function csrf() { var i = document.querySelector("input[name=csrfmiddlewaretoken]"); return i ? i.value : ""; }
  function post(url, body) {
    return fetch(url, { method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf() }, body: JSON.stringify(body) })
      .then(function (r) { return r.json().catch(function () { return {}; }).then(function (b) { return { ok: r.ok, status: r.status, body: b }; }); });
  }
  function problem(res) {
    var b = res.body || {}, parts = [];
    (b.reasons || []).forEach(function (r) { parts.push(r.message); });
    Object.keys(b).forEach(function (k) { if (k !== "reasons" && k !== "code" && k !== "articles") parts.push([].concat(b[k]).map(function (v) { return typeof v === "string" ? v : JSON.stringify(v); }).join(" ")); });
    return parts.join(" ") || "Não foi possível concluir.";
  }

  // --- bookings (REST: /api/bookings/) ------------------------------------------------------------
  function loadBookings() {
    T.fetchJSON("/api/bookings/").then(function (data) {
      var list = document.getElementById("booking-list"), rows = data.bookings || [];
      list.textContent = "";
      document.getElementById("booking-count").textContent = rows.length;
      if (!rows.length) list.appendChild(el("li", { class: "empty", text: "Nenhum agendamento pendente." }));
      rows.forEach(function (b) {
        list.appendChild(el("li", { class: "ride booking", "data-booking": String(b.id) }, [
          el("strong", { text: b.pickup_at_display }), " · " + (b.passenger || "—") + (b.phone ? " · " + T.fmtPhone(b.phone) : ""),
          el("p", { class: "meta", text: (b.pickup.address || T.fmtCoord(b.pickup.lat) + "; " + T.fmtCoord(b.pickup.lon)) +
            (b.destination && b.destination.address ? " → " + b.destination.address : "") + " · despacho a partir de " + T.fmtTime(b.dispatch_at) })
        ]));
      });
    }).catch(function () {});
  }
  loadBookings();
  setInterval(loadBookings, 30000);

  // --- cabs -----------------------------------------------------------------------------------------
  function cabLabel(cab) {
    return cab.permit + " · " + (cab.driver || "sem motorista") + " · " + (T.CAB_STATUS[cab.status] || cab.status);
  }
  function drawCab(cab) {
    var marker = state.cabMarkers[cab.id];
    if (!cab.online || cab.lat == null || cab.lon == null || !cabShown(cab)) {
      if (marker) { cabLayer.removeLayer(marker); delete state.cabMarkers[cab.id]; }
      return;
    }
    var colour = T.CAB_COLOUR[cab.status] || "#6b7280";
    var cls = "cab-marker cab-" + cab.status + " cab-permit-" + String(cab.permit).replace(/[^A-Za-z0-9_-]/g, "_");
    if (marker && marker.options.className !== cls) { cabLayer.removeLayer(marker); marker = null; }
    if (!marker) {
      marker = L.circleMarker([cab.lat, cab.lon], { radius: 8, color: "#111827", weight: 1.5, fillColor: colour, fillOpacity: 0.95, className: cls })
        .bindTooltip(T.tip(""), { direction: "top" }).addTo(cabLayer);
      state.cabMarkers[cab.id] = marker;
    }
    marker.setLatLng([cab.lat, cab.lon]);
    marker.setTooltipContent(T.tip("Táxi " + cabLabel(cab)));
  }
  function renderCabTable() {
    var body = document.getElementById("cab-rows");
    var cabs = Object.keys(state.cabs).map(function (k) { return state.cabs[k]; }).filter(function (c) { return c.online && cabShown(c); })
      .sort(function (a, b) { return String(a.permit).localeCompare(String(b.permit), "pt-BR"); });
    document.getElementById("cab-count").textContent = cabs.length;
    body.textContent = "";
    if (!cabs.length) { body.appendChild(el("tr", { class: "empty" }, [el("td", { colspan: "4", text: "Nenhum táxi conectado." })])); return; }
    cabs.forEach(function (c) {
      body.appendChild(el("tr", { "data-cab": String(c.id) }, [
        el("td", { text: c.permit }), el("td", { text: c.driver || "—" }),
        el("td", {}, [el("span", { class: "dot st-" + c.status, "aria-hidden": "true" }), " " + (T.CAB_STATUS[c.status] || c.status)]),
        el("td", { text: c.lat == null ? "sem posição" : (T.ZONE[c.zone] || c.zone || "—") })
      ]));
    });
  }
  function upsertCab(cab) {
    var old = state.cabs[cab.id] || {};
    var merged = Object.assign({}, old, cab);
    if (cab.lat == null && old.lat != null) { merged.lat = old.lat; merged.lon = old.lon; merged.zone = old.zone; }
    if (!merged.online) { delete state.cabs[cab.id]; } else { state.cabs[cab.id] = merged; state.seenAt[cab.id] = Date.now(); }
    drawCab(merged);
  }

  // --- rides ----------------------------------------------------------------------------------------
  function distanceM(a, b) {
    var R = 6371000, rad = Math.PI / 180;
    var dLat = (b.lat - a.lat) * rad, dLon = (b.lon - a.lon) * rad;
    var h = Math.sin(dLat / 2) * Math.sin(dLat / 2) + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) * Math.sin(dLon / 2);
    return 2 * R * Math.asin(Math.sqrt(h));
  }
  function fmtDistance(m) { return m < 1000 ? Math.round(m) + " m" : (m / 1000).toLocaleString("pt-BR", { maximumFractionDigits: 1 }) + " km"; }

  function loadOffers(rideId) {
    T.fetchJSON("/central/corridas/" + rideId + "/ofertas.json").then(function (data) {
      state.offers[rideId] = data.offers;
      if (data.phone) state.phones[rideId] = data.phone;
      if (state.rides[rideId]) renderRides();
    }).catch(function () {});
  }

  function offersTable(ride) {
    var offers = state.offers[ride.id] || ride.offers || [];
    if (!offers.length) return el("p", { class: "hint", text: "Nenhuma oferta ainda." });
    var rows = offers.map(function (o) {
      return el("tr", { class: "offer offer-" + o.status }, [
        el("td", { text: o.permit }),
        el("td", { text: T.OFFER_STATUS[o.status] || o.status }),
        el("td", { text: o.reason + (o.distance_m != null && !/\d m\)/.test(o.reason) ? " · " + fmtDistance(o.distance_m) : "") + (o.created_at ? " · " + T.fmtTime(o.created_at) : "") })
      ]);
    });
    return el("table", { class: "offers" }, [
      el("caption", { text: "Ofertas da corrida nº " + ride.id }),
      el("thead", {}, [el("tr", {}, [el("th", { scope: "col", text: "Permissão" }), el("th", { scope: "col", text: "Situação" }), el("th", { scope: "col", text: "Motivo" })])]),
      el("tbody", {}, rows)
    ]);
  }

  function assignControls(ride, keep) {
    var offered = {};
    (state.offers[ride.id] || ride.offers || []).forEach(function (o) { offered[o.permit] = true; });
    var cabs = Object.keys(state.cabs).map(function (k) { return state.cabs[k]; }).filter(function (c) { return c.online && !offered[c.permit]; });
    cabs.forEach(function (c) { c._d = c.lat != null ? distanceM(ride.pickup, c) : Infinity; });
    var rank = function (c) { return c.status === "livre" ? 0 : BUSY.indexOf(c.status) >= 0 ? 2 : 1; };  // free, out of service, busy
    cabs.sort(function (a, b) { return rank(a) - rank(b) || a._d - b._d; });
    var id = "assign-" + ride.id;
    var select = el("select", { id: id, name: "permit_id", class: "assign-select" }, [el("option", { value: "", text: cabs.length ? "— escolha um táxi conectado —" : "— nenhum táxi disponível —" })]
      .concat(cabs.map(function (c) {
        var busy = BUSY.indexOf(c.status) >= 0;  // with a passenger or on the way to one: cannot take another ride
        var attrs = { value: String(c.permit_id), class: busy ? "cab-busy" : "cab-free",
          text: (busy ? "✕ " : "") + c.permit + " · " + (c.driver || "—") + " · " + (T.CAB_STATUS[c.status] || c.status) + (isFinite(c._d) ? " · " + fmtDistance(c._d) : "") + (busy ? " (ocupado)" : "") };
        if (busy) attrs.disabled = "disabled";
        return el("option", attrs);
      })));
    if (keep && keep.assign && select.querySelector('option[value="' + keep.assign + '"]')) select.value = keep.assign;
    return el("form", { class: "assign", "data-ride": String(ride.id), onsubmit: function (ev) {
      ev.preventDefault();
      var permitId = parseInt(select.value, 10);
      if (!permitId) { notify("Escolha o táxi para a corrida nº " + ride.id + ".", "error"); select.focus(); return; }
      if (socket.send({ type: "ride_assign", ride_id: ride.id, permit_id: permitId })) notify("Enviando a corrida nº " + ride.id + " ao táxi escolhido…", "info");
    } }, [el("label", { for: id, text: "Atribuir ao táxi" }), select, el("button", { type: "submit", text: "Atribuir" })]);
  }

  function cancelControls(ride, keep) {
    var id = "cancel-reason-" + ride.id;
    var input = el("input", { id: id, maxlength: "255", class: "cancel-reason", placeholder: "motivo" });
    if (keep && keep.reason) input.value = keep.reason;
    return el("form", { class: "cancel", "data-ride": String(ride.id), onsubmit: function (ev) {
      ev.preventDefault();
      if (socket.send({ type: "ride_cancel", ride_id: ride.id, reason: input.value.trim() })) notify("Cancelando a corrida nº " + ride.id + "…", "info");
    } }, [el("label", { for: id, text: "Motivo do cancelamento" }), input, el("button", { type: "submit", class: "danger", text: "Cancelar corrida" })]);
  }

  // --- an escalated ride is offered again to each cab that frees, until gives_up_at (dispatch.give_up) --------
  function countdownText(deadline) {
    var left = Math.max(0, Math.round((new Date(deadline).getTime() - Date.now()) / 1000));
    return "nova tentativa a cada táxi livre · encerra às " + T.fmtTime(deadline) + " (em " + Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0") + ")";
  }
  setInterval(function () {
    Array.prototype.forEach.call(document.querySelectorAll(".countdown[data-deadline]"), function (span) {
      span.textContent = countdownText(span.getAttribute("data-deadline"));
    });
  }, 1000);

  function renderRides() {
    var list = document.getElementById("rides");
    var keep = {};
    Array.prototype.forEach.call(list.querySelectorAll("li[data-ride]"), function (li) {
      var s = li.querySelector(".assign-select"), r = li.querySelector(".cancel-reason");
      keep[li.getAttribute("data-ride")] = { assign: s && s.value, reason: r && r.value, focus: li.contains(document.activeElement) && document.activeElement.id };
    });
    var all = Object.keys(state.rides).map(function (k) { return state.rides[k]; });
    var escalatedCount = all.filter(needsOperator).length;
    document.getElementById("escalated-count").textContent = escalatedCount;
    document.getElementById("escalated-count").hidden = !escalatedCount;
    var rides = all.filter(rideShown)
      .sort(function (a, b) { return (needsOperator(b) ? 1 : 0) - (needsOperator(a) ? 1 : 0) || String(a.requested_at).localeCompare(String(b.requested_at)); });
    list.textContent = "";
    rideLayer.clearLayers();
    if (draft) draft.addTo(rideLayer);
    var refocus = null;
    rides.forEach(function (ride) {
      var k = keep[String(ride.id)];
      var pick = ride.pickup || {};
      var children = [
        el("h3", {}, ["Corrida nº " + ride.id + " · " + (ride.passenger || "—") + (state.phones[ride.id] ? " · " + T.fmtPhone(state.phones[ride.id]) : "") + " ",
          el("span", { class: "badge rs-" + ride.status, text: T.RIDE_STATUS[ride.status] || ride.status }),
          needsOperator(ride) ? el("span", { class: "badge escalated", text: "nenhum táxi aceitou — atribua" }) : null,
          ride.needs_display ? el("span", { class: "badge needs", text: "precisa de táxi " + ride.needs_display }) : null,
          ride.gives_up_at ? el("span", { class: "countdown", "data-deadline": ride.gives_up_at, text: countdownText(ride.gives_up_at) }) : null]),
        el("p", { class: "meta" }, [
          "Pedida em " + T.fmtDate(ride.requested_at) + " · embarque: " + (pick.address || (T.fmtCoord(pick.lat) + "; " + T.fmtCoord(pick.lon))),
          ride.destination ? " · destino: " + (ride.destination.address || T.fmtCoord(ride.destination.lat) + "; " + T.fmtCoord(ride.destination.lon)) : "",
          ride.permit ? " · táxi " + ride.permit : "",
          ride.fare ? " · " + T.fmtMoney(ride.fare) : "",
          ride.payment ? " · pago em " + ride.payment.method_display + " (recebeu: " + ride.payment.receiver + ")" : ""
        ]),
        offersTable(ride)
      ];
      if (WAITING.indexOf(ride.status) >= 0) children.push(assignControls(ride, k));
      if (ride.status !== "on_board") children.push(cancelControls(ride, k));
      var li = el("li", { "data-ride": String(ride.id), class: "ride rs-line-" + ride.status + (needsOperator(ride) ? " is-escalated" : ""), tabindex: "-1" }, children);
      list.appendChild(li);
      if (k && k.focus) refocus = document.getElementById(k.focus);
      var dest = ride.destination;
      if (ride.status === "on_board" && dest && dest.lat != null) {  // on board: where it goes, no pickup left
        L.circleMarker([dest.lat, dest.lon], { radius: 6, color: "#065f46", weight: 2, fillColor: "#34d399", fillOpacity: 0.9, className: "destination-marker" })
          .bindTooltip(T.tip("Destino · corrida nº " + ride.id)).addTo(rideLayer);
      } else if (ride.status !== "on_board" && pick.lat != null) {
        L.circleMarker([pick.lat, pick.lon], { radius: needsOperator(ride) ? 11 : 7, color: needsOperator(ride) ? "#b91c1c" : "#5b21b6", weight: needsOperator(ride) ? 4 : 2, fillColor: "#8b5cf6", fillOpacity: 0.9, className: "pickup-marker" + (needsOperator(ride) ? " escalated-marker" : "") })
          .bindTooltip(T.tip("Embarque · corrida nº " + ride.id + " · " + (ride.passenger || "")))
          .on("click", function (ev) { L.DomEvent.stopPropagation(ev); li.scrollIntoView({ block: "nearest" }); li.focus(); })
          .addTo(rideLayer);
      }
    });
    if (refocus) refocus.focus();
    document.getElementById("ride-count").textContent = rides.length;
    document.getElementById("no-rides").hidden = rides.length > 0;
  }

  function upsertRide(ride) {
    var old = state.rides[ride.id];
    if (OPEN.indexOf(ride.status) < 0) {
      delete state.rides[ride.id];
      delete state.offers[ride.id];
      if (old) notify("Corrida nº " + ride.id + " " + (T.RIDE_STATUS[ride.status] || ride.status) + ".", "info");
      renderRides();
      return;
    }
    if (old && old.version != null && ride.version != null && ride.version < old.version) return; // stale
    var jumped = old && old.version != null && ride.version > old.version + 1;
    state.rides[ride.id] = Object.assign({}, ride, { offers: ride.offers || (old && old.offers) || [] });
    if (old && needsOperator(old) && !needsOperator(ride)) notify("Corrida nº " + ride.id + ": " + (T.RIDE_STATUS[ride.status] || ride.status) + " (escalonamento atendido).", "ok");
    renderRides();
    loadOffers(ride.id);
    if (jumped) resync("versão da corrida nº " + ride.id + " saltou");
  }

  // --- re-sync: reconnect for a fresh snapshot (at most every 5 s) -------------------------------
  function resync(why) {
    var now = Date.now();
    if (now - state.lastResync < 5000) return;
    state.lastResync = now;
    socket.resync();
  }

  function onSnapshot(msg) {
    state.cabs = {}; state.rides = {}; state.offers = {};
    cabLayer.clearLayers(); state.cabMarkers = {};
    (msg.cabs || []).forEach(upsertCab);
    (msg.rides || []).forEach(function (r) { state.rides[r.id] = r; state.offers[r.id] = r.offers || []; });
    renderCabTable();
    renderRides();
    Object.keys(state.rides).forEach(function (id) { loadOffers(id); });
    if (!state.fitted) { state.fitted = true; frameCabs(); }
  }
  /** The view that holds every connected cab and open pickup (the municipality when there is none). */
  function cabsBounds() {
    var pts = Object.keys(state.cabs).map(function (k) { return state.cabs[k]; }).filter(function (c) { return c.lat != null; })
      .map(function (c) { return [c.lat, c.lon]; })
      .concat(Object.keys(state.rides).map(function (k) { return state.rides[k].pickup; }).filter(function (p) { return p && p.lat != null; }).map(function (p) { return [p.lat, p.lon]; }));
    if (pts.length) return L.latLngBounds(pts).pad(0.15);
    return base.layers.boundary ? base.layers.boundary.getBounds() : null;
  }
  /** The first snapshot frames its cabs (over the boundary's fit) unless someone already moved the map. */
  function frameCabs() {
    var b = cabsBounds();
    if (b) { map.taxiFramed = true; map.taxiAutoFit(b, { maxZoom: 16 }); }
  }
  function fitCabs() {
    var b = cabsBounds();
    if (b) map.fitBounds(b, { maxZoom: 16 });
  }
  document.getElementById("fit-cabs").addEventListener("click", fitCabs);
  document.getElementById("fit-municipality").addEventListener("click", function () {
    if (base.layers.boundary) map.fitBounds(base.layers.boundary.getBounds());
  });

  var socket = T.liveSocket("/ws/operator/", {
    message: function (msg) {
      switch (msg.type) {
        case "snapshot": onSnapshot(msg); (msg.sos_alerts || []).forEach(window.TaxiSos.alert); break;
        case "cab_update": upsertCab(msg.cab); renderCabTable(); renderRides(); break;
        case "positions":
          (msg.cabs || []).forEach(function (p) {
            var cab = state.cabs[p.id];
            if (!cab) {
              var asked = state.unknownAsked[p.id] || 0;
              if (Date.now() - asked > 60000) { state.unknownAsked[p.id] = Date.now(); resync("táxi novo"); }
              return;
            }
            cab.lat = p.lat; cab.lon = p.lon; cab.zone = p.zone; state.seenAt[p.id] = Date.now();
            drawCab(cab);
          });
          renderCabTable();
          break;
        case "ride_update": upsertRide(msg.ride); break;
        case "health": window.TaxiAlarm.health(msg); break;  // dispatch's pulse: the alarm (ops_alarm.js)
        case "sos_alert": window.TaxiSos.alert(msg.alert); break;  // a passenger's SOS (console_sos.js)
        case "escalation":
          upsertRide(msg.ride);
          if (!state.alerted[msg.ride.id]) { state.alerted[msg.ride.id] = true; ring(); }
          notify("Nenhum táxi aceitou a corrida nº " + msg.ride.id + " (" + (msg.ride.passenger || "") + ")" +
            (msg.ride.needs_display ? ", que precisa de táxi " + msg.ride.needs_display : "") + ": atribua manualmente.", "error");
          break;
        case "ride_created":
          notify("Corrida nº " + msg.ride_id + " criada; procurando táxi.", "ok");
          resetRideForm();
          break;
        case "assigned": notify("Corrida oferecida ao táxi escolhido (oferta nº " + msg.offer_id + "); aguardando o motorista aceitar.", "ok"); break;
        case "broadcast_sent": notify("Aviso enviado aos táxis conectados.", "ok"); document.getElementById("broadcast-form").reset(); break;
        case "error": notify(errorText(msg), "error"); break;
        default: break;
      }
    },
    close: function (ev, api, wasOpen) {
      if (wasOpen) return true;
      // Refused before opening: is the session still a staff one?
      fetch("/central/corridas/0/ofertas.json", { credentials: "same-origin" }).then(function (r) {
        if (r.status === 403) {
          socket.stop();
          notify("Sua sessão expirou. Entre de novo em /admin/login/ para voltar à central.", "error");
        }
      }).catch(function () {});
      return true;
    }
  });
  socket.start();
  setInterval(function () { resync("periódico"); }, 60000); // a connection that died without a word is not announced
  setInterval(function () {  // ...so a cab whose positions stopped leaves the map before the next snapshot
    var now = Date.now(), changed = false;
    Object.keys(state.cabs).forEach(function (id) {
      if (now - (state.seenAt[id] || now) > STALE_MS) { upsertCab({ id: Number(id), online: false }); changed = true; }
    });
    if (changed) renderCabTable();
  }, 15000);

  function errorText(msg) {
    var text = msg.message || "Erro.";
    if (msg.fields) {
      text += " " + Object.keys(msg.fields).map(function (k) { return k + ": " + JSON.stringify(msg.fields[k]); }).join("; ");
    }
    return text;
  }

  function resetRideForm() {
    document.getElementById("ride-form").reset();
    document.getElementById("estimate").hidden = true;
    history.hidden = true; historyFor = null; typedAddress = false;
    base.layers.highlight.clearLayers();
    if (draft) { rideLayer.removeLayer(draft); draft = null; }
  }

  // --- forms ----------------------------------------------------------------------------------------
  document.getElementById("ride-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var name = document.getElementById("caller-name").value.trim();
    var phone = document.getElementById("caller-phone").value.trim();
    var lat = T.parseCoord(latIn.value), lon = T.parseCoord(lonIn.value);
    var address = document.getElementById("pickup-address").value.trim();
    if (!name || !phone) { notify("Informe o nome e o telefone de quem ligou.", "error"); return; }
    if (!isFinite(lat) || !isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
      notify("Busque o endereço, marque o embarque no mapa ou digite latitude e longitude válidas.", "error"); searchIn.focus(); return;
    }
    var pts = draftPoints(), at = document.getElementById("booking-at").value;
    // the pickup is checked (inside Muriaé, its street) before the ride or booking is created; the server checks again
    T.reverseLookup(lat, lon).then(function (found) {
      if (found.error) { notify(found.error, "error"); searchIn.focus(); return; }
      var pickup = { lat: lat, lon: lon, address: address || found.address || "" };
      if (at) {  // for later: a booking, dispatched before its time (Art. 66)
        var body = { caller_name: name, caller_phone: phone, pickup: pickup, pickup_at: at + (at.length === 16 ? ":00" : "") + "-03:00" };
        if (pts.destination) body.destination = pts.destination;
        post("/api/bookings/", body).then(function (res) {
          if (!res.ok) { notify(problem(res), "error"); return; }
          notify("Agendamento nº " + res.body.id + " para " + res.body.pickup_at_display + " (" + name + ").", "ok");
          resetRideForm();
          loadBookings();
        });
        return;
      }
      var frame = { type: "ride_create", caller_name: name, caller_phone: phone, pickup: pickup,
        needs: Array.prototype.map.call(document.querySelectorAll("#ride-form input[name=needs]:checked"), function (i) { return i.value; }) };
      if (pts.destination) frame.destination = pts.destination;
      socket.send(frame);
    }).catch(function () { notify("Não foi possível conferir o endereço; tente de novo.", "error"); });
  });
  document.getElementById("broadcast-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var text = document.getElementById("broadcast-text").value.trim();
    if (!text) { notify("Escreva a mensagem do aviso.", "error"); return; }
    socket.send({ type: "broadcast", text: text });
  });

  window.TaxiConsole = { state: state, map: map, socket: socket, loadBookings: loadBookings, post: post };
})();
