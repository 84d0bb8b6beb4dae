/* Operators' console (/central/): live cabs, open rides with their offers, phone rides, manual assignment, cancel, broadcast. */
(function () {
  "use strict";
  var T = window.Taxi, el = T.el;
  var OPEN = ["requested", "offered", "accepted", "arriving", "on_board"];
  var WAITING = ["requested", "offered"];
  var state = { cabs: {}, rides: {}, offers: {}, phones: {}, cabMarkers: {}, rideMarkers: {}, lastResync: 0, unknownAsked: {} };

  var base = T.baseMap("map"), map = base.map;
  var cabLayer = L.layerGroup().addTo(map), rideLayer = L.layerGroup().addTo(map);
  var draft = null;

  // --- the pickup of a new ride: click on the map or type it -------------------------------------
  var latIn = document.getElementById("pickup-lat"), lonIn = document.getElementById("pickup-lon");
  function setDraft(lat, lon) {
    if (draft) rideLayer.removeLayer(draft);
    draft = L.circleMarker([lat, lon], { radius: 10, color: "#7c3aed", weight: 3, fillColor: "#c4b5fd", fillOpacity: 0.7, dashArray: "3 3", className: "draft-marker" })
      .bindTooltip(T.tip("Novo embarque")).addTo(rideLayer);
  }
  map.on("click", function (e) {
    latIn.value = e.latlng.lat.toFixed(6);
    lonIn.value = e.latlng.lng.toFixed(6);
    setDraft(e.latlng.lat, e.latlng.lng);
    document.getElementById("pickup-address").focus();
  });
  [latIn, lonIn].forEach(function (input) {
    input.addEventListener("change", function () {
      var lat = T.parseCoord(latIn.value), lon = T.parseCoord(lonIn.value);
      if (isFinite(lat) && isFinite(lon)) setDraft(lat, lon);
    });
  });

  // --- cabs -----------------------------------------------------------------------------------------
  function cabLabel(cab) {
    return cab.permit + " · " + (cab.driver || "sem motorista") + " · " + (T.CAB_STATUS[cab.status] || cab.status);
  }
  function drawCab(cab) {
    var marker = state.cabMarkers[cab.id];
    if (!cab.online || cab.lat == null || cab.lon == null) {
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
    var cabs = Object.keys(state.cabs).map(function (k) { return state.cabs[k]; }).filter(function (c) { return c.online; })
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
    if (!merged.online) { delete state.cabs[cab.id]; } else { state.cabs[cab.id] = merged; }
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
    cabs.sort(function (a, b) { return (a.status === "livre" ? 0 : 1) - (b.status === "livre" ? 0 : 1) || a._d - b._d; });
    var id = "assign-" + ride.id;
    var select = el("select", { id: id, name: "permit_id", class: "assign-select" }, [el("option", { value: "", text: cabs.length ? "— escolha um táxi conectado —" : "— nenhum táxi disponível —" })]
      .concat(cabs.map(function (c) {
        return el("option", { value: String(c.permit_id), text: c.permit + " · " + (c.driver || "—") + " · " + (T.CAB_STATUS[c.status] || c.status) + (isFinite(c._d) ? " · " + fmtDistance(c._d) : "") });
      })));
    if (keep && keep.assign && select.querySelector('option[value="' + keep.assign + '"]')) select.value = keep.assign;
    return el("form", { class: "assign", "data-ride": String(ride.id), onsubmit: function (ev) {
      ev.preventDefault();
      var permitId = parseInt(select.value, 10);
      if (!permitId) { T.notice("Escolha o táxi para a corrida nº " + ride.id + ".", "error"); select.focus(); return; }
      if (socket.send({ type: "ride_assign", ride_id: ride.id, permit_id: permitId })) T.notice("Enviando a corrida nº " + ride.id + " ao táxi escolhido…", "info");
    } }, [el("label", { for: id, text: "Atribuir ao táxi" }), select, el("button", { type: "submit", text: "Atribuir" })]);
  }

  function cancelControls(ride, keep) {
    var id = "cancel-reason-" + ride.id;
    var input = el("input", { id: id, maxlength: "255", class: "cancel-reason", placeholder: "motivo" });
    if (keep && keep.reason) input.value = keep.reason;
    return el("form", { class: "cancel", "data-ride": String(ride.id), onsubmit: function (ev) {
      ev.preventDefault();
      if (socket.send({ type: "ride_cancel", ride_id: ride.id, reason: input.value.trim() })) T.notice("Cancelando a corrida nº " + ride.id + "…", "info");
    } }, [el("label", { for: id, text: "Motivo do cancelamento" }), input, el("button", { type: "submit", class: "danger", text: "Cancelar corrida" })]);
  }

  function renderRides() {
    var list = document.getElementById("rides");
    var keep = {};
    Array.prototype.forEach.call(list.querySelectorAll("li[data-ride]"), function (li) {
      var s = li.querySelector(".assign-select"), r = li.querySelector(".cancel-reason");
      keep[li.getAttribute("data-ride")] = { assign: s && s.value, reason: r && r.value, focus: li.contains(document.activeElement) && document.activeElement.id };
    });
    var rides = Object.keys(state.rides).map(function (k) { return state.rides[k]; })
      .sort(function (a, b) { return (b.escalated ? 1 : 0) - (a.escalated ? 1 : 0) || String(a.requested_at).localeCompare(String(b.requested_at)); });
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
          ride.escalated ? el("span", { class: "badge escalated", text: "nenhum táxi aceitou — atribua" }) : null]),
        el("p", { class: "meta" }, [
          "Pedida em " + T.fmtDate(ride.requested_at) + " · embarque: " + (pick.address || (T.fmtCoord(pick.lat) + "; " + T.fmtCoord(pick.lon))),
          ride.destination ? " · destino: " + (ride.destination.address || T.fmtCoord(ride.destination.lat) + "; " + T.fmtCoord(ride.destination.lon)) : "",
          ride.permit ? " · táxi " + ride.permit : "",
          ride.fare ? " · " + T.fmtMoney(ride.fare) : ""
        ]),
        offersTable(ride)
      ];
      if (WAITING.indexOf(ride.status) >= 0) children.push(assignControls(ride, k));
      if (ride.status !== "on_board") children.push(cancelControls(ride, k));
      var li = el("li", { "data-ride": String(ride.id), class: "ride" + (ride.escalated ? " is-escalated" : ""), tabindex: "-1" }, children);
      list.appendChild(li);
      if (k && k.focus) refocus = document.getElementById(k.focus);
      if (pick.lat != null) {
        L.circleMarker([pick.lat, pick.lon], { radius: 7, color: "#5b21b6", weight: 2, fillColor: "#8b5cf6", fillOpacity: 0.9, className: "pickup-marker" })
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
      if (old) T.notice("Corrida nº " + ride.id + " " + (T.RIDE_STATUS[ride.status] || ride.status) + ".", "info");
      renderRides();
      return;
    }
    if (old && old.version != null && ride.version != null && ride.version < old.version) return; // stale
    var jumped = old && old.version != null && ride.version > old.version + 1;
    state.rides[ride.id] = Object.assign({}, ride, { offers: ride.offers || (old && old.offers) || [] });
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
  }

  var socket = T.liveSocket("/ws/operator/", {
    message: function (msg) {
      switch (msg.type) {
        case "snapshot": onSnapshot(msg); break;
        case "cab_update": upsertCab(msg.cab); renderCabTable(); renderRides(); break;
        case "positions":
          (msg.cabs || []).forEach(function (p) {
            var cab = state.cabs[p.id];
            if (!cab) {
              var asked = state.unknownAsked[p.id] || 0;
              if (Date.now() - asked > 60000) { state.unknownAsked[p.id] = Date.now(); resync("táxi novo"); }
              return;
            }
            cab.lat = p.lat; cab.lon = p.lon; cab.zone = p.zone;
            drawCab(cab);
          });
          renderCabTable();
          break;
        case "ride_update": upsertRide(msg.ride); break;
        case "escalation":
          upsertRide(msg.ride);
          T.notice("Nenhum táxi aceitou a corrida nº " + msg.ride.id + " (" + (msg.ride.passenger || "") + "): atribua manualmente.", "error");
          break;
        case "ride_created":
          T.notice("Corrida nº " + msg.ride_id + " criada; procurando táxi.", "ok");
          document.getElementById("ride-form").reset();
          if (draft) { rideLayer.removeLayer(draft); draft = null; }
          break;
        case "assigned": T.notice("Corrida oferecida ao táxi escolhido (oferta nº " + msg.offer_id + "); aguardando o motorista aceitar.", "ok"); break;
        case "broadcast_sent": T.notice("Aviso enviado aos táxis conectados.", "ok"); document.getElementById("broadcast-form").reset(); break;
        case "error": T.notice(errorText(msg), "error"); break;
        default: break;
      }
    },
    close: function (ev, api, wasOpen) {
      if (wasOpen) return true;
      // Refused before opening: is the session still a staff one?
      fetch("/central/corridas/0/ofertas.json", { credentials: "same-origin" }).then(function (r) {
        if (r.status === 403) {
          socket.stop();
          T.notice("Sua sessão expirou. Entre de novo em /admin/login/ para voltar à central.", "error");
        }
      }).catch(function () {});
      return true;
    }
  });
  socket.start();
  setInterval(function () { resync("periódico"); }, 60000); // the server does not announce cabs going offline

  function errorText(msg) {
    var text = msg.message || "Erro.";
    if (msg.fields) {
      text += " " + Object.keys(msg.fields).map(function (k) { return k + ": " + JSON.stringify(msg.fields[k]); }).join("; ");
    }
    return text;
  }

  // --- forms ----------------------------------------------------------------------------------------
  document.getElementById("ride-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var name = document.getElementById("caller-name").value.trim();
    var phone = document.getElementById("caller-phone").value.trim();
    var lat = T.parseCoord(latIn.value), lon = T.parseCoord(lonIn.value);
    var address = document.getElementById("pickup-address").value.trim();
    if (!name || !phone) { T.notice("Informe o nome e o telefone de quem ligou.", "error"); return; }
    if (!isFinite(lat) || !isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
      T.notice("Marque o embarque no mapa ou digite latitude e longitude válidas.", "error"); latIn.focus(); return;
    }
    socket.send({ type: "ride_create", caller_name: name, caller_phone: phone, pickup: { lat: lat, lon: lon, address: address } });
  });
  document.getElementById("broadcast-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var text = document.getElementById("broadcast-text").value.trim();
    if (!text) { T.notice("Escreva a mensagem do aviso.", "error"); return; }
    socket.send({ type: "broadcast", text: text });
  });

  window.TaxiConsole = { state: state, map: map, socket: socket };
})();
