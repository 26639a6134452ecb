# SPDX-License-Identifier: MIT
# Entry points: `make demo` runs the default scene, `make test` the test suite. Both install
# the Debian packages they need and build first. `make sanitize` runs the suite again under
# ASan + UBSan and `make fuzz-smoke` the fuzzers over their saved corpus (docs/reliability.md).
BUILD ?= build
JOBS ?= 2
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo -DISOCHOR_WERROR=ON

SANITIZE_BUILD ?= build-sanitize
FUZZ_SECONDS ?= 3

.PHONY: all deps build demo test bench results install clean sanitize fuzz-smoke

all: build

deps:
	@./tools/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(BUILD)/isochor run scenes/demo.json --out out/demo --stats out/demo/stats.json
	@for f in 20 40 120; do $(BUILD)/isochor render out/demo/demo.pvd --frame $$f --field J --scene scenes/demo.json --out out/demo/png || exit 1; done

test: build
	cd $(BUILD) && ctest -j $(JOBS) --output-on-failure

# Headers, libraries, the tool, pkg-config files and the CMake package under PREFIX.
PREFIX ?= /usr/local
install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

bench: build
	$(BUILD)/bench_xpbd_core

# Reruns the experiments behind every generated table of docs/results.md and
# docs/performance.md, writes their figures to bench/results/*.tsv and refills the tables
# (17 minutes on 2 cores; RESULTS_FLAGS=--quick reruns the quick ones in about a minute,
# --check compares instead of writing).
RESULTS_FLAGS ?=
results: build
	python3 tools/results/run.py --build $(BUILD) $(RESULTS_FLAGS)

# ASan + UBSan build of everything: clang with the libFuzzer harnesses where clang can link
# them, gcc otherwise. Its suite skips only the tests labelled `long` (CMakeLists.txt).
sanitize: deps
	@if tests/fuzz/have_libfuzzer.sh; then \
	  cmake -S . -B $(SANITIZE_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DISOCHOR_WERROR=ON \
	    -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DISOCHOR_FUZZ=ON >/dev/null; \
	else \
	  echo "sanitize: clang with libFuzzer not found; gcc ASan + UBSan build, no fuzzers"; \
	  cmake -S . -B $(SANITIZE_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DISOCHOR_WERROR=ON \
	    -DISOCHOR_SANITIZE=ON >/dev/null; \
	fi
	@cmake --build $(SANITIZE_BUILD) -j $(JOBS)
	cd $(SANITIZE_BUILD) && ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 ctest -j $(JOBS) -LE long --output-on-failure

# A few seconds of every fuzzer from its saved corpus (needs the clang build of `sanitize`).
fuzz-smoke: sanitize
	@if [ -x $(SANITIZE_BUILD)/fuzz_scene ]; then tests/fuzz/smoke.sh $(SANITIZE_BUILD) $(FUZZ_SECONDS); \
	else echo "fuzz-smoke: skipped, no libFuzzer (install libclang-rt-14-dev)"; fi

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD)
