/* The console's shift view (/central/turno.json, dispatch/shift.py): the rides of the last hours with their outcome,
   filtered by result, searched by phone, plate or ride number (as the operator types, debounced), the shift's totals,
   a page at a time. Refreshed while open, every 30 s and at once when anything changes. */
(function () {
  "use strict";
  var T = window.Taxi, el = T.el, C = window.TaxiConsole;
  var box = document.getElementById("shift"), list = document.getElementById("shift-rides");
  var hoursIn = document.getElementById("shift-hours"), stateIn = document.getElementById("shift-state"), searchIn = document.getElementById("shift-search");
  var page = 1, seq = 0, typing = null;
  var KIND = { completed: "done", cancelled: "cancelled" };

  function row(r) {
    var who = [r.passenger || "—", r.phone ? T.fmtPhone(r.phone) : ""].filter(Boolean).join(" · ");
    var cab = r.permit ? "táxi " + r.permit + (r.plate ? " (" + r.plate + ")" : "") : "sem táxi";
    return el("li", { class: "shift-ride sr-" + (KIND[r.status] || "open") + (r.escalated ? " sr-escalated" : ""), "data-shift-ride": String(r.id) }, [
      el("strong", { text: "nº " + r.id }), " · " + T.fmtTime(r.requested_at) + " · " + who,
      el("span", { class: "outcome", text: r.outcome + (r.escalated ? " · escalonada" : "") }),
      el("p", { class: "meta", text: (r.pickup || "—") + (r.destination ? " → " + r.destination : "") + " · " + cab +
        " · espera: " + r.pickup_wait_display + (r.fare ? " · " + T.fmtMoney(r.fare) : "") })
    ]);
  }
  function show(body) {
    var t = body.totals;
    Object.keys(t).forEach(function (k) {
      var dd = box.querySelector('[data-total="' + k + '"]');
      if (dd) dd.textContent = k === "average_pickup_s" ? t.average_pickup_display : String(t[k]);
    });
    document.getElementById("shift-count").textContent = body.count;
    list.textContent = "";
    body.rides.forEach(function (r) { list.appendChild(row(r)); });
    document.getElementById("shift-empty").hidden = body.rides.length > 0;
    page = body.page;
    document.getElementById("shift-page").textContent = "página " + body.page + " de " + body.pages + " · " + body.count + " corridas";
    document.getElementById("shift-prev").disabled = body.page <= 1;
    document.getElementById("shift-next").disabled = body.page >= body.pages;
  }
  function load() {
    if (!box.open) return;
    var mine = ++seq;
    C.post("/central/turno.json", { hours: Number(hoursIn.value), state: stateIn.value, search: searchIn.value.trim(), page: page })
      .then(function (res) { if (mine === seq && res.ok) show(res.body); })
      .catch(function () {});
  }
  function reload() { page = 1; load(); }
  box.addEventListener("toggle", load);
  hoursIn.addEventListener("change", reload);
  stateIn.addEventListener("change", reload);
  searchIn.addEventListener("input", function () { clearTimeout(typing); typing = setTimeout(reload, 300); });
  document.getElementById("shift-form").addEventListener("submit", function (ev) { ev.preventDefault(); clearTimeout(typing); reload(); });
  document.getElementById("shift-prev").addEventListener("click", function () { page -= 1; load(); });
  document.getElementById("shift-next").addEventListener("click", function () { page += 1; load(); });
  setInterval(load, 30000);
  C.shift = { load: load };
})();
