# Thin wrapper: every target bootstraps (installs missing Debian packages),
# configures (RelWithDebInfo, Ninja) and builds before doing its job.
BUILD ?= build
JOBS ?= 2
CMAKE_FLAGS ?=

.PHONY: demo test test-numa soak bench deb build configure bootstrap clean

# The demo builds only what it runs (the samples executable: about a third of the build).
demo: configure
	cmake --build $(BUILD) -j $(JOBS) --target cmh-samples
	./$(BUILD)/samples/cmh-samples 'TAB' -f 1 -wi 2 -i 3 -w 200ms -r 300ms -prof alloc

test: build
	ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS)

# The NUMA checks in a two-node qemu guest (README, NUMA): CPU-heavy under TCG, so not
# part of test; run at low priority.
test-numa: build
	./scripts/bootstrap --numa-guest
	nice ./scripts/test-numa $(BUILD)

# The allocator's randomized stress for SOAK_SECONDS (every option combination in turn,
# checked and release builds side by side, each run's seed printed; scripts/soak).
SOAK_SECONDS ?= 600
soak: build
	./scripts/soak $(BUILD) $(SOAK_SECONDS)

# bench/run builds the bench executables in its own Release tree ($(BUILD)-bench).
bench: bootstrap
	./bench/run $(BUILD)

# build/cmh_<version>_amd64.deb: the libraries, headers, CMake package and .pc files in /usr.
deb: build
	cd $(BUILD) && cpack -G DEB

build: configure
	cmake --build $(BUILD) -j $(JOBS)

configure: bootstrap
	cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo $(CMAKE_FLAGS)

bootstrap:
	./scripts/bootstrap

clean:
	rm -rf $(BUILD)
