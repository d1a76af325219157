# Two entry points: `make run` (the terminal UI) and `make test` (the linter and the type checker,
# `lint`; the suite; then the kernel and search tests with the kernels as plain Python: `test-nojit`).
# `make run` sets up what running needs, once: .venv with the core and the terminal UI (the `tui`
# extra), then compiles the kernels (a minute and a half).  `make test` adds the other extras and
# the test tools (pytest, Playwright…): each part has its stamp, so `make test` after `make run`
# installs only those.  Each part is done again when pyproject.toml changes.  Every step says what
# it does and, at its end, how long it took; pip shows what it fetches and installs.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
RUN_STAMP := $(VENV)/.installed-run
STAMP  := $(VENV)/.installed
RUN_EXTRAS  := .[tui]
TEST_EXTRAS := .[all,test]

.PHONY: run test lint test-nojit bench clean

# $(call step,what it does,command): the command under a title line, then how long it took.
define step
	@echo "==> $(1)"; t0=$$(date +%s); $(2); rc=$$?; \
	 if [ $$rc -eq 0 ]; then echo "    done in $$(( $$(date +%s) - t0 )) s"; fi; exit $$rc
endef

$(RUN_STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "wordlebot needs Python 3.11+; set PYTHON=python3.11")'
	$(call step,creating $(VENV),test -x $(BIN)/python || $(PYTHON) -m venv $(VENV))
	$(call step,installing wordlebot and its terminal UI (numpy and Numba are most of it),$(BIN)/python -m pip install -e '$(RUN_EXTRAS)')
	@# the kernels compile here, once, rather than in the first game or test; its lines count the seconds
	@echo "==> compiling the solver's kernels, once"
	$(BIN)/wordlebot prepare --kernels
	@touch $(RUN_STAMP)

$(STAMP): $(RUN_STAMP) pyproject.toml
	$(call step,installing the other extras and the test tools (web, bot, dask, plots; pytest, Playwright…),$(BIN)/python -m pip install -e '$(TEST_EXTRAS)')
	@touch $(STAMP)

run: $(RUN_STAMP)
	$(BIN)/wordlebot tui

test: $(STAMP)
	@$(MAKE) --no-print-directory lint
	$(BIN)/python -m pytest
	@$(MAKE) --no-print-directory test-nojit

# The linter, the formatter (a check) and the type checker, as configured in pyproject.toml (mypy: strict on the library;
# see its overrides for the kernels and the shells).  The layers are checked by the suite
# (tests/test_layers.py).
lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

# The kernel and search tests with every kernel run as plain Python (NUMBA_DISABLE_JIT=1): numpy
# scalars catch what compiled code lets pass silently (integer promotion, overflow), and an
# overflow warning is an error here.  Left out, as far too slow as plain Python: the official lists
# (WORDLEBOT_DATA unset: hours), the three search tests over the 1,500-word case (~9 min between
# them) and 120 simulated hard-mode Dordle games.  The rest took 2.5 min on 2 cores (the answer
# model's fit on made-up days, test_editor.py, 30 s of it).
NOJIT_TESTS := tests/test_feedback.py tests/test_game.py tests/test_matrix.py tests/test_strategies.py \
               tests/test_simulate.py tests/test_search.py tests/test_multi.py tests/test_multi_deadlock.py \
               tests/test_editor.py
NOJIT_SLOW  := test_rank_lists_alternatives_with_exact_values or test_parallel_equals_serial \
               or test_tiny_table_gives_the_same_answers or test_charging_the_deadlocks_wins_more_hard_mode_games

test-nojit: $(STAMP)
	env -u WORDLEBOT_DATA NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest -q -W error::RuntimeWarning \
		$(NOJIT_TESTS) -k 'not ($(NOJIT_SLOW))'

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
