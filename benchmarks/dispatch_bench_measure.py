"""The measurement of one scenario of benchmarks/dispatch_bench.py: the clients' processes, the three windows,
the restart under load and the per-hop timings of the trace."""

from __future__ import annotations

import time
from pathlib import Path

from benchmarks.dispatch_bench_fleet import suspend_permits_of
from benchmarks.dispatch_bench_load import client_process, pct
from benchmarks.dispatch_bench_servers import Servers, cpu_seconds, db_backends_cpu, machine_cpu, redis_pid

REQUEST_WARMUP_S = 5.0  # requests before the measured window


def measure(name, servers: Servers, tokens, pax, args, echo: bool, redis_url: str | None, db_name: str | None = None,
            hops_file: Path | None = None, watch=None):
    """Run the load from ``args.client_procs`` cab processes and one passenger process: the connection of every cab,
    three windows, then (``--restart``) a restart of the first server under that load. ``watch``
    (dispatch_bench_scale.Watch): begun and ended around the requests window, its figures added to the result."""
    import multiprocessing as mp

    ctx = mp.get_context("spawn")
    go_requests, stop, report = ctx.Event(), ctx.Event(), ctx.Queue()
    k = max(1, args.client_procs)
    shares = [(i * len(tokens) // k, tokens[i * len(tokens) // k:(i + 1) * len(tokens) // k]) for i in range(k)]
    counters = [ctx.Value("q", 0, lock=False) for _ in shares]
    # per cab process (each adds to its own: no lost update): cabs back after the restart, cabs refused coming back
    backs, refusals = [ctx.Value("q", 0, lock=False) for _ in shares], [ctx.Value("q", 0, lock=False) for _ in shares]
    rate = ctx.Value("d", 1.0, lock=False)
    avoid = tuple(servers.cores)
    # Cabs of the first server whose permit is suspended while it is down: refused when they come back, never offered.
    suspended = frozenset() if echo or not args.restart else frozenset(range(0, len(tokens), len(servers.ports))[:args.suspend])
    procs = [ctx.Process(target=client_process, args=("cabs", servers.ports, share, first, args, echo, counter, rate, go_requests, stop, report,
                                                      avoid, back, refused, suspended))
             for (first, share), counter, back, refused in zip(shares, counters, backs, refusals)]
    procs.append(ctx.Process(target=client_process, args=("passengers", servers.ports, pax, 0, args, echo, ctx.Value("q", 0, lock=False),
                                                           rate, go_requests, stop, report, avoid)))
    positions = lambda: sum(c.value for c in counters)  # noqa: E731
    clients_cpu = lambda: sum(cpu_seconds(p.pid) for p in procs)  # noqa: E731
    restart = None
    t0, cpu_before = time.perf_counter(), servers.cpu()
    for p in procs:
        p.start()
    try:
        connected = [report.get(timeout=3600) for _ in procs]
        connect_s = time.perf_counter() - t0
        connect_cpu = servers.cpu() - cpu_before
        cabs = sum(c[1] for c in connected)
        failed = sum(c[2] for c in connected)
        print(f"  [{name}] {cabs} cabs connected in {connect_s:.1f} s by {k} client processes ({failed} failed), "
              f"server CPU {connect_cpu / max(1, cabs) * 1000:.2f} ms a connection", flush=True)
        time.sleep(max(args.tick * 2, 5))  # warm-up: every cab has sent positions, the flush loop runs
        # window 1: positions only -> server CPU per position message
        rpid = redis_pid(redis_url) if redis_url else None
        d0 = db_backends_cpu(db_name)
        cpu0, rcpu0, pos0, w0 = servers.cpu(), cpu_seconds(rpid) if rpid else 0.0, positions(), time.perf_counter()
        time.sleep(args.duration)
        cpu1, rcpu1, pos1, w1 = servers.cpu(), cpu_seconds(rpid) if rpid else 0.0, positions(), time.perf_counter()
        d1 = db_backends_cpu(db_name)
        # surge window: positions only at --surge times the rate -> the marginal CPU per position and the
        # fixed CPU of the processes, hence their capacity when saturated (see capacity())
        rate.value = args.surge
        time.sleep(args.tick)
        s0, sp0, sw0 = servers.cpu(), positions(), time.perf_counter()
        time.sleep(args.duration)
        s1, sp1, sw1 = servers.cpu(), positions(), time.perf_counter()
        rate.value = 1.0
        time.sleep(args.tick)
        # window 2: positions + the stream of ride requests -> request->offer latency, after a few requests
        # of warm-up (each process's first offers open the offer threads' database connections)
        go_requests.set()
        time.sleep(REQUEST_WARMUP_S)
        c2, p2, t2 = servers.cpu(), positions(), time.perf_counter()
        m2, l2 = machine_cpu(), clients_cpu()
        if watch:
            watch.begin()
        time.sleep(args.requests_window or args.duration)
        c3, p3, t3 = servers.cpu(), positions(), time.perf_counter()
        m3, l3 = machine_cpu(), clients_cpu()
        watched = watch.end() if watch else {}
        if args.restart:
            restart = restart_under_load(servers, args.down, sum(c[5] for c in connected), backs, refusals,
                                         [tokens[i] for i in sorted(suspended)])
            print(f"  [{name}] restart: {restart['back']} cabs back {restart['back_s']:.1f} s after the server listened again "
                  f"({restart['down_s']:.1f} s down), {restart['refused']} refused", flush=True)
            time.sleep(REQUEST_WARMUP_S)  # requests go on: offers reach the cabs that came back (and not the refused)
        stop.set()
        results = [report.get(timeout=120) for _ in procs]
    finally:
        stop.set()
        for p in procs:
            p.join(timeout=30)
            if p.is_alive():
                p.kill()
    offers, requests, echo_latency, rtts, completed, escalated, errors = {}, {}, [], [], 0, 0, {}
    before_snapshot = to_suspended = 0
    for _tag, _role, o, r, e, rt, done, esc, errs, early, wrong in results:
        before_snapshot += early
        to_suspended += wrong
        offers.update(o)
        requests.update(r)
        echo_latency += e
        rtts += rt
        completed += done
        escalated += esc
        for key, n in errs.items():
            errors[key] = errors.get(key, 0) + n
    lat = [d for t, d in echo_latency if t2 <= t < t3] if echo else [offers[r] - t for r, t in requests.items() if r in offers and t2 <= t < t3]
    if restart:
        restart.update(suspended=len(suspended), before_snapshot=before_snapshot, to_suspended=to_suspended,
                       offers=sum(1 for at in offers.values() if at >= restart["stopped"]))
    quiet_rtts = [rtt for at, rtt in rtts if w0 <= at < w1]
    busy_rtts = [rtt for at, rtt in rtts if t2 <= at < t3]
    window = w1 - w0
    msgs = pos1 - pos0
    return {
        "name": name, "processes": len(servers.processes), "cabs": cabs, "connect_s": connect_s, "restart": restart,
        "connect_cpu_ms": connect_cpu / max(1, cabs) * 1000,
        "pos_per_s": msgs / window, "cpu_util": (cpu1 - cpu0) / window, "cpu_per_pos_us": (cpu1 - cpu0) / max(1, msgs) * 1e6,
        "redis_cpu_util": (rcpu1 - rcpu0) / window if rpid else None,
        "surge_pos_per_s": (sp1 - sp0) / (sw1 - sw0), "surge_cpu_util": (s1 - s0) / (sw1 - sw0),
        "db_cpu_per_pos_us": (d1 - d0) / max(1, msgs) * 1e6 if db_name else None,
        "requests": len(lat), "p50_ms": pct(lat, 50) * 1000, "p90_ms": pct(lat, 90) * 1000, "p99_ms": pct(lat, 99) * 1000,
        "rtt_p50_ms": pct(busy_rtts, 50) * 1000, "rtt_p99_ms": pct(busy_rtts, 99) * 1000,
        "quiet_rtt_p99_ms": pct(quiet_rtts, 99) * 1000, "cpu_util_rides": (c3 - c2) / (t3 - t2), "pos_per_s_rides": (p3 - p2) / (t3 - t2),
        "completed": completed, "escalated": escalated, "errors": errors,
        # the requests window: how busy the machine's cores were, and the share the load's clients took of it
        "machine_busy": (m3[0] - m2[0]) / (m3[1] - m2[1]), "clients_cpu_util": (l3 - l2) / (t3 - t2),
        "hops": hop_times(hops_file, requests, offers, t2, t3) if hops_file and not echo else [],
        **watched,
    }


def restart_under_load(servers: Servers, down: float, cabs: int, backs, refusals, suspend: list[str]) -> dict:
    """Restart the first server (SIGTERM, then a new process on its port) while positions and requests go on; suspend
    the permits of the ``suspend`` tokens while it is down (DIMUTRAN acting during the outage). Its ``cabs`` reconnect
    as the driver app does; returns when every one is back or refused (or after ten minutes)."""
    from django.db import connections

    def suspend_permits():
        if suspend:
            suspend_permits_of(suspend)
            connections.close_all()

    stopped, listening = servers.restart(0, down, suspend_permits)
    cpu_listening = servers.cpu()
    back = lambda: sum(v.value for v in backs)  # noqa: E731
    refused = lambda: sum(v.value for v in refusals)  # noqa: E731
    deadline = listening + 600
    while back() + refused() < cabs and time.perf_counter() < deadline:
        time.sleep(0.05)
    done = time.perf_counter()
    return {"stopped": stopped, "down_s": listening - stopped, "back_s": done - listening, "back": back(),
            "refused": refused(), "expected": cabs, "cpu_ms": (servers.cpu() - cpu_listening) / max(1, back()) * 1000}


HOPS = (("send", "consumer", "passenger client sends -> consumer handles the frame"),
        ("consumer", "worker", "-> the offering worker starts"),
        ("worker", "chosen", "the worker chooses and writes (request_ride)"),
        ("chosen", "loop", "-> result back on the event loop"),
        ("loop", "outbox", "-> the outbox sends the offer"),
        ("outbox", "relay", "-> the cab's consumer relays it"),
        ("relay", "sent", "-> sent"),
        ("sent", "read", "-> the cab's client reads it"))


def hop_times(path: Path, requests: dict, offers: dict, since: float, until: float) -> list[tuple[str, float, float, float, int]]:
    """Per hop of the measured requests (sent between ``since`` and ``until``): label, p50, p90, p99 (ms), count;
    from the server's marks (dispatch/ops/latency_trace.py) and the clients' send and read times."""
    marks: dict = {}
    if path.exists():
        for line in path.read_text().splitlines():
            ride, hop, at = line.split()
            marks.setdefault(ride, {})[hop] = float(at)
    for ride, t in requests.items():
        if since <= t < until and ride in offers:
            marks.setdefault(str(ride), {}).update(send=t, read=offers[ride])
    rows = []
    for start, end, label in HOPS:
        spans = [m[end] - m[start] for ride, m in marks.items() if start in m and end in m and since <= m.get("send", 0) < until]
        rows.append((label, pct(spans, 50) * 1000, pct(spans, 90) * 1000, pct(spans, 99) * 1000, len(spans)))
    return rows
