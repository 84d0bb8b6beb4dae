"""KV files of the screens (a package so that setuptools ships them)."""
