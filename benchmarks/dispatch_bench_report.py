"""The printed report of benchmarks/dispatch_bench.py: the table of the scenarios, the capacity estimates, the
restart and the search."""

from __future__ import annotations

import os

SATURATED = 0.9  # a process at this share of its core or more in the surge window is taken as saturated


def linear_capacity(r) -> float:
    """Positions/s at 100% CPU in every process if each position cost the CPU per position measured."""
    return r["processes"] * 1e6 / r["cpu_per_pos_us"]


def capacity(r) -> tuple[float, float, float]:
    """Fixed CPU (cores), marginal CPU per position (s) and positions/s when every process is at 100%.

    From the two positions-only windows (normal and surge rate): CPU = fixed + marginal x rate. The
    processes share the load evenly, so they saturate together at (processes - fixed) / marginal. The
    linear estimate (processes / CPU per position) charges the fixed work to every position instead.
    """
    marginal = (r["surge_cpu_util"] - r["cpu_util"]) / max(1e-9, r["surge_pos_per_s"] - r["pos_per_s"])
    fixed = r["cpu_util"] - marginal * r["pos_per_s"]
    return fixed, marginal, (r["processes"] - fixed) / marginal


# Complexity kept: prints one optional section per measurement the run made.
def print_table(rows, args):  # noqa: C901
    head = ("scenario", "proc", "cabs", "conn s", "pos/s", "srv CPU", "CPU/pos us", "+DB CPU/pos us", "ping p99 ms", "req", "offer p50 ms", "offer p90 ms",
            "offer p99 ms", "ping p99 ms (req.)", "srv CPU (req.)", "done", "escal.")
    lines = [head]
    for r in rows:
        cpu = f"{r['cpu_util'] * 100:.0f}%" + (f" +redis {r['redis_cpu_util'] * 100:.0f}%" if r["redis_cpu_util"] is not None else "")
        lines.append((r["name"], r["processes"], r["cabs"], f"{r['connect_s']:.0f}", f"{r['pos_per_s']:.0f}", cpu,
                      f"{r['cpu_per_pos_us']:.0f}", "-" if r["db_cpu_per_pos_us"] is None else f"{r['db_cpu_per_pos_us']:.0f}",
                      f"{r['quiet_rtt_p99_ms']:.1f}", r["requests"], f"{r['p50_ms']:.1f}", f"{r['p90_ms']:.1f}",
                      f"{r['p99_ms']:.1f}", f"{r['rtt_p99_ms']:.1f}", f"{r['cpu_util_rides'] * 100:.0f}%", r["completed"],
                      r["escalated"]))
    widths = [max(len(str(line[i])) for line in lines) for i in range(len(head))]
    out = []
    for k, line in enumerate(lines):
        out.append("| " + " | ".join(str(v).ljust(w) for v, w in zip(line, widths)) + " |")
        if k == 0:
            out.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    print("\n".join(out))
    by = {r["name"]: r for r in rows}
    echo = by.get("echo")
    print()
    for r in rows:
        if r["name"] == "echo":
            continue
        notes = []
        if echo:
            notes.append(f"CPU/position = {r['cpu_per_pos_us'] / echo['cpu_per_pos_us']:.2f}x echo")
            notes.append(f"connecting {r['connect_s'] / echo['connect_s']:.2f}x echo's time "
                         f"({r['connect_cpu_ms']:.2f} against {echo['connect_cpu_ms']:.2f} ms of server CPU a connection)")
        fixed, marginal, saturated = capacity(r)
        notes.append(f"linear capacity at 100% CPU ~ {linear_capacity(r):.0f} positions/s; "
                     f"fixed {fixed * 100:.1f}% + {marginal * 1e6:.0f} us/position (x{args.surge:g} surge) -> "
                     f"saturated ~ {saturated:.0f} positions/s (~{saturated * args.tick:.0f} cabs)")
        per_process = r["surge_cpu_util"] / r["processes"]
        measured = "measured: saturated" if per_process >= SATURATED else "not saturated"
        notes.append(f"surge window {r['surge_pos_per_s']:.0f} positions/s at {per_process * 100:.0f}% of each process's core "
                     f"({measured})")
        print(f"  {r['name']}: " + "; ".join(notes))
    for r in rows:
        if r["restart"]:
            print_restart(r, echo)
    print()
    for r in rows:
        print(f"  [{r['name']}] requests window: the machine's {os.cpu_count()} cores {r['machine_busy']:.0%} busy; "
              f"the load's clients {r['clients_cpu_util']:.0%} of a core, the servers {r['cpu_util_rides']:.0%}")
    for r in rows:
        if r["hops"]:
            print(f"\n  [{r['name']}] where a request's time goes (ms):")
            print(f"    {'hop':<52} {'p50':>7} {'p90':>7} {'p99':>7} {'n':>5}")
            for label, p50, p90, p99, n in r["hops"]:
                print(f"    {label:<52} {p50:7.1f} {p90:7.1f} {p99:7.1f} {n:5d}")
    if "memory" in by:
        for other in ("redis", "pubsub"):
            if other in by:
                print(f"  {other} (2 processes) / memory (1 process): saturated capacity "
                      f"{capacity(by[other])[2] / capacity(by['memory'])[2]:.2f}x, "
                      f"linear {linear_capacity(by[other]) / linear_capacity(by['memory']):.2f}x, "
                      f"surge windows {by[other]['surge_pos_per_s'] / by['memory']['surge_pos_per_s']:.2f}x the positions "
                      f"for {by[other]['surge_cpu_util'] / max(1e-9, by['memory']['surge_cpu_util']):.2f}x the CPU")
                if args.pin == "one":
                    one, pair = by["memory"], by[other]
                    both = min(one["surge_cpu_util"], pair["surge_cpu_util"]) >= SATURATED
                    print(f"  one core ({'both measured saturated' if both else 'NOT both saturated: no ratio'}): memory "
                          f"{one['surge_pos_per_s']:.0f} positions/s at {one['surge_cpu_util'] * 100:.0f}%, {other} pair "
                          f"{pair['surge_pos_per_s']:.0f} positions/s at {pair['surge_cpu_util'] * 100:.0f}%"
                          + (f"; two processes with a core each >= 2 x {pair['surge_pos_per_s']:.0f} = "
                             f"{2 * pair['surge_pos_per_s'] / one['surge_pos_per_s']:.2f}x one process (a lower bound: each "
                             f"then pays only its own fixed work)" if both else ""))
        if "naive" in by:
            print(f"  naive / memory: CPU/position {by['naive']['cpu_per_pos_us'] / by['memory']['cpu_per_pos_us']:.2f}x, "
                  f"offer p99 {by['naive']['p99_ms'] / by['memory']['p99_ms']:.2f}x")


def print_restart(r: dict, echo: dict | None) -> None:
    """A restart under load: how long its cabs took to come back, and whether any got an offer before the server
    knew it may work (the suspended ones are refused; no connection hears an offer before its snapshot)."""
    x = r["restart"]
    line = (f"  [{r['name']}] restart of a loaded process: {x['back']} of {x['expected']} cabs back {x['back_s']:.1f} s after it "
            f"listened again ({x['down_s']:.1f} s down; {x['cpu_ms']:.2f} ms of server CPU a connection)")
    if echo and echo["restart"] and r is not echo and x["expected"] == echo["restart"]["expected"]:  # as many cabs
        line += f", {x['back_s'] / echo['restart']['back_s']:.2f}x echo's {echo['restart']['back_s']:.1f} s"
    print(line)
    if r is not echo:
        print(f"    compliance before offers: {x['suspended']} permits suspended while it was down, {x['refused']} refused coming "
              f"back, {x['to_suspended']} offers to them; {x['before_snapshot']} offers before a connection's snapshot; "
              f"{x['offers']} offers made during and after the restart")
