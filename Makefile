# Thin wrapper over CMake + Ninja. `make run` and `make test` work on a fresh machine.
BUILD ?= build
JOBS ?= $(shell nproc)
STAMP := $(BUILD)/.deps-installed
ORACLES := $(BUILD)/.oracles-installed
# ccache hits across checkouts in different directories, and with the tests' precompiled header.
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_SLOPPINESS := pch_defines,time_macros,include_file_mtime,include_file_ctime
# CI builds with -Werror so warnings stay at zero.
WERROR ?= $(if $(CI),ON,OFF)

.PHONY: all deps configure build build-cli run test bench format check-format check-layers clean \
	fuzz fuzz-regress sanitize

all: build

# The packages the build needs; the tests' independent oracles (npm) only for `make test`.
$(STAMP): scripts/install-deps
	@scripts/install-deps
	@mkdir -p $(BUILD) && touch $(STAMP)

$(ORACLES): scripts/install-oracles tests/oracle/package-lock.json
	@scripts/install-oracles
	@mkdir -p $(BUILD) && touch $(ORACLES)

deps: $(STAMP) $(ORACLES)

$(BUILD)/build.ninja: $(STAMP) CMakeLists.txt cmake/layers.txt cmake/layers.cmake
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DFLOE_WERROR=$(WERROR) >/dev/null

configure: $(BUILD)/build.ninja

# Everything: the library, the CLI, every test and benchmark.
build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# Only what the demo needs: the layers and the floe command.
build-cli: configure
	@cmake --build $(BUILD) -j $(JOBS) --target floe_cli

run: build-cli
	@$(BUILD)/floe demo

test: build $(ORACLES)
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

bench: build $(ORACLES)
	@$(BUILD)/bench/floe_bench

# Fuzzing and sanitizers (docs/fuzzing.md). `make fuzz FUZZ_SECONDS=N` builds the libFuzzer
# targets with clang (build-fuzz) and runs each for N seconds; `make fuzz-regress` replays the
# saved inputs of fuzz/regressions/ through the targets built by the normal compiler;
# `make sanitize` runs the whole test suite under ASan + UBSan (build-asan).
FUZZ_SECONDS ?= 30
fuzz: $(STAMP)
	@JOBS=$(JOBS) scripts/fuzz run $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-regress: configure
	@cmake --build $(BUILD) -j $(JOBS) --target floe_fuzz_all
	@scripts/fuzz regress $(BUILD)

sanitize: $(STAMP)
	@JOBS=$(JOBS) scripts/sanitize

format:
	@git ls-files '*.h' '*.cc' | xargs clang-format -i

check-format:
	@scripts/check-format

check-layers:
	@scripts/check-layers

clean:
	rm -rf $(BUILD)
