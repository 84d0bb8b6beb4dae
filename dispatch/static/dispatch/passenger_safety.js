/* The passenger's safety pieces (docs/passenger-safety.md), beside passenger.js: it fires "taxi:request" with the
   frame about to be sent and "taxi:ride" with the ride after every change; nothing here reaches into passenger.js. */
(function () {
  "use strict";
  var ride = null;

  // --- an equipped cab (taxilaw.accessibility): the needs ticked go with the request --------------
  document.addEventListener("taxi:request", function (ev) {
    ev.detail.needs = Array.prototype.map.call(document.querySelectorAll("#request-form input[name=needs]:checked"),
      function (i) { return i.value; });
  });

  function showNeeds(r) {
    var unmet = document.getElementById("needs-unmet"), asked = document.getElementById("ride-needs");
    unmet.hidden = !(r && r.needs_unmet);
    unmet.textContent = (r && r.needs_unmet) || "";
    asked.hidden = !(r && r.needs_display);
    asked.textContent = r && r.needs_display ? "Você pediu um táxi " + r.needs_display + "." : "";
  }

  document.addEventListener("taxi:ride", function (ev) {
    ride = ev.detail;
    showNeeds(ride);
  });
  window.TaxiSafety = { get ride() { return ride; } };
})();
