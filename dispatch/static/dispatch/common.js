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

  /** The words of every message in a refusal's ``fields`` (nested), each once; ``fallback`` when there are none. */
  function fieldWords(fields) {
    var parts = [];
    (function walk(v) {
      if (typeof v === "string") { if (parts.indexOf(v) < 0) parts.push(v); }
      else if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === "object") Object.keys(v).forEach(function (k) { walk(v[k]); });
    })(fields);
    return parts;
  }
  /** A socket's error frame as one sentence: what was wrong with the fields (a place outside Muriaé...), not
      "Mensagem inválida.". */
  function errorText(msg) {
    var words = fieldWords(msg.fields);
    return words.length ? words.join(" ") : (msg.message || "Não foi possível concluir; tente de novo.");
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
    map.attributionControl.setPrefix("Leaflet").addAttribution("Ruas: PAIRDI (MIT), provável origem IBGE · Nomes: CEP Aberto (ODbL) · Limite: IBGE · Zona central e pontos: DIMUTRAN");
    var layers = { boundary: null, zone: null, streets: null, ranks: L.layerGroup().addTo(map), rankMarkers: {}, highlight: L.layerGroup().addTo(map) };
    map.createPane("boundary").style.zIndex = 250; // under the streets: the boundary's fill is the land
    map.createPane("streets").style.zIndex = 350; // over the land, under the zone, ranks and cabs (overlayPane, 400)
    streetsLayer(map, layers);
    // The page's own fits (a boundary or zone that arrives, the first snapshot's cabs) only frame the map until
    // someone else moves it: a view the user (or a script acting for them) took is never pulled away later.
    // Auto fits are synchronous (no animation), so the movestart they fire is known to be theirs.
    var autoFitting = false;
    map.on("zoomstart movestart", function () { if (!autoFitting) map.taxiMoved = true; });
    map.taxiAutoFit = function (bounds, opts) {
      if (map.taxiMoved || !bounds.isValid()) return;
      autoFitting = true;
      try { map.fitBounds(bounds, Object.assign({ animate: false }, opts)); } finally { autoFitting = false; }
    };
    fetchJSON("/api/geo/boundary.geojson").then(function (data) {
      layers.boundary = L.geoJSON(data, { style: { color: "#4b5563", weight: 2, fillColor: "#ffffff", fillOpacity: 0.6, dashArray: "6 4" }, interactive: false, pane: "boundary" }).addTo(map);
      if (fit === "boundary" && !map.taxiFramed) map.taxiAutoFit(layers.boundary.getBounds(), { padding: [8, 8] });
    }).catch(function () { if (navigator.onLine) notice("Não foi possível carregar o limite do município.", "error"); }); // offline: the page says so once
    fetchJSON("/api/geo/central-zone.geojson").then(function (data) {
      layers.zone = L.geoJSON(data, { style: { color: "#c2410c", weight: 2, fillColor: "#fdba74", fillOpacity: 0.25 }, interactive: false }).addTo(map);
      if (fit === "zone") map.taxiAutoFit(layers.zone.getBounds().pad(0.15));
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
    map.whenReady(function () { setTimeout(function () {
      var was = autoFitting; autoFitting = true;
      try { map.invalidateSize(); } finally { autoFitting = was; }
    }, 50); });
    return { map: map, layers: layers, reloadRanks: loadRanks };
  }

  /** Every street of Muriaé as one vector layer on a canvas (no tiles); names appear from zoom 16 on, for the streets in view,
      none over another (a name that would collide with one already placed is left out). */
  function streetsLayer(map, layers) {
    var renderer = L.canvas({ padding: 0.3, pane: "streets" });
    var labels = L.layerGroup().addTo(map);
    var t0 = window.performance ? performance.now() : 0;
    fetchJSON("/api/geo/streets.geojson").then(function (data) {
      layers.streets = L.geoJSON(data, { renderer: renderer, interactive: false, style: function (f) {
        return f.properties.name ? { color: "#9ca3af", weight: 2, opacity: 0.9 } : { color: "#cbd5e1", weight: 1.5, opacity: 0.9 };
      } }).addTo(map);
      window.TaxiMapTiming = { streets: data.features.length, firstDrawMs: Math.round((window.performance ? performance.now() : 0) - t0) };
      map.fire("streetsready");
      drawLabels();
    }).catch(function () { if (navigator.onLine) notice("Não foi possível carregar as ruas do mapa.", "error"); });
    function drawLabels() {
      labels.clearLayers();
      if (!layers.streets || map.getZoom() < 16) return;
      var view = map.getBounds(), middle = map.getCenter(), found = [], seen = {};
      layers.streets.eachLayer(function (line) {
        var name = line.feature.properties.name;
        if (!name || seen[name] || !view.intersects(line.getBounds())) return;
        var centre = line.getCenter();
        if (!view.contains(centre)) return;
        seen[name] = true;
        found.push({ name: name, at: centre, d: middle.distanceTo(centre) });
      });
      found.sort(function (a, b) { return a.d - b.d; }); // at most 60 names, the nearest the middle first
      var taken = [];  // the boxes already labelled, in pixels: a name that would overlap one is left out
      found.forEach(function (f) {
        if (taken.length >= 60) return;
        var p = map.latLngToContainerPoint(f.at), w = f.name.length * 6.2 + 10, h = 16;
        var b = { x0: p.x - w / 2 - 4, x1: p.x + w / 2 + 4, y0: p.y - h / 2 - 2, y1: p.y + h / 2 + 2 };
        if (taken.some(function (t) { return b.x0 < t.x1 && t.x0 < b.x1 && b.y0 < t.y1 && t.y0 < b.y1; })) return;
        taken.push(b);
        L.tooltip({ permanent: true, direction: "center", className: "street-label", interactive: false })
          .setLatLng(f.at).setContent(tip(f.name)).addTo(labels);
      });
    }
    map.on("moveend zoomend", drawLabels);
  }

  /** Outline one street (a search suggestion) and fit the map to it. */
  function showStreet(base, geometry) {
    base.layers.highlight.clearLayers();
    var shape = L.geoJSON(geometry, { style: { color: "#2563eb", weight: 6, opacity: 0.8 }, interactive: false }).addTo(base.layers.highlight);
    var b = shape.getBounds();
    if (b.isValid()) base.map.fitBounds(b.pad(0.4), { maxZoom: 17 });
    return shape;
  }

  /** An address box: suggestions as the person types (GET /api/addresses/?q=), as DOM nodes; onPick(suggestion). */
  function addressSearch(input, list, headers, onPick) {
    var timer = null, seq = 0;
    function clear() { list.textContent = ""; list.hidden = true; input.setAttribute("aria-expanded", "false"); }
    function render(body) {
      list.textContent = "";
      if (body.message) list.appendChild(el("li", { class: "hint", text: body.message }));
      (body.results || []).forEach(function (s) {
        var li = el("li", { class: "suggestion", tabindex: "0", role: "option", "data-name": s.name, text: s.label + (s.kind === "landmark" ? " (local)" : "") });
        function pick(ev) { ev.preventDefault(); clear(); onPick(s); }
        li.addEventListener("mousedown", pick);
        li.addEventListener("keydown", function (ev) {
          if (ev.key === "Enter" || ev.key === " ") pick(ev);
          else if (ev.key === "ArrowDown" && li.nextElementSibling) { ev.preventDefault(); li.nextElementSibling.focus(); }
          else if (ev.key === "ArrowUp") { ev.preventDefault(); (li.previousElementSibling || input).focus(); }
          else if (ev.key === "Escape") { clear(); input.focus(); }
        });
        list.appendChild(li);
      });
      list.hidden = !list.firstChild;
      input.setAttribute("aria-expanded", String(!list.hidden));
    }
    input.addEventListener("input", function () {
      clearTimeout(timer);
      var q = input.value.trim();
      if (!q) { clear(); return; }
      timer = setTimeout(function () {
        var mine = ++seq;
        fetch("/api/addresses/?q=" + encodeURIComponent(q.slice(0, 200)), { credentials: "same-origin", headers: Object.assign({ Accept: "application/json" }, headers()) })
          .then(function (r) { return r.json(); })
          .then(function (body) { if (mine === seq && document.activeElement === input) render(body); }) // not after she left the box
          .catch(function () {});
      }, 180);
    });
    input.addEventListener("keydown", function (ev) {
      if (ev.key === "ArrowDown" && list.firstChild) { ev.preventDefault(); (list.querySelector(".suggestion") || list.firstChild).focus(); }
      if (ev.key === "Escape") clear();
    });
    // Gone when the focus leaves both the box and its list (a keyboard user reading the suggestions keeps them).
    function leftBoth() { setTimeout(function () { if (document.activeElement !== input && !list.contains(document.activeElement)) clear(); }, 200); }
    input.addEventListener("blur", leftBoth);
    list.addEventListener("focusout", leftBoth);
    return { clear: clear };
  }

  /** "Rua X, bairro Y" of a point (GET /api/addresses/reverse/); resolves {address, message} or {error}. */
  function reverseLookup(lat, lon, headers) {
    return fetch("/api/addresses/reverse/?lat=" + encodeURIComponent(lat) + "&lon=" + encodeURIComponent(lon),
      { credentials: "same-origin", headers: Object.assign({ Accept: "application/json" }, headers ? headers() : {}) })
      .then(function (r) { return r.json().then(function (body) { return r.ok ? body : { error: body.detail || "Local inválido." }; }); });
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
      isOpen: function () { return !!ws && ws.readyState === 1; },
      send: function (frame) {
        if (!api.isOpen()) { notice("Sem conexão com a central; tente de novo em instantes.", "error"); return false; }
        ws.send(JSON.stringify(frame));
        return true;
      },
      /** Re-sync: close and open again (the server sends a fresh snapshot). */
      resync: function () { if (api.isOpen()) { resyncing = true; ws.close(); } },
      /** Drop the connection as a network failure would (the page reconnects by itself). */
      drop: function () { if (ws) ws.close(4000, "drop"); },
      /** Try now (the phone is back online), not after the back-off's wait. */
      reconnect: function () { if (stopped || ws) return; clearTimeout(timer); open(); },
      stop: function () { stopped = true; clearTimeout(timer); if (ws) ws.close(); },
      start: function () { stopped = false; attempts = 0; if (!ws) open(); }
    };
    return api;
  }

  window.Taxi = {
    el: el, tip: tip, errorText: errorText, fieldWords: fieldWords, parseCoord: parseCoord, showStreet: showStreet, addressSearch: addressSearch, reverseLookup: reverseLookup, notice: notice, setConn: setConn, fetchJSON: fetchJSON, baseMap: baseMap, liveSocket: liveSocket,
    fmtDate: function (iso) { return iso ? dateFmt.format(new Date(iso)) : "—"; },
    fmtTime: function (iso) { return iso ? timeFmt.format(new Date(iso)) : "—"; },
    fmtMoney: function (v) { return v == null ? "—" : money.format(Number(v)); },
    fmtCoord: function (v) { return coord.format(v); },
    fmtPhone: function (d) {
      d = String(d || "").replace(/\D/g, "");
      // Phones are stored in E.164 (+5532999991234, taxilaw.brazil): shown without the country, as the server's phone().
      if ((d.length === 12 || d.length === 13) && d.slice(0, 2) === "55") d = d.slice(2);
      if (d.length === 11) return "(" + d.slice(0, 2) + ") " + d.slice(2, 7) + "-" + d.slice(7);
      if (d.length === 10) return "(" + d.slice(0, 2) + ") " + d.slice(2, 6) + "-" + d.slice(6);
      return d;
    },
    CAB_STATUS: CAB_STATUS, RIDE_STATUS: RIDE_STATUS, OFFER_STATUS: OFFER_STATUS, ZONE: ZONE,
    CAB_COLOUR: { livre: "#16a34a", a_caminho: "#f59e0b", ocupado: "#dc2626", fora_de_servico: "#6b7280" }
  };
})();
