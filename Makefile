PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SUDO = $(shell [ "$$(id -u)" = 0 ] || echo sudo)
## Python keeps what it compiles (``__pycache__``, ignored by git) wherever this runs, even in a shell that
## asks it not to: the tests start a few hundred processes (servers, forks, the command line), and each
## would compile again every module it imports.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: play play-setup test check lint bytecode proto bench loadclient espeak arena sim clean web-shots i18n native chromium postgresql packages

## The venv with the tools (pyproject's dev extra). The package's parts live in
## folders of their own (pyproject.toml maps them), so setuptools installs it in development with an import
## finder, and says so once in a notice that asks nothing of anyone (tools/setup_venv.py silences it).
$(STAMP): pyproject.toml
	@$(PY) -m tools.setup_venv dev --venv $(VENV)

## The hot path compiled with mypyc (the truco engine, betting, Cacho's rules, the meld search and the
## rummy playouts, the server's wire and fan-out), where
## a C compiler is (cardtui/native.py says how it is used, and lists what it compiles: COMPILED, the one list);
## rebuilt when one of the sources it depends on changes (tools/native.py compares their digests with the
## build's, so make lists none of them; a build of the same sources made before, by any clone, is taken from
## ~/.cache/cardtui/native instead), in the foreground here (make test, bench), in the background for make
## play. Without a compiler, or with CARDTUI_PURE=1, everything runs as plain Python.
native: $(STAMP)
	@$(BIN)/python -m tools.native

## Set up, start a server with bots that friends on the LAN may join (terminal or browser) and
## open the client at its lobby; it prints the page browsers join at. `make play HOST=127.0.0.1`
## keeps it to this machine; `PORT=` and `WEB_PORT=` choose the server's and the page's ports.
## It waits for nothing it does not need: the venv gets only what playing needs (no tools, no Debian
## packages), and the room starts on plain Python while the compiled build is made in the background, at
## low priority, for the next start (its log: .venv/cardtui-native/build.log). Each step says what it does.
HOST ?= 0.0.0.0
PORT ?= 50051
WEB_PORT ?= 8080
play: play-setup
	@echo "make: starting the room: the server, its bots, the page for browsers, then your client"
	@$(BIN)/cardtui play --host $(HOST) --port $(PORT) --web-port $(WEB_PORT)
play-setup:
	@$(PY) -m tools.setup_venv play --venv $(VENV)
	@$(BIN)/python -m tools.native --background

## Set up and run every check: lint, types, import contracts (both read the package's layout from
## pyproject.toml: tools/typecheck.py, tools/imports.py), and the test suite (five workers: most tests wait
## on real servers, bots and timers more than they compute, so five keep two cores busy). The browser
## page is tested in a real browser: Debian's Chromium, installed if missing (the test is skipped, and
## says so, only where it cannot be). The store's PostgreSQL backend is tested against a real server:
## Debian's PostgreSQL, installed if missing; the tests start a cluster of their own (tests/postgres.py)
## and run on one worker of the five (the `postgresql` marker; skipped, and saying so, where none runs).
## Before the tests: the compiled build, and beside it the package's bytecode compiled once, and the tests' too,
## as pytest rewrites their asserts (else the five workers would each compile it all at once: ten seconds of CPU
## each for the tests alone). The lint runs beside the tests, not before them: the tests need the build and the
## bytecode, not the lint, and their first minutes leave a core half idle (the longest tests start first, and
## mostly wait on servers and timers), which the lint's CPU fills (from a few seconds with mypy's cache to some
## twenty without) at a lower priority than the tests'. Its output is kept and printed whole after pytest's, and
## make test fails if either fails, saying which.
## `ARGS=` goes to pytest after the same setup: `make test ARGS="-m postgresql"` runs those tests alone.
test: $(STAMP) chromium postgresql
	@$(MAKE) --no-print-directory -j2 native bytecode
	@lint_log=$$(mktemp); lint=; \
	trap '[ -z "$$lint" ] || kill $$lint 2>/dev/null; rm -f "$$lint_log"' EXIT; trap 'exit 130' INT TERM; \
	nice -n 10 $(MAKE) --no-print-directory lint >"$$lint_log" 2>&1 & lint=$$!; \
	echo "make: make lint runs beside the tests (its output after theirs)"; \
	echo "$(BIN)/pytest -n 5 $(ARGS)"; \
	$(BIN)/pytest -n 5 $(ARGS); tests=$$?; \
	wait $$lint; linted=$$?; lint=; \
	echo; echo "make: make lint, run beside the tests:"; cat "$$lint_log"; echo; \
	if [ $$linted -eq 0 ] && [ $$tests -eq 0 ]; then echo "make: the tests and the lint passed"; exit 0; fi; \
	[ $$tests -eq 0 ] || echo "make: the tests failed (pytest exit $$tests; its report is above the lint's)"; \
	[ $$linted -eq 0 ] || echo "make: the lint failed (its output is just above)"; \
	exit 1

## The quick check before a commit: lint, types and import contracts, then the tests that need neither
## root nor minutes (not the `slow`, `browser` or `postgresql` markers: tests/conftest.py applies them).
## Installs nothing from Debian and builds nothing: plain Python where the compiled build is missing or
## stale, the same game byte for byte. Two workers; `ARGS=` goes to pytest.
check: $(STAMP) lint
	$(BIN)/pytest -n 2 -m "not slow and not browser and not postgresql" $(ARGS)

## What the tests need from Debian and this machine lacks, fetched with one look at the archive.
MISSING = $(shell command -v chromium >/dev/null || echo chromium) \
	$(shell ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null || echo postgresql)
packages:
	@if [ -n "$(strip $(MISSING))" ]; then \
		$(SUDO) sh -c 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y $(strip $(MISSING))' \
		|| echo "make: no $(strip $(MISSING)) could be installed: the tests that need it are skipped, and say so"; \
	fi
chromium postgresql: packages

## The tests' first collection rewrites their asserts and keeps the bytecode: some ten seconds of CPU, on one core
## unless split, so it is two collections at once, the client's tests and the rest (some five seconds each).
## Its errors are left to the run itself, which says what fails.
bytecode: $(STAMP)
	@$(BIN)/python -m compileall -q cardtui engine server client tools bench
	@$(BIN)/pytest --collect-only -q -p no:cacheprovider tests/client >/dev/null 2>&1 & \
	$(BIN)/pytest --collect-only -q -p no:cacheprovider tests --ignore=tests/client >/dev/null 2>&1; wait; true

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m tools.typecheck
	$(BIN)/python -m tools.imports

## Regenerate the gRPC stubs from proto/.
proto: $(STAMP)
	$(BIN)/python -m grpc_tools.protoc -Iproto --python_out=. --grpc_python_out=. \
		--plugin=protoc-gen-mypy=$(BIN)/protoc-gen-mypy --mypy_out=. \
		--plugin=protoc-gen-mypy_grpc=$(BIN)/protoc-gen-mypy_grpc --mypy_grpc_out=. proto/cardtui/v1/*.proto

## The message catalogs, with Babel: extract every message of the code (cardtui/locale/cardtui.pot),
## bring pt_BR and es up to it (new messages come in untranslated), compile the .mo files that ship
## in the package. `python -m tools.catalogs check` says what a catalog lacks (the tests ask it too).
i18n: $(STAMP)
	$(BIN)/python -m tools.catalogs all

## Benchmarks: ratios against baselines measured in the same run (`make bench ARGS="--only bots"`).
bench: native loadclient espeak
	$(BIN)/python -m bench $(ARGS)

## The speech bench's voice (bench/speech.py): Debian's espeak-ng, installed where missing. make test never
## needs it; where it cannot be installed, the speech bench says so and measures nothing.
espeak:
	-@command -v espeak-ng >/dev/null || $(SUDO) sh -c 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends espeak-ng' \
		|| echo "make: espeak-ng could not be installed: the speech bench measures nothing"

## The load bench's clients in C++ (bench/loadclient.cc): the Python clients cost the machine as much
## as the server they measure. Built with gRPC's C++ library from Debian (libgrpc++-dev,
## protobuf-compiler-grpc; installed if missing), stubs from the same .proto files; where it cannot be
## built, the bench runs its Python clients and says so.
LOADCLIENT := $(VENV)/loadclient/loadclient
LC_GEN := $(VENV)/loadclient/gen
LC_MISSING = $(shell command -v g++ >/dev/null || echo g++) \
	$(shell command -v grpc_cpp_plugin >/dev/null || echo protobuf-compiler-grpc) \
	$(shell pkg-config --exists grpc++ protobuf 2>/dev/null || echo libgrpc++-dev libprotobuf-dev pkg-config)
$(LOADCLIENT): bench/loadclient.cc $(wildcard proto/cardtui/v1/*.proto) | $(STAMP)
	@if [ -n "$(strip $(LC_MISSING))" ]; then \
		$(SUDO) sh -c 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(strip $(LC_MISSING))' \
		|| echo "make: no $(strip $(LC_MISSING)) could be installed: the load bench runs its Python clients"; \
	fi
	rm -rf $(LC_GEN) && mkdir -p $(LC_GEN)
	-protoc -Iproto --cpp_out=$(LC_GEN) --grpc_out=$(LC_GEN) --plugin=protoc-gen-grpc=$$(command -v grpc_cpp_plugin) \
		proto/cardtui/v1/*.proto \
	&& ls $(LC_GEN)/cardtui/v1/*.cc bench/loadclient.cc | xargs -P $$(nproc) -I{} sh -c \
		'g++ -O2 -std=c++17 -I$(LC_GEN) $$(pkg-config --cflags grpc++ protobuf) -c {} -o $(LC_GEN)/$$(basename {}).o' \
	&& g++ $(LC_GEN)/*.o -o $@ $$(pkg-config --libs grpc++ protobuf) -lpthread
loadclient:
	-@$(MAKE) --no-print-directory $(LOADCLIENT)

## Two players on duplicate deals, e.g. `make arena ARGS="truco_paulista hard today --pairs 200"`.
arena: $(STAMP)
	$(BIN)/cardtui arena $(ARGS)

## A real browser (Debian's Chromium, headless; installed if missing) joins as a guest:
## screenshots of the lobby and of a table with a hand dealt, phone and laptop sized, in shots/.
web-shots: $(STAMP)
	command -v chromium >/dev/null || $(SUDO) sh -c 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium'
	$(BIN)/python -m tools.web_shots --out shots

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
