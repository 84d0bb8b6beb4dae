/* A passenger's SOS on the operators' console (docs/passenger-safety.md): the `sos_alert` frame, and the snapshot's
   `sos_alerts` not acknowledged yet, raise the console's alarm (ops_alarm.js: the red banner, the flashing title, the
   beep every 10 s) with who to call and where, and a red marker on the map; "Ciente" records who saw it
   (POST /api/sos/<id>/ack/), kept with the alert for DIMUTRAN. */
(function () {
  "use strict";
  var T = window.Taxi, raised = {}, markers = {};
  var SOURCE = { passenger: "celular do passageiro", cab: "táxi" };

  function csrf() { var m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/); return m ? decodeURIComponent(m[1]) : ""; }
  function place(a) {
    var p = (a.positions || [])[0];
    if (!p) return "posição desconhecida";
    return T.fmtCoord(p.lat) + "; " + T.fmtCoord(p.lon) + " (" + (SOURCE[p.source] || p.source) + (p.at ? ", " + T.fmtTime(p.at) : "") + ")";
  }
  function mark(a) {
    var p = (a.positions || [])[0], map = window.TaxiConsole && window.TaxiConsole.map;
    if (!p || !map || markers[a.id]) return;
    markers[a.id] = L.circleMarker([p.lat, p.lon], { radius: 16, color: "#7f1d1d", weight: 5, fillColor: "#ef4444", fillOpacity: 0.9, className: "sos-marker" })
      .bindTooltip(T.tip("SOS · corrida nº " + a.ride_id)).addTo(map);
    map.setView([p.lat, p.lon], Math.max(map.getZoom(), 16), { animate: false });
  }

  function alert(a) {
    if (raised[a.id]) return;
    raised[a.id] = a;
    var phone = a.passenger_phone ? T.fmtPhone(a.passenger_phone) : "sem telefone";
    window.TaxiAlarm.raise("sos-" + a.id, { id: "sos-" + a.id,
      title: "SOS: o passageiro da corrida nº " + a.ride_id + " pediu socorro às " + T.fmtTime(a.raised_at),
      what: (a.passenger || "Passageiro") + " · " + phone + " · táxi " + (a.plate || "—") + " (permissão " + (a.permit || "—") + "), motorista " +
            (a.driver || "—") + " · situação: " + (T.RIDE_STATUS[a.ride_status] || a.ride_status) + " · última posição: " + place(a) + ".",
      todo: "ligue para o passageiro agora (" + phone + "). Se ele não atender ou confirmar o perigo, acione o 190 com a placa, o " +
            "carro e a posição; acompanhe o táxi no mapa." });
    mark(a);
  }

  document.getElementById("ops-alarm-ack").addEventListener("click", function () {
    Object.keys(raised).forEach(function (id) {
      if (raised[id] === true) return;
      raised[id] = true;  // acknowledged: a snapshot does not raise it again here
      fetch("/api/sos/" + id + "/ack/", { method: "POST", credentials: "same-origin", headers: { "X-CSRFToken": csrf() } }).catch(function () {});
      if (markers[id]) markers[id].getTooltip() && markers[id].setStyle({ fillColor: "#fca5a5" });
    });
  });

  window.TaxiSos = { alert: alert, get raised() { return raised; } };
})();
