# SPDX-License-Identifier: MIT
# Entry points: `make demo` runs the default scene, `make test` the test suite. Both install
# the Debian packages they need and build first.
BUILD ?= build
JOBS ?= 2
CMAKE_FLAGS ?= -DCMAKE_BUILD_TYPE=RelWithDebInfo -DISOCHOR_WERROR=ON

.PHONY: all deps build demo test bench clean

all: build

deps:
	@./tools/install-deps.sh

build: deps
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

demo: build
	$(BUILD)/isochor run scenes/demo.json --out out/demo --stats out/demo/stats.json
	@for f in 20 40 120; do $(BUILD)/isochor render out/demo/demo.pvd --frame $$f --field J --out out/demo/png || exit 1; done

test: build
	cd $(BUILD) && ctest -j $(JOBS) --output-on-failure

bench: build
	$(BUILD)/bench_xpbd_core

clean:
	rm -rf $(BUILD)
