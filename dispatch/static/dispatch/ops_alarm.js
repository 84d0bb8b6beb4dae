/* The operators' alarm (docs/operations.md, "Alarms"): fed by the `health` frames every serving process's tick sends
   (dispatch/health.py). Three conditions, each saying what is wrong and what to do:
   - the cabs online drop sharply: at least DROP_SHARE of the peak of the last DROP_WINDOW_MS, and at least DROP_MIN cabs;
   - a tick ran later than the presence lease (`tick_lag_s` >= `stall_after_s`): the dispatch stood still;
   - silence: no `health` frame for `silence_after_s` (the console's server, its tick, the network or Redis is down).
   A red banner over the page, the title flashing and, after the operator's first click, a beep every 10 s until
   "Ciente"; silence and a drop clear by themselves when the cause goes, a stall (a past event) only with "Ciente". */
(function () {
  "use strict";
  var T = window.Taxi, el = T.el;
  var DROP_SHARE = 0.3, DROP_MIN = 3, DROP_WINDOW_MS = 120000, RING_EVERY_MS = 10000;
  var state = { history: [], lastFrameAt: 0, silenceAfter: 10, active: {}, acked: {}, title: document.title, last: null };
  var box = document.getElementById("ops-alarm"), list = document.getElementById("ops-alarm-list"), status = document.getElementById("ops-status");

  var audio = null;
  document.addEventListener("pointerdown", function () { if (!audio && window.AudioContext) audio = new AudioContext(); }, { once: true });
  function beep() {
    if (!audio) return;
    [0, 0.3, 0.6].forEach(function (at) {
      var o = audio.createOscillator(), g = audio.createGain();
      o.frequency.value = 660; g.gain.value = 0.2;
      o.connect(g); g.connect(audio.destination);
      o.start(audio.currentTime + at); o.stop(audio.currentTime + at + 0.2);
    });
  }

  function secs(s) { return Math.round(s).toLocaleString("pt-BR") + " s"; }

  function raise(key, alarm) {
    if (state.acked[key] === alarm.id) return; // the operator saw this very one
    var fresh = !state.active[key] || state.active[key].id !== alarm.id;
    state.active[key] = alarm;
    if (fresh) { beep(); render(); } else { render(); }
  }
  function clear(key, okText) {
    if (!state.active[key] && state.acked[key] == null) return;
    var was = state.active[key];
    delete state.active[key]; delete state.acked[key];
    if (was && okText) T.notice(okText, "ok");
    render();
  }

  function render() {
    var keys = Object.keys(state.active).filter(function (k) { return state.acked[k] !== state.active[k].id; });
    list.textContent = "";
    keys.forEach(function (k) {
      var a = state.active[k];
      list.appendChild(el("li", { class: "ops-alarm-item", "data-alarm": k }, [
        el("strong", { text: a.title }), el("p", { text: a.what }), el("p", { class: "todo", text: "O que fazer: " + a.todo })]));
    });
    box.hidden = !keys.length;
    document.body.classList.toggle("ops-alarmed", keys.length > 0);
    if (keys.length) { status.textContent = "despacho: ALERTA"; status.className = "conn conn-alarm"; }
    else document.title = state.title;
  }

  document.getElementById("ops-alarm-ack").addEventListener("click", function () {
    Object.keys(state.active).forEach(function (k) { state.acked[k] = state.active[k].id; });
    if (state.active.drop) state.history = [];  // the new level is the reference from now on
    render();
  });

  function health(msg) {
    var now = Date.now();
    state.lastFrameAt = now;
    state.silenceAfter = msg.silence_after_s || state.silenceAfter;
    state.last = msg;
    clear("silence", "O despacho voltou a dar sinal.");
    // a sharp drop of the cabs online, against the peak of the window
    state.history.push({ at: now, cabs: msg.cabs_online });
    state.history = state.history.filter(function (h) { return now - h.at <= DROP_WINDOW_MS; });
    var peak = state.history.reduce(function (m, h) { return h.cabs > m.cabs ? h : m; }, state.history[0]);
    var lost = peak.cabs - msg.cabs_online;
    if (lost >= DROP_MIN && lost >= DROP_SHARE * peak.cabs) {
      raise("drop", { id: "drop-" + peak.at, peak: peak.cabs, title: "ALERTA: táxis conectados caíram de " + peak.cabs + " para " + msg.cabs_online,
        what: lost + " táxis deixaram de estar conectados à central em " + secs((now - peak.at) / 1000) +
              ". Pedidos perto deles vão para a central sem táxi.",
        todo: "confira a internet da central e avise o suporte técnico (o /readyz do servidor diz o que falha). Ligue para alguns " +
              "motoristas: se o aplicativo diz “Central conectada” mas não chegam corridas, peça que fechem e abram o aplicativo. " +
              "Atribua à mão as corridas sem táxi." });
    } else if (state.active.drop && msg.cabs_online >= 0.9 * state.active.drop.peak) {
      clear("drop", "Os táxis conectados voltaram: " + msg.cabs_online + ".");
    }
    if (msg.tick_lag_s >= msg.stall_after_s) {
      raise("stall", { id: "stall-" + msg.process + "-" + msg.at, title: "ALERTA: o despacho ficou parado " + secs(msg.tick_lag_s),
        what: "Um servidor do despacho (" + msg.process + ") ficou " + secs(msg.tick_lag_s) + " sem trabalhar: nenhuma oferta " +
              "saiu nem expirou, e os táxis ligados a ele podem ter sido desconectados.",
        todo: "confira se as corridas em aberto têm táxi e se os táxis voltaram ao mapa; avise o suporte técnico " +
              "(servidor sobrecarregado: CPU, memória ou disco)." });
    }
    if (!box.hidden) return;
    status.textContent = "despacho ok · " + msg.cabs_online + " táxis";
    status.className = "conn conn-on";
  }

  setInterval(function () {
    var keys = Object.keys(state.active).filter(function (k) { return state.acked[k] !== state.active[k].id; });
    if (keys.length) document.title = (document.title.charAt(0) === "⚠" ? state.title : "⚠ ALERTA · " + state.title);
    if (!state.lastFrameAt) return;  // armed by the first health frame
    var quiet = (Date.now() - state.lastFrameAt) / 1000;
    if (quiet >= state.silenceAfter) {
      raise("silence", { id: "silence-" + state.lastFrameAt, title: "ALERTA: sem sinal do despacho há " + secs(quiet),
        what: "A central não recebe o ciclo do despacho: o servidor, a rede ou o Redis podem estar fora. Pedidos podem não " +
              "chegar aos táxis, e o mapa pode estar parado.",
        todo: "confira a internet da central e avise o suporte técnico já (o /readyz do servidor diz o que falha). Enquanto " +
              "isso, atenda os passageiros por telefone e fale com os táxis pelo rádio." });
      status.textContent = "despacho sem sinal";
      status.className = "conn conn-off";
    }
  }, 1000);
  setInterval(function () {
    if (Object.keys(state.active).some(function (k) { return state.acked[k] !== state.active[k].id; })) beep();
  }, RING_EVERY_MS);

  window.TaxiAlarm = { health: health, state: state, raise: raise, clear: clear };  // raise/clear: console_sos.js
})();
