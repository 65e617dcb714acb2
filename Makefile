# The two commands a new user runs: `make run` and `make test`. Both install what is missing.
BUILD      ?= build
GENERATOR  ?= Ninja
BUILD_TYPE ?= RelWithDebInfo
JOBS       ?= $(shell nproc)

# Debian 12 packages the build and the tests need; cmake/dependencies.cmake finds each.
PACKAGES := g++ cmake ninja-build pkg-config make curl ca-certificates \
  libcaf-dev libsimdjson-dev libconcurrentqueue-dev libyaml-cpp-dev libre2-dev \
  libboost1.81-dev libcurl4-openssl-dev libssl-dev libspdlog-dev libfmt-dev libcli11-dev \
  nlohmann-json3-dev libgtest-dev libgmock-dev libbenchmark-dev \
  libjq-dev liblua5.4-dev libexpat1-dev libcctz-dev libxxhash-dev clang libclang-rt-14-dev \
  libnats-dev nats-server libhiredis-dev libmosquitto-dev librdkafka-dev librabbitmq-dev libgit2-dev git libssh-dev \
  libgrpc++-dev protobuf-compiler-grpc libprotobuf-dev protobuf-compiler python3-grpcio python3-yaml
# Packages that hold a server the tests start on their own; Debian would start them system-wide
# on install, which a policy-rc.d refuses for the length of the install.
SERVICE_PACKAGES := openssh-server redis-server mosquitto rabbitmq-server python3-aiosmtpd
# The servers deps installs besides PACKAGES: all of them, but none for `make run` (the quick
# start needs no server; RabbitMQ alone brings Erlang, about 40 packages).
SERVERS ?= $(SERVICE_PACKAGES)

SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: all deps configure build test-unit run clean

all: build

## deps: install every missing Debian package (does nothing when all are present)
deps:
	@missing=$$(for p in $(PACKAGES) $(SERVERS); do \
	  dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; \
	done); \
	if [ -n "$$missing" ]; then \
	  echo "deps: installing" $$missing; \
	  policy=; \
	  if [ ! -e /usr/sbin/policy-rc.d ]; then \
	    printf '#!/bin/sh\nexit 101\n' | $(SUDO) tee /usr/sbin/policy-rc.d >/dev/null && \
	    $(SUDO) chmod 755 /usr/sbin/policy-rc.d && policy=1; \
	  fi; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	  status=$$?; \
	  [ -z "$$policy" ] || $(SUDO) rm -f /usr/sbin/policy-rc.d; \
	  exit $$status; \
	else echo "deps: all present"; fi

# ccache when it is installed (not required): a rebuild after `make clean` or a branch switch
# recompiles only what changed.
CCACHE_ARGS := $(shell command -v ccache >/dev/null 2>&1 && echo -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

$(BUILD)/build.ninja: CMakeLists.txt
	cmake -S . -B $(BUILD) -G $(GENERATOR) -DCMAKE_BUILD_TYPE=$(BUILD_TYPE) -DCMAKE_CXX_COMPILER=g++ $(CCACHE_ARGS) $(GANGLION_CMAKE_ARGS)

configure: deps $(BUILD)/build.ninja

## build: produce build/ganglion, the tests and the benchmarks
build: configure
	cmake --build $(BUILD) -j $(JOBS)

## binary: produce build/ganglion alone (what make run needs; no tests, no benchmarks)
.PHONY: binary
binary: configure
	cmake --build $(BUILD) -j $(JOBS) --target ganglion


## test: every ctest tier (unit, integration, e2e, conformance, install, fuzz smoke) on the
## AddressSanitizer + UBSan build in build-asan: any finding fails its test (tests/README.md)
## test-asan: the unit and integration tiers of that build
## test-tsan: the actor, bus and transport tests (unit, integration) under ThreadSanitizer
## test-release: every tier on the RelWithDebInfo build that make run and make bench use
## test-unit: the unit tier of the RelWithDebInfo build
.PHONY: test test-asan test-tsan test-release asan-build tsan-build
ASAN_BUILD ?= build-asan
TSAN_BUILD ?= build-tsan
SANITIZER_FILES := $(CURDIR)/tests/sanitizers
TEST_TIMEOUT := 600
ASAN_ENV := ASAN_OPTIONS=abort_on_error=1:detect_stack_use_after_return=1:strict_string_checks=1 \
  LSAN_OPTIONS=suppressions=$(SANITIZER_FILES)/lsan.supp:print_suppressions=0 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:suppressions=$(SANITIZER_FILES)/ubsan.supp
TSAN_ENV := TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1:suppressions=$(SANITIZER_FILES)/tsan.supp
# librdkafka's C11 threads (thrd_create) are invisible to g++'s TSan, which then crashes.
TSAN_EXCLUDE := kafka

asan-build: deps
	cmake -S . -B $(ASAN_BUILD) -G $(GENERATOR) -DCMAKE_CXX_COMPILER=g++ \
	  -DGANGLION_SANITIZE=address -DGANGLION_BENCH_LOADGEN_ONLY=ON $(CCACHE_ARGS) \
	  $(GANGLION_CMAKE_ARGS)
	cmake --build $(ASAN_BUILD) -j $(JOBS)

# The TSan build leaves the benchmarks out and builds the binary and the two tiers it runs.
tsan-build: deps
	cmake -S . -B $(TSAN_BUILD) -G $(GENERATOR) -DCMAKE_CXX_COMPILER=g++ $(CCACHE_ARGS) \
	  -DGANGLION_SANITIZE=thread -DGANGLION_BUILD_BENCH=OFF $(GANGLION_CMAKE_ARGS)
	cmake --build $(TSAN_BUILD) -j $(JOBS) --target ganglion $$(ninja -C $(TSAN_BUILD) -t targets all \
	  | sed -n 's/^\(\(unit\|integration\)_[a-z0-9_]*\): phony$$/\1/p')

# The Kubernetes, Knative and KEDA schemas the rendered deploy/overlays are validated against
# (ctest deploy.overlays), from npm at the versions of tests/deploy/schema/package-lock.json;
# without node or npm, or offline, the test says the schemas were not checked.
SCHEMA_DIR = $(ASAN_BUILD)/deploy-schema
.PHONY: deploy-schemas
deploy-schemas:
	@if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then \
	  mkdir -p $(SCHEMA_DIR) && cp tests/deploy/schema/package.json \
	    tests/deploy/schema/package-lock.json tests/deploy/schema/validate.mjs $(SCHEMA_DIR)/ && \
	  if ! cmp -s $(SCHEMA_DIR)/package-lock.json $(SCHEMA_DIR)/installed-lock.json; then \
	    npm ci --prefix $(SCHEMA_DIR) --no-audit --no-fund --loglevel=error 2>&1 | grep -v EBADENGINE; \
	    [ -d $(SCHEMA_DIR)/node_modules/kubernetes-models ] && \
	      cp $(SCHEMA_DIR)/package-lock.json $(SCHEMA_DIR)/installed-lock.json; \
	  fi; true; \
	else echo "deploy-schemas: no node/npm; the overlays are not checked against the schemas"; fi

# azurite, the Azure Storage emulator the azureQueueStorage tests run against
# (tests/support/azurite_server.*), from npm at the versions of tests/azurite/package-lock.json,
# into <build>/azurite; without node or npm, or offline, those tests say they were not run.
define install_azurite
	@if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then \
	  mkdir -p $(1)/azurite && cp tests/azurite/package.json tests/azurite/package-lock.json \
	    $(1)/azurite/ && \
	  if ! cmp -s $(1)/azurite/package-lock.json $(1)/azurite/installed-lock.json; then \
	    npm ci --prefix $(1)/azurite --no-audit --no-fund --loglevel=error 2>&1 | grep -v EBADENGINE; \
	    [ -e $(1)/azurite/node_modules/.bin/azurite-queue ] && \
	      cp $(1)/azurite/package-lock.json $(1)/azurite/installed-lock.json; \
	  fi; true; \
	else echo "azurite: no node/npm; the azureQueueStorage tests against azurite are not run"; fi
endef
.PHONY: azurite azurite-tsan azurite-release
azurite:
	$(call install_azurite,$(ASAN_BUILD))
azurite-tsan:
	$(call install_azurite,$(TSAN_BUILD))
azurite-release:
	$(call install_azurite,$(BUILD))

test: asan-build deploy-schemas azurite
	cd $(ASAN_BUILD) && $(ASAN_ENV) ctest --output-on-failure -j $(JOBS) --timeout $(TEST_TIMEOUT)

test-asan: asan-build azurite
	cd $(ASAN_BUILD) && $(ASAN_ENV) ctest --output-on-failure -j $(JOBS) --timeout $(TEST_TIMEOUT) \
	  -L '^(unit|integration)$$'

test-tsan: tsan-build azurite-tsan
	cd $(TSAN_BUILD) && $(TSAN_ENV) ctest --output-on-failure -j $(JOBS) --timeout $(TEST_TIMEOUT) \
	  -L '^(unit|integration)$$' -E '$(TSAN_EXCLUDE)'

test-release: build azurite-release
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --timeout $(TEST_TIMEOUT)

test-unit: build
	cd $(BUILD) && ctest --output-on-failure -L unit

## run: the quick start on the embedded bus (builds the binary only)
run binary: SERVERS :=
run: binary
	@echo
	@echo "ganglion quick start: in another terminal, fire the trigger with"
	@echo
	@echo "  curl -sS -X POST -H 'Content-Type: application/json' -d '{\"message\":\"hello\"}' http://127.0.0.1:12000/example"
	@echo
	@echo "(status: curl -sS http://127.0.0.1:8081/v1/status   metrics: curl -sS http://127.0.0.1:8081/metrics)"
	@echo
	$(BUILD)/ganglion run -f examples/quickstart --admin 127.0.0.1:8081 --webhook-host 127.0.0.1 --data-dir $(BUILD)/quickstart-data

## soak: the durable bus's crash test at scale: 100,000 events, three kill -9 (~10 min)
.PHONY: soak
soak: build
	GANGLION_CRASH_EVENTS=100000 GANGLION_CRASH_KILLS=3 $(BUILD)/tests/e2e/e2e_ganglion --gtest_filter='fsync/durable_bus_crash.*/interval'

## bench: the micro suite and the end-to-end scenarios next to their baselines (~15 min);
## prints a table, writes $(BUILD)/bench/results.json and docs/benchmarks.md (see that page)
.PHONY: bench bench-quick bench-deps
BENCH_PACKAGES := python3

bench-deps:
	@$(MAKE) --no-print-directory deps PACKAGES="$(BENCH_PACKAGES)"

bench: build bench-deps
	python3 bench/run.py --build $(BUILD)

## bench-quick: the same steps shortened (< 2 min, build not counted); docs untouched
bench-quick: build bench-deps
	python3 bench/run.py --quick --build $(BUILD)

## fuzz: build the libFuzzer targets with clang into $(BUILD)/fuzz and run each for
## FUZZ_SECONDS (default 60; e.g. make fuzz FUZZ_SECONDS=3600 for a campaign)
.PHONY: fuzz fuzz-smoke
FUZZ_BUILD := $(BUILD)/fuzz
FUZZ_SECONDS ?= 60
$(FUZZ_BUILD)/CMakeCache.txt: tests/fuzz/CMakeLists.txt
	cmake -S tests/fuzz -B $(FUZZ_BUILD) -G $(GENERATOR) -DCMAKE_CXX_COMPILER=clang++

fuzz: deps $(FUZZ_BUILD)/CMakeCache.txt
	cmake --build $(FUZZ_BUILD) -j $(JOBS)
	tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

## fuzz-smoke: the same targets for 5 s each from the seed corpus (also `ctest -L fuzz`)
fuzz-smoke: deps $(FUZZ_BUILD)/CMakeCache.txt
	cmake --build $(FUZZ_BUILD) -j $(JOBS)
	tests/fuzz/run.sh $(FUZZ_BUILD) 5

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(TSAN_BUILD)
