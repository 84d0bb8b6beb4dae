"""Muriaé's ranks for demos: created by ``seed_demo`` (with their titulars) and, when none exist, by the simulator."""

# (name, lat, lon, category, titular permits): plausible central places, approximate coordinates.
MURIAE_RANKS = [
    ("Praça Cel. Pacheco de Medeiros", -21.1311, -42.3676, "privativo", [f"TX-{n:03d}" for n in range(1, 7)]),
    ("Rodoviária de Muriaé", -21.1283, -42.3712, "privativo", [f"TX-{n:03d}" for n in range(7, 11)]),
    ("Hospital São Paulo", -21.1352, -42.3641, "livre", []),
    ("Praça João Pinheiro", -21.1297, -42.3648, "privativo", [f"TX-{n:03d}" for n in range(11, 23)]),
]
