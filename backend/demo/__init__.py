"""The demo: ``seed_demo`` (permits, drivers, cabs, ranks, an auto) and ``seed_demo_rides`` (four weeks of rides and
what a first run shows on every screen). It seeds every app through their services, so it sits on top of them."""
