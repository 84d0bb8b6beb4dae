/* Passenger page, beside the live ride (passenger.js): the fare estimate before asking, bookings for later,
   the ride history with receipts, ratings and complaints. REST calls with "Authorization: Passenger <token>";
   every text from the server reaches the page through textContent (Taxi.el). */
(function () {
  "use strict";
  var T = window.Taxi, P = window.TaxiPassenger, el = T.el;
  var estimateBox = document.getElementById("estimate");
  var estimateTimer = null, estimateSeq = 0;

  function token() { var me = P.me; return me && me.token; }
  function api(method, url, body) {
    var headers = { Accept: "application/json" };
    if (token()) headers.Authorization = "Passenger " + token();
    if (body !== undefined) headers["Content-Type"] = "application/json";
    return fetch(url, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "omit" })
      .then(function (r) { return r.json().catch(function () { return {}; }).then(function (b) { return { ok: r.ok, status: r.status, body: b }; }); });
  }
  /** A 400's messages as one line: field messages, the law core's reasons, or the detail. */
  function problem(res) {
    // One message per error: the law's reasons when there are any (the fields and the detail repeat them), each once.
    var b = res.body || {};
    if (res.status === 429) return "Muitos pedidos seguidos; tente de novo em instantes.";
    var parts = Array.isArray(b.reasons) ? T.fieldWords(b.reasons.map(function (r) { return r.message; })) : [];
    if (!parts.length) {
      var fields = Object.assign({}, b.fields || b);
      ["reasons", "code", "articles"].forEach(function (k) { delete fields[k]; });
      parts = T.fieldWords(fields);
    }
    return parts.join(" ") || "Não foi possível concluir.";
  }

  // --- fare estimate (POST /api/fare-estimate/) ---------------------------------------------------
  /** "cerca de 1,2 a 1,6 km"; "cerca de 0,3 km" when both ends read the same. */
  function kmRange(lowM, highM) {
    var km = function (m) { return (m / 1000).toFixed(1).replace(".", ","); }, low = km(lowM), high = km(highM);
    return "cerca de " + (low === high ? low : low + " a " + high) + " km";
  }
  function estimate(pts) {
    clearTimeout(estimateTimer);
    if (!pts.pickup || !pts.destination) { estimateBox.hidden = true; return; }
    estimateTimer = setTimeout(function () {
      var seq = ++estimateSeq;
      api("POST", "/api/fare-estimate/", { origin: { lat: pts.pickup.lat, lon: pts.pickup.lon }, destination: { lat: pts.destination.lat, lon: pts.destination.lon } })
        .then(function (res) {
          if (seq !== estimateSeq) return; // a newer point was marked meanwhile
          estimateBox.hidden = false;
          estimateBox.textContent = "";
          if (!res.ok) { estimateBox.className = "estimate error"; estimateBox.textContent = problem(res); return; }
          var e = res.body;
          estimateBox.className = "estimate";
          estimateBox.appendChild(el("strong", { text: "Estimativa: " + e.low_display + " a " + e.high_display }));
          estimateBox.appendChild(el("span", { class: "hint", text: " · Bandeira " + (e.flag === 2 ? "II" : "I") + " (" + e.flag_label + (e.holiday_name ? ": " + e.holiday_name : "") + ") · " + kmRange(e.low_m, e.high_m) }));
          estimateBox.appendChild(el("br"));
          estimateBox.appendChild(el("small", { class: "hint", text: e.notice }));
        })
        .catch(function () { if (seq === estimateSeq) { estimateBox.hidden = false; estimateBox.textContent = "Sem conexão para calcular a estimativa."; } });
    }, 250);
  }
  document.addEventListener("taxi:points", function (ev) { estimate(ev.detail); });

  // --- bookings (POST /api/bookings/) --------------------------------------------------------------
  var watched = {}, bookingTimer = null, BOOKING_POLL_MS = 10000;
  /** "2026-03-05T06:00" typed in Muriaé's time -> an instant with its offset (Brazil keeps -03:00 all year since 2019). */
  function localInstant(value) { return value ? value + (value.length === 16 ? ":00" : "") + "-03:00" : ""; }
  document.getElementById("book").addEventListener("click", function () {
    var pts = P.points(), at = document.getElementById("booking-at").value;
    if (!pts.pickup) { T.notice("Marque o embarque no mapa antes de agendar.", "error"); return; }
    if (!at) { T.notice("Informe a data e a hora do embarque.", "error"); return; }
    var body = { pickup: pts.pickup, pickup_at: localInstant(at) };
    if (pts.destination) body.destination = pts.destination;
    api("POST", "/api/bookings/", body).then(function (res) {
      if (!res.ok) { T.notice(problem(res), "error"); return; }
      T.notice("Agendado para " + res.body.pickup_at_display + ". A central começa a procurar o táxi antes do horário.", "ok");
      loadBookings();
    }).catch(function () { T.notice("Sem conexão; tente de novo.", "error"); });
  });
  function loadBookings() {
    if (!token()) return;
    api("GET", "/api/bookings/").then(function (res) {
      var list = document.getElementById("booking-list"), rows = (res.ok && res.body.bookings) || [];
      list.textContent = "";
      var dispatchedNow = rows.some(function (b) { return b.status === "dispatched" && b.ride_id && watched[b.id]; });
      watched = {};
      rows.forEach(function (b) { if (b.status === "scheduled") watched[b.id] = true; });
      if (dispatchedNow) { T.notice("Chegou a hora do seu agendamento: procurando o táxi.", "info"); P.resync(); }
      clearTimeout(bookingTimer);
      if (Object.keys(watched).length) bookingTimer = setTimeout(loadBookings, BOOKING_POLL_MS);  // only while one waits
      document.getElementById("bookings").hidden = !rows.some(function (b) { return b.status === "scheduled"; });
      rows.filter(function (b) { return b.status === "scheduled"; }).forEach(function (b) {
        list.appendChild(el("li", { class: "ride booking", "data-booking": b.id }, [
          el("strong", { text: b.pickup_at_display }), " · " + (b.pickup.address || "embarque marcado no mapa"),
          b.destination && b.destination.address ? " → " + b.destination.address : null,
          el("button", { type: "button", class: "danger", text: "Cancelar agendamento", onclick: function () {
            api("POST", "/api/bookings/" + b.id + "/cancel/").then(function (r) {
              T.notice(r.ok ? "Agendamento cancelado." : problem(r), r.ok ? "ok" : "error"); loadBookings();
            });
          } })
        ]));
      });
    }).catch(function () {});
  }

  // --- history, receipts, ratings, complaints ------------------------------------------------------
  function stars(ride, done) {
    var form = el("form", { class: "rate" }), chosen = 0;
    var buttons = [1, 2, 3, 4, 5].map(function (n) {
      return el("button", { type: "button", class: "star", "aria-label": n + (n === 1 ? " estrela" : " estrelas"), text: "☆", onclick: function () {
        chosen = n; buttons.forEach(function (b, i) { b.textContent = i < n ? "★" : "☆"; });
      } });
    });
    var comment = el("input", { maxlength: "500", placeholder: "Comentário (opcional)" });
    form.appendChild(el("span", { class: "hint", text: "Avalie a corrida: " }));
    buttons.forEach(function (b) { form.appendChild(b); });
    form.appendChild(comment);
    form.appendChild(el("button", { type: "submit", text: "Enviar avaliação" }));
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (!chosen) { T.notice("Escolha de 1 a 5 estrelas.", "error"); return; }
      api("POST", "/api/ratings/", { ride: ride.id, stars: chosen, comment: comment.value.trim() }).then(function (res) {
        T.notice(res.ok ? "Obrigado pela avaliação!" : problem(res), res.ok ? "ok" : "error");
        if (res.ok) done();
      });
    });
    return form;
  }
  function complaint(ride) {
    var details = el("details", { class: "complain" }, [el("summary", { text: "Reclamar à DIMUTRAN" })]);
    var text = el("textarea", { rows: "3", maxlength: "2000", "aria-label": "O que aconteceu", placeholder: "O que aconteceu? (cobrança, recusa, o táxi não veio…)" });
    var form = el("form", {}, [text, el("button", { type: "submit", class: "danger", text: "Registrar reclamação" })]);
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      if (!text.value.trim()) { T.notice("Descreva o que aconteceu.", "error"); return; }
      api("POST", "/api/complaints/", { ride: ride.id, description: text.value.trim() }).then(function (res) {
        if (!res.ok) { T.notice(problem(res), "error"); return; }
        T.notice("Reclamação nº " + res.body.id + " registrada. A DIMUTRAN vai analisá-la (Art. 60).", "ok");
        form.replaceWith(el("p", { class: "hint complaint-filed", text: "Reclamação nº " + res.body.id + " registrada." }));
      });
    });
    details.appendChild(form);
    return details;
  }
  function historyItem(r) {
    var li = el("li", { class: "ride history-ride", "data-ride": r.id }, [
      el("strong", { text: "nº " + r.id + " · " + T.fmtDate(r.requested_at) }), " ",
      el("span", { class: "badge", text: r.status_label }),
      el("p", { class: "meta", text: (r.pickup_address || "embarque marcado no mapa") + (r.destination_address ? " → " + r.destination_address : "") +
        (r.fare ? " · " + (r.fare_review ? r.fare_review.title : T.fmtMoney(r.fare)) : "") + (r.permit ? " · permissão " + r.permit : "") })
    ]);
    if (r.receipt) {
      li.appendChild(el("a", { href: r.receipt.screen, target: "_blank", rel: "noopener", class: "receipt-link", text: "Recibo" }));
      li.appendChild(document.createTextNode(" · "));
      li.appendChild(el("a", { href: r.receipt.pdf, target: "_blank", rel: "noopener", text: "PDF" }));
      if (r.rated) li.appendChild(el("p", { class: "hint", text: "Corrida avaliada." })); // one rating per ride, known after a reload
      else { var rate = stars(r, function () { rate.replaceWith(el("p", { class: "hint", text: "Corrida avaliada." })); }); li.appendChild(rate); }
    }
    if (r.complaint) li.appendChild(el("p", { class: "hint complaint-filed", text: "Reclamação nº " + r.complaint.id + " registrada." }));
    else if (r.status === "completed" || r.status === "cancelled") li.appendChild(complaint(r));
    return li;
  }
  function loadHistory() {
    if (!token()) return;
    api("GET", "/api/passenger/rides/?limit=20").then(function (res) {
      var list = document.getElementById("history-list"), rows = (res.ok && res.body.results) || [];
      list.textContent = "";
      document.getElementById("history").hidden = !token();
      if (!rows.length) list.appendChild(el("li", { class: "empty", text: "Nenhuma corrida ainda." }));
      rows.forEach(function (r) { list.appendChild(historyItem(r)); });
    }).catch(function () {});
  }
  document.getElementById("history-refresh").addEventListener("click", loadHistory);

  // The live ride (passenger.js) rendered: a ride that ended enters the history; a sign-up or a sign-out shows or hides it.
  var lastSeen = null;
  document.addEventListener("taxi:ride", function (ev) {
    var r = ev.detail, seen = (token() || "") + "|" + (r ? r.id + ":" + r.status : "");
    document.getElementById("history").hidden = !token();
    if (!token()) document.getElementById("bookings").hidden = true;
    if (seen === lastSeen) return;
    lastSeen = seen;
    if (!r || r.status === "completed" || r.status === "cancelled") { loadHistory(); loadBookings(); }
  });
  loadHistory();
  loadBookings();
  window.TaxiPassengerAccount = { loadHistory: loadHistory, loadBookings: loadBookings };
})();
