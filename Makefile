# Thin wrapper over CMake + Ninja. `make run` and `make test` work on a fresh machine.
BUILD ?= build
JOBS ?= $(shell nproc)
STAMP := $(BUILD)/.deps-installed
# ccache hits across checkouts in different directories.
export CCACHE_BASEDIR := $(CURDIR)

.PHONY: all deps configure build run test bench format check-format clean

all: build

$(STAMP): scripts/install-deps scripts/install-oracles tests/oracle/package-lock.json
	@scripts/install-deps
	@scripts/install-oracles
	@mkdir -p $(BUILD) && touch $(STAMP)

deps: $(STAMP)

$(BUILD)/build.ninja: $(STAMP) CMakeLists.txt
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null

configure: $(BUILD)/build.ninja

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

run: build
	@$(BUILD)/floe demo

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

bench: build
	@$(BUILD)/bench/floe_bench

format:
	@git ls-files '*.h' '*.cc' | xargs clang-format -i

check-format:
	@scripts/check-format

clean:
	rm -rf $(BUILD)
