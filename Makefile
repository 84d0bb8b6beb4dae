# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
SIM_CABS ?= 30
# Test processes (pytest-xdist): one runs the end-to-end files (real Daphnes, browsers) while the other runs the rest
# (tests/conftest.py groups them); more would start several platforms at once on a small machine.
TEST_WORKERS ?= 2
STAMP := $(VENV)/.installed
# Explicit websocket limits (bytes): a trip's trace fits, a memory-exhaustion attempt does not.
DAPHNE_LIMITS := --websocket-max-message-size 2097152 --websocket-max-frame-size 2097152

# Debian packages the tests need: a virtual screen and Mesa for the Kivy screenshots, Chromium for the console.
SYSTEM_PACKAGES := xvfb libgl1-mesa-dri libegl1 libmtdev1 xauth chromium poppler-utils

.PHONY: run test deploy-check install system-deps law-table doors-table messages clean

# pip -qq: errors only. setuptools warns on every editable install that a folder named like a package shadows it;
# here that folder is the package itself (the flat layout is deliberate), so the warning says nothing to a newcomer.
$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -qq --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -qq -e ".[dev,driver]"
	touch $(STAMP)

install: $(STAMP)

## Installs the Debian packages the test suite needs (as root), only those missing.
system-deps:
	@missing=$$(for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "apt-get install $$missing"; \
	  apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing >/dev/null; fi

## Runs the platform on http://$(HOST):$(PORT) with Muriaé demo data (SQLite, in-memory channel layer),
## in development mode, asked for explicitly (the settings' defaults are production's).
run: export DJANGO_DEBUG = 1
run: install
	$(BIN)/python manage.py migrate --no-input
	$(BIN)/python manage.py seed_demo
	$(BIN)/python manage.py seed_demo_rides
	$(BIN)/python manage.py collectstatic --no-input --verbosity 0
	@echo
	@echo "  Plataforma de táxis de Muriaé: http://$(HOST):$(PORT)/"
	@echo "  DIMUTRAN (admin):      http://$(HOST):$(PORT)/admin/       usuário dimutran / senha dimutran123"
	@echo "  Central de despacho:   http://$(HOST):$(PORT)/central/     usuário dimutran / senha dimutran123"
	@echo "  Passageiro:            http://$(HOST):$(PORT)/passageiro/"
	@echo "  Extratos semanais:     http://$(HOST):$(PORT)/extratos/    usuário permissionario ou auxiliar / senha taxi12345"
	@echo "  Indicadores DIMUTRAN:  http://$(HOST):$(PORT)/dimutran/indicadores/  usuário dimutran / senha dimutran123"
	@echo "  Dados abertos:         http://$(HOST):$(PORT)/dados-abertos/"
	@echo "  API (OpenAPI):         http://$(HOST):$(PORT)/api/docs/"
	@if [ "$(SIM_CABS)" = "0" ]; then echo "  Simulador: desligado (SIM_CABS=0)"; \
	else echo "  Simulador: $(SIM_CABS) táxis e passageiros pelo protocolo real (log em var/simulator.log; SIM_CABS=0 desliga)"; fi
	@echo "  Agendador: prazos da lei e fechamento das semanas (log em var/scheduler.log)"
	@echo
	@mkdir -p var; trap 'kill 0' INT TERM EXIT; \
	$(BIN)/python manage.py scheduler --interval 30 > var/scheduler.log 2>&1 & \
	if [ "$(SIM_CABS)" != "0" ]; then \
	  (sleep 5 && $(BIN)/python manage.py simulate --cabs $(SIM_CABS) --rides-per-minute 4 --url ws://$(HOST):$(PORT) > var/simulator.log 2>&1) & \
	fi; \
	$(BIN)/python -m dispatch.transport.server $(DAPHNE_LIMITS) -b $(HOST) -p $(PORT) config.asgi:application

## Installs everything, lints (ruff), type-checks the Django-free core (mypy), checks the production settings (`check --deploy`) and runs the whole test suite.
test: system-deps install deploy-check
	$(BIN)/ruff check .
	$(BIN)/mypy
	MURIAE_REQUIRE_SCREENSHOTS=1 $(BIN)/pytest -q -n $(TEST_WORKERS) --dist loadgroup

## Django's deployment checklist (the security-tagged checks) against the production settings (a throwaway secret, DEBUG off).
deploy-check: install
	DJANGO_DEBUG=0 DJANGO_SECRET_KEY=deploy-check-$$(od -An -N32 -tx1 /dev/urandom | tr -d ' \n') \
	  $(BIN)/python manage.py check --deploy --tag security --fail-level WARNING

## Regenerates docs/law-table.md from the law core's docstrings and the tests' article markers.
law-table: install
	$(BIN)/python tools/law_table.py > docs/law-table.md

## Regenerates docs/doors.md: every admin model and API write with the service behind it (issue #28).
doors-table: install
	$(BIN)/python tools/doors_table.py > docs/doors.md

## Compiles the translation catalogues (needs GNU gettext's msgfmt).
messages: install
	cd backend && ../$(BIN)/django-admin compilemessages

clean:
	rm -rf $(VENV) var .pytest_cache
