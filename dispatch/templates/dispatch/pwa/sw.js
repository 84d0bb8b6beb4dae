/* The passenger page's service worker (dispatch/pwa.py, docs/passenger-app.md). Scope: {{ shell }}.
   Caches the page's shell and its static files so the page opens with no network; never an /api/ answer, never a
   websocket (the ride's state always comes live from the central). Brings the page back when its notification is tapped. */
"use strict";
var CACHE = "taxi-shell-{{ version }}"; // a new set of static URLs (a deployment) is a new cache
var SHELL = "{{ shell|escapejs }}";
var ASSETS = [{% for a in assets %}"{{ a|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];

self.addEventListener("install", function (event) {
  event.waitUntil(caches.open(CACHE).then(function (cache) { return cache.addAll([SHELL].concat(ASSETS)); }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k.indexOf("taxi-shell-") === 0 && k !== CACHE; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

/** Only the shell and static files: anything else (/api/, /ws/, other pages) goes to the network untouched. */
function cacheable(url) {
  if (url.origin !== self.location.origin) return false;
  return url.pathname === SHELL || url.pathname.indexOf("/static/") === 0;
}

self.addEventListener("fetch", function (event) {
  var req = event.request, url = new URL(req.url);
  if (req.method !== "GET" || !cacheable(url)) return;
  // The network's answer when there is one (never a stale page or script online), kept; else the cached copy.
  var key = req.mode === "navigate" || url.pathname === SHELL ? SHELL : req;
  event.respondWith(fetch(req).then(function (res) {
    if (res.ok) { var copy = res.clone(); caches.open(CACHE).then(function (c) { c.put(key, copy); }); }
    return res;
  }).catch(function () {
    // ignoreVary: the answers vary on Accept-Language (one language here), which the worker's own requests lack
    return caches.match(key, { ignoreVary: true }).then(function (hit) { return hit || Response.error(); });
  }));
});

/** A tap on the notification brings the page back (or opens it). */
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (list) {
    for (var i = 0; i < list.length; i++) { if (list[i].url.indexOf(SHELL) >= 0 && "focus" in list[i]) return list[i].focus(); }
    return self.clients.openWindow(SHELL);
  }));
});
