/* A shared ride (/acompanhar/<token>/, docs/passenger-safety.md): the cab, the ride's two ends and where the cab is,
   read every POLL_MS from estado.json while the ride lasts. Bounded: it stops for good when the link is refused
   (404/410: the ride ended or the link was revoked), pauses while the page is hidden, and ends after MAX_POLLS. */
(function () {
  "use strict";
  var T = window.Taxi;
  var POLL_MS = 5000, MAX_POLLS = 4 * 3600 * 1000 / 5000;  // four hours of a visible page
  var STATE_URL = window.location.pathname.replace(/\/?$/, "/") + "estado.json";
  var base = T.baseMap("map"), map = base.map;
  var markers = {}, polls = 0, timer = null, ended = false;

  function text(id, value) { var e = document.getElementById(id); if (e) e.textContent = value == null || value === "" ? "—" : value; }
  function mark(key, point, style, label) {
    if (!point || point.lat == null) { if (markers[key]) { map.removeLayer(markers[key]); delete markers[key]; } return; }
    if (markers[key]) markers[key].setLatLng([point.lat, point.lon]);
    else markers[key] = L.circleMarker([point.lat, point.lon], style).bindTooltip(T.tip(label)).addTo(map);
  }

  function show(ride) {
    T.setConn("on", "acompanhando");
    text("follow-status", ride.status_display);
    text("follow-pickup", "Embarque: " + ((ride.pickup && ride.pickup.address) || "—"));
    text("follow-destination", "Destino: " + ((ride.destination && ride.destination.address) || "não informado"));
    document.getElementById("follow-cab").hidden = !ride.cvi;
    document.getElementById("follow-waiting").hidden = !!ride.cvi;
    if (ride.cvi) {
      text("follow-plate", ride.cvi.plate); text("follow-model", [ride.cvi.make, ride.cvi.model].join(" "));
      text("follow-colour", ride.cvi.colour); text("follow-permit", ride.cvi.permit);
    }
    if (ride.driver) { text("follow-driver", ride.driver.name); text("follow-cmt", ride.driver.cmt); }
    mark("pickup", ride.pickup, { radius: 9, color: "#5b21b6", weight: 2, fillColor: "#8b5cf6", fillOpacity: 0.9 }, "Embarque");
    mark("destination", ride.destination, { radius: 8, color: "#065f46", weight: 2, fillColor: "#34d399", fillOpacity: 0.9 }, "Destino");
    mark("cab", ride.cab_position, { radius: 10, color: "#92400e", weight: 3, fillColor: "#f59e0b", fillOpacity: 1, className: "cab-marker" },
      "Táxi " + (ride.cvi ? ride.cvi.plate : ""));
    if (ride.cab_position && ride.cab_position.lat != null && !map.taxiMoved) map.setView([ride.cab_position.lat, ride.cab_position.lon], Math.max(map.getZoom(), 15), { animate: false });
    text("follow-updated", "Atualizado às " + T.fmtTime(new Date().toISOString()) + ".");
  }

  function stop(message) {
    ended = true; clearTimeout(timer);
    T.setConn("off", "encerrado");
    document.getElementById("follow-cab").hidden = true;
    mark("cab", null);
    T.notice(message, "error");
    text("follow-status", "acompanhamento encerrado");
  }

  function poll() {
    if (ended) return;
    if (document.hidden) { timer = setTimeout(poll, POLL_MS); return; }
    if (++polls > MAX_POLLS) { stop("O acompanhamento foi pausado. Recarregue a página para continuar."); return; }
    fetch(STATE_URL, { cache: "no-store", credentials: "omit" }).then(function (r) {
      return r.json().then(function (body) { return { status: r.status, body: body }; });
    }).then(function (res) {
      if (res.status === 404 || res.status === 410) { stop(res.body.detail || "Este acompanhamento terminou."); return; }
      if (res.status === 200) show(res.body);
      timer = setTimeout(poll, POLL_MS);
    }).catch(function () { T.setConn("off", "sem conexão"); timer = setTimeout(poll, POLL_MS); });
  }

  show(JSON.parse(document.getElementById("follow-initial").textContent));
  timer = setTimeout(poll, POLL_MS);
  window.TaxiFollow = { poll: poll, get ended() { return ended; } };
})();
