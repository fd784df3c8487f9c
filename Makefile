# Metnos: `make run` starts it with the embedded defaults, `make test` runs every check.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
export METNOS_PUBLIC_URL ?= http://$(HOST):$(PORT)

RUN_STAMP := $(VENV)/.run-requirements
DEV_STAMP := $(VENV)/.dev-requirements

.PHONY: run test lint types format worker clean-venv

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): requirements/base.txt requirements/browser.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements/browser.txt
	touch $@

$(DEV_STAMP): requirements/base.txt requirements/browser.txt requirements/dev.txt | $(BIN)/python
	$(BIN)/python -m pip install --quiet -r requirements/dev.txt
	touch $(RUN_STAMP) $@

## run: install, generate keys, migrate, create the first admin, serve on http://$(HOST):$(PORT)
run: $(RUN_STAMP)
	scripts/ensure-system-packages
	$(BIN)/python -m metnos_site.bootstrap
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py metnos first-admin
	@echo "metnos: serving on $(METNOS_PUBLIC_URL) (Ctrl-C stops)"
	exec $(BIN)/daphne -b $(HOST) -p $(PORT) metnos_site.asgi:application

## test: ruff, mypy, then pytest on the embedded defaults and on PostgreSQL + Redis + a real worker
test: $(DEV_STAMP)
	scripts/run-tests

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache

types: $(DEV_STAMP)
	$(BIN)/mypy .

format: $(DEV_STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

## worker: a separate Celery worker for the production shape (needs REDIS_URL)
worker: $(RUN_STAMP)
	$(BIN)/celery -A metnos_site worker -Q default,browser,batch -l INFO

clean-venv:
	rm -rf $(VENV)
