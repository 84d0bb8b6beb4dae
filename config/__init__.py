"""The project's wiring: settings, the root URLconf and the ASGI application Daphne serves.

It sits above both ``backend`` (the Django apps) and ``dispatch`` (the websocket dispatcher) and is imported by
neither: the import contract's top layer (pyproject.toml, docs/architecture.md)."""
