# The two commands of the quick start. Each installs what is missing, then
# configures, builds with every core and runs; a second run reuses the build.
#   make test              build (preset `default`) and run every test, the
#                          Python package's too (built by `make python`)
#   make figures           quick benchmark sweep and the physics studies
#                          (experiments/) -> reports/out/ (minutes):
#                          report.md and index.html with the figures
#   make figures SLURM=1   the same sweep as a Slurm job array, a row per
#                          machine (PARTITIONS="a b": each node type)
#   make figures FULL=1    the paper sweep: every size, 5 repetitions
#   make figures ONLY=name one figure redrawn from the JSON of the last run
#                          (reports/out/json), in seconds
#   make test PRESET=asan  any preset of CMakePresets.json
#   make test PEERS=all    also install the heavy peers (PCL), whose rows
#                          otherwise skip naming their package
#   make test PRESET=asan-deep   the asan build, 500 RapidCheck cases per
#                          property (long: run before resolving, not in CI)
#   make fuzz              every fuzz target for FUZZ_SECONDS (default 60)
#                          each under libFuzzer + ASan + UBSan (clang)
#   make compare BASE=REV  REV's benchmarks against the working tree's,
#                          alternating rounds (ROUNDS=7, FAMILIES="a b"),
#                          the changes beyond noise flagged (reports/compare.py)
#   make python            the Python package `adjacent` into the venv
#                          (pip install .; ADJ_CUDA=OFF skips the CUDA rows)
#   make data              fetch CGAL's meshes and point sets into .cache/cgal
#                          (make test and make figures try it, and go on
#                          without the data when no package registry answers)

PRESET ?= default
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
BUILD_DIR := build/$(PRESET)
VENV := .venv
PYTHON := $(VENV)/bin/python

FUZZ_SECONDS ?= 60

.PHONY: all test figures build deps venv python compare clean data data-if-possible fuzz

all: test

deps:
	@PRESET=$(PRESET) PEERS=$(PEERS) tools/install-deps.sh

$(BUILD_DIR)/build.ninja: CMakeLists.txt CMakePresets.json | deps
	cmake --preset $(PRESET)

build: deps $(BUILD_DIR)/build.ninja
	cmake --build --preset $(PRESET) -j$(JOBS)

data:
	@tools/fetch-cgal-data.sh

data-if-possible:
	@tools/fetch-cgal-data.sh || echo "adjacent: going on without CGAL's data: real-mesh tests skip (\`make data\` fetches it)"

# The JUnit file feeds the report page's verification matrix (one column
# per preset that ran).
test: build data-if-possible python
	mkdir -p reports/out
	ctest --preset $(PRESET) -j$(JOBS) --output-junit $(CURDIR)/reports/out/tests-$(PRESET).xml
	$(PYTHON) -m pytest -q python/tests reports/tests

$(VENV)/.installed: reports/requirements.txt | deps
	python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet -r reports/requirements.txt
	touch $@

venv: $(VENV)/.installed

# scikit-build-core builds the extension in build/python/<wheel tag>, kept
# between runs (pyproject.toml), with every core.
python: venv
	CMAKE_BUILD_PARALLEL_LEVEL=$(JOBS) $(PYTHON) -m pip install --quiet .

# SLURM=1: the sweep as a Slurm job array (PARTITIONS="a b": one array per
# node type), merged per machine (reports/slurm_sweep.py). The Python
# package's overhead and the experiment runners' studies (each
# experiments/<name>_studies writes reports/out/json/<name>_studies.json)
# run here, on this machine, either way.
# ONLY=<figure>: that figure (and its manifest entry) redrawn from the JSON
# already under reports/out/json, nothing measured again.
ifdef ONLY
figures: venv
	$(PYTHON) reports/figures.py --json reports/out/json \
	  --data reports/data --out reports/out --only $(ONLY)
else
figures: build python data-if-possible
	$(if $(SLURM),$(PYTHON) reports/slurm_sweep.py --build-dir $(BUILD_DIR) \
	  --out reports/out $(if $(FULL),--full) \
	  $(if $(PARTITIONS),--partitions $(PARTITIONS)),$(PYTHON) \
	  reports/run_benchmarks.py --build-dir $(BUILD_DIR) \
	  --out reports/out/json $(if $(FULL),--full))
	for runner in $(BUILD_DIR)/experiments/*_studies; do \
	  $$runner --sweep $(if $(FULL),full,quick) \
	    --out reports/out/json/$$(basename $$runner).json || exit 1; \
	done
	$(PYTHON) python/benchmarks/call_overhead.py \
	  --out reports/out/json/python_overhead.json
	$(PYTHON) python/benchmarks/peers.py \
	  --out reports/out/json/python_peers.json
	$(PYTHON) reports/figures.py --json reports/out/json \
	  --data reports/data --out reports/out
	@echo "adjacent: the report is reports/out/index.html (and report.md), its figures beside it in reports/out/"
endif

ROUNDS ?= 7
compare: build venv
	@test -n "$(BASE)" || { echo "make compare BASE=<revision> [ROUNDS=7] [FAMILIES=\"prefix_sum ...\"]"; exit 2; }
	JOBS=$(JOBS) PYTHON=$(PYTHON) tools/compare-revisions.sh $(BASE) $(ROUNDS) $(FAMILIES)

fuzz: data-if-possible
	@PRESET=fuzz tools/install-deps.sh
	cmake --preset fuzz
	cmake --build --preset fuzz -j$(JOBS)
	tools/fuzz.sh $(FUZZ_SECONDS)

clean:
	rm -rf build reports/out
