# Two entry points: `make run` (the terminal UI) and `make test` (the linter and the type checker,
# `lint`; the suite; then the kernel and search tests with the kernels as plain Python: `test-nojit`).
# `make run` sets up what running needs, once: .venv with the core and the terminal UI (the `tui`
# extra), then compiles the kernels (a few minutes).  `make test` adds the other extras and
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

# The suite on TEST_WORKERS processes (pytest-xdist; a worker takes the next test when it is
# free): most tests search on one thread, so one process left a core idle.  2026-12-02 on this
# 2-core machine: the compiled suite 26 min 43 s in one process, 12 min 19 s in two.  Three were
# faster (two keep the cores 1.6 busy while a worker waits on a browser, a terminal UI, a
# subprocess; three 1.8: 321 and 279 s against 395 and 324 s, alternated) but runs on three
# failed now and then: one of five, then one of six (test_tui's helper awaiting a suggestion
# search that its successor cancelled; the helper mended 2026-12-02).  Since the mend three passed
# four runs in a row (2026-12-03: 325-400 s): three.  The plain-Python run is CPU-bound (1.94 of 2).
TEST_WORKERS ?= 3
XDIST := -n $(TEST_WORKERS) --dist worksteal

test: $(STAMP)
	@$(MAKE) --no-print-directory lint
	$(BIN)/python -m pytest $(XDIST)
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
# them), 120 simulated hard-mode Dordle games, and (2026-11-28: the run had grown to 24 min on this
# 2-core machine, 45 % of it in four tests) the tests of how threads and parts stop and share out
# work, and the wide brute-force cases whose small ("hand") cases stay: the multi-board exact value
# (wide: 301 s as plain Python), the parts that stop at the first one that cannot be won (118 s,
# 126 s shared out), the warm-up's refusal of a real-sized lexicon (112 s), the policy's endgame
# (wide: 64 s), the perfect-split check's trees (56 s) and the letter classes' (2026-11-29: three
# searches of the 1,500-word case, twice each), and the near-optimal tightening's (nine searches of
# it), and hard and normal mode's own tightening thresholds' (six); (2026-11-30) the root guesses'
# anagram runs (four searches of it and two rankings: 100 s) and the doomed parts' rounds ending
# where nothing wins (23 s), whose climbing cases stay; (2026-12-01) a batch's proven bounds
# checked guess by guess (100 searches of the 1,500-word case), the rounds' share rule (three
# searches of it and their trees) and the guesses they keep proven (two).  Every one of them runs
# compiled in the suite.  The rest took 14 min on 2 cores (a fresh clone, 2026-11-28).
NOJIT_TESTS := tests/test_feedback.py tests/test_game.py tests/test_matrix.py tests/test_strategies.py \
               tests/test_simulate.py tests/test_search.py tests/test_multi.py tests/test_multi_deadlock.py \
               tests/test_editor.py
NOJIT_SLOW  := test_rank_lists_alternatives_with_exact_values or test_parallel_equals_serial \
               or test_tiny_table_gives_the_same_answers or test_charging_the_deadlocks_wins_more_hard_mode_games \
               or (test_the_exact_value_of_the_search_without_limits_is_the_brute_force_optimum and wide) \
               or test_parts_stop_at_the_first_one_that_cannot_be_won or test_shared_out_parts_stop_when_one_cannot_be_won \
               or test_warm_up_refuses_a_real_sized_lexicon \
               or (test_with_the_endgame_search_the_policy_plays_the_exact_optimum and wide-2) \
               or test_perfect_split_check_gives_the_same_trees or test_letter_classes_give_the_same_trees \
               or test_near_optimal_tightening_and_kept_candidates_give_the_same_trees \
               or test_hard_and_normal_modes_tighten_parts_from_their_own_sizes \
               or test_anagram_runs_keep_the_serial_choice_and_values \
               or test_doomed_parts_that_cannot_be_won_end_the_rounds \
               or test_a_batch_says_what_its_search_proved_of_each_guess \
               or test_a_dear_round_ends_the_climb_only_if_it_proved_enough_guesses_unable_to_win \
               or test_a_guess_a_round_proved_unable_to_win_is_not_searched_again

test-nojit: $(STAMP)
	env -u WORDLEBOT_DATA NUMBA_DISABLE_JIT=1 $(BIN)/python -m pytest -q $(XDIST) -W error::RuntimeWarning \
		$(NOJIT_TESTS) -k 'not ($(NOJIT_SLOW))'

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
