/* Shared pieces of the dispatch pages: Brazilian formats, the base map (no tiles), a reconnecting websocket. */
(function () {
  "use strict";
  var TZ = "America/Sao_Paulo";
  var dateFmt = new Intl.DateTimeFormat("pt-BR", { timeZone: TZ, day: "2-digit", month: "2-digit", year: "numeric", hour: "2-digit", minute: "2-digit" });
  var timeFmt = new Intl.DateTimeFormat("pt-BR", { timeZone: TZ, hour: "2-digit", minute: "2-digit", second: "2-digit" });
  var money = new Intl.NumberFormat("pt-BR", { style: "currency", currency: "BRL" });
  var coord = new Intl.NumberFormat("pt-BR", { minimumFractionDigits: 5, maximumFractionDigits: 6 });

  var CAB_STATUS = { livre: "livre", a_caminho: "a caminho", ocupado: "ocupado", fora_de_servico: "fora de serviço" };
  var RIDE_STATUS = {
    requested: "solicitada", offered: "oferecida a um táxi", accepted: "aceita", arriving: "o táxi chegou",
    on_board: "passageiro a bordo", completed: "concluída", cancelled: "cancelada"
  };
  var OFFER_STATUS = { pending: "aguardando resposta", accepted: "aceita", declined: "recusada", expired: "expirada", withdrawn: "retirada" };
  var ZONE = { central: "central", peripheral: "periférica", outside: "fora do município" };

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (k === "text") node.textContent = attrs[k];
      else if (k === "class") node.className = attrs[k];
      else if (k.slice(0, 2) === "on") node.addEventListener(k.slice(2), attrs[k]);
      else node.setAttribute(k, attrs[k]);
    });
    (children || []).forEach(function (c) { if (c != null) node.appendChild(typeof c === "string" ? document.createTextNode(c) : c); });
    return node;
  }

  /** A text as a DOM node for Leaflet's tooltips and icons, which take strings as HTML: user text stays text. */
  function tip(text) { return el("span", { text: text == null ? "" : String(text) }); }

  /** "-21,1311" or "-21.1311" -> -21.1311; NaN when not a number. */
  function parseCoord(text) {
    var s = String(text || "").trim().replace(/\s/g, "");
    if (s.indexOf(",") >= 0 && s.indexOf(".") < 0) s = s.replace(",", ".");
    return s === "" ? NaN : Number(s);
  }

  function notice(text, kind) {
    var box = document.getElementById("notice");
    if (!box) return;
    box.textContent = text || "";
    box.className = "notice " + (kind || "info");
    box.hidden = !text;
    clearTimeout(notice._t);
    if (text && kind !== "error") notice._t = setTimeout(function () { box.hidden = true; }, 6000);
  }

  function setConn(state, text) {
    var p = document.getElementById("conn");
    if (!p) return;
    p.textContent = text;
    p.className = "conn conn-" + state;
  }

  function fetchJSON(url) {
    return fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } }).then(function (r) {
      if (!r.ok) throw new Error("HTTP " + r.status);
      return r.json();
    });
  }

  /** The base map: a plain background, the municipal boundary, the central zone and the ranks (with queues).
      ``options.fit``: "boundary" fits the whole municipality (the console), else the central zone. */
  function baseMap(id, options) {
    var fit = (options && options.fit) || "zone";
    var map = L.map(id, { zoomControl: true, attributionControl: true, minZoom: 9, maxZoom: 19 }).setView([-21.1311, -42.3676], 14);
    map.attributionControl.setPrefix("Leaflet").addAttribution("Limite: IBGE · Zona central e pontos: DIMUTRAN");
    var layers = { boundary: null, zone: null, ranks: L.layerGroup().addTo(map), rankMarkers: {} };
    fetchJSON("/api/geo/boundary.geojson").then(function (data) {
      layers.boundary = L.geoJSON(data, { style: { color: "#4b5563", weight: 2, fillColor: "#ffffff", fillOpacity: 0.6, dashArray: "6 4" }, interactive: false }).addTo(map);
      layers.boundary.bringToBack();
      if (fit === "boundary" && !map.taxiFitted && layers.boundary.getBounds().isValid()) map.fitBounds(layers.boundary.getBounds(), { padding: [8, 8] });
    }).catch(function () { notice("Não foi possível carregar o limite do município.", "error"); });
    fetchJSON("/api/geo/central-zone.geojson").then(function (data) {
      layers.zone = L.geoJSON(data, { style: { color: "#c2410c", weight: 2, fillColor: "#fdba74", fillOpacity: 0.25 }, interactive: false }).addTo(map);
      if (layers.boundary) layers.boundary.bringToBack();
      var b = layers.zone.getBounds();
      if (fit === "zone" && b.isValid()) map.fitBounds(b.pad(0.15));
    }).catch(function () {});
    function loadRanks() {
      Promise.all([fetchJSON("/api/geo/ranks.geojson"), fetchJSON("/pontos/filas.json").catch(function () { return { queues: {} }; })]).then(function (res) {
        var queues = res[1].queues || {};
        layers.ranks.clearLayers();
        layers.rankMarkers = {};
        (res[0].features || []).forEach(function (f) {
          var c = f.geometry.coordinates, p = f.properties || {};
          var q = queues[String(p.id)];
          var label = p.name + (q != null ? " · fila: " + q + (q === 1 ? " táxi" : " táxis") : "") + " (" + (p.category_label || p.category) + ")";
          var m = L.circleMarker([c[1], c[0]], { radius: 9, color: "#1e3a8a", weight: 2, fillColor: "#93c5fd", fillOpacity: 0.9, className: "rank-marker" })
            .bindTooltip(tip(label)).addTo(layers.ranks);
          if (q != null) {
            L.marker([c[1], c[0]], { icon: L.divIcon({ className: "rank-queue", html: tip(q), iconSize: [18, 18], iconAnchor: [-6, 18] }), interactive: false, keyboard: false }).addTo(layers.ranks);
          }
          layers.rankMarkers[p.id] = m;
        });
      }).catch(function () {});
    }
    loadRanks();
    setInterval(loadRanks, 30000);
    map.whenReady(function () { setTimeout(function () { map.invalidateSize(); }, 50); });
    return { map: map, layers: layers, reloadRanks: loadRanks };
  }

  /** A websocket that reconnects by itself (1 s, 2 s, ... up to 15 s). */
  function liveSocket(path, handlers) {
    var ws = null, attempts = 0, stopped = false, timer = null, resyncing = false;
    var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + path;
    function open() {
      clearTimeout(timer);
      setConn("wait", attempts ? "reconectando…" : "conectando…");
      var wasOpen = false;
      ws = new WebSocket(url);
      ws.onopen = function () { wasOpen = true; attempts = 0; setConn("on", "conectado"); if (handlers.open) handlers.open(api); };
      ws.onmessage = function (ev) {
        var msg;
        try { msg = JSON.parse(ev.data); } catch (e) { return; }
        handlers.message(msg, api);
      };
      ws.onclose = function (ev) {
        ws = null;
        if (handlers.close && handlers.close(ev, api, wasOpen) === false) { stopped = true; }
        if (stopped) { setConn("off", "desconectado"); return; }
        if (resyncing) { resyncing = false; open(); return; } // asked for a fresh snapshot: at once
        attempts += 1;
        var delay = Math.min(15000, 1000 * Math.pow(2, Math.min(attempts - 1, 4)));
        setConn("wait", "sem conexão; nova tentativa em " + Math.round(delay / 1000) + " s");
        timer = setTimeout(open, delay);
      };
    }
    var api = {
      send: function (frame) {
        if (!ws || ws.readyState !== 1) { notice("Sem conexão com a central; tente de novo em instantes.", "error"); return false; }
        ws.send(JSON.stringify(frame));
        return true;
      },
      /** Re-sync: close and open again (the server sends a fresh snapshot). */
      resync: function () { if (ws && ws.readyState === 1) { resyncing = true; ws.close(); } },
      /** Drop the connection as a network failure would (the page reconnects by itself). */
      drop: function () { if (ws) ws.close(4000, "drop"); },
      stop: function () { stopped = true; clearTimeout(timer); if (ws) ws.close(); },
      start: function () { stopped = false; attempts = 0; if (!ws) open(); }
    };
    return api;
  }

  window.Taxi = {
    el: el, tip: tip, parseCoord: parseCoord, notice: notice, setConn: setConn, fetchJSON: fetchJSON, baseMap: baseMap, liveSocket: liveSocket,
    fmtDate: function (iso) { return iso ? dateFmt.format(new Date(iso)) : "—"; },
    fmtTime: function (iso) { return iso ? timeFmt.format(new Date(iso)) : "—"; },
    fmtMoney: function (v) { return v == null ? "—" : money.format(Number(v)); },
    fmtCoord: function (v) { return coord.format(v); },
    fmtPhone: function (d) {
      d = String(d || "").replace(/\D/g, "");
      if (d.length === 11) return "(" + d.slice(0, 2) + ") " + d.slice(2, 7) + "-" + d.slice(7);
      if (d.length === 10) return "(" + d.slice(0, 2) + ") " + d.slice(2, 6) + "-" + d.slice(6);
      return d;
    },
    CAB_STATUS: CAB_STATUS, RIDE_STATUS: RIDE_STATUS, OFFER_STATUS: OFFER_STATUS, ZONE: ZONE,
    CAB_COLOUR: { livre: "#16a34a", a_caminho: "#f59e0b", ocupado: "#dc2626", fora_de_servico: "#6b7280" }
  };
})();
