// SPDX-License-Identifier: MIT
// The umbrella header: everything a benchmark file needs.
//
//   #include <cmh/cmh.hpp>
//   CMH_BENCHMARK(Sample, sqrt, cmh::Blackhole& bh) { bh.consume(std::sqrt(2.0)); }
#pragma once

#include <cmh/aux_counters.hpp>
#include <cmh/benchmark.hpp>
#include <cmh/blackhole.hpp>
#include <cmh/control.hpp>
#include <cmh/histogram.hpp>
#include <cmh/options.hpp>
#include <cmh/param.hpp>
#include <cmh/params.hpp>
#include <cmh/profiler.hpp>
#include <cmh/registry.hpp>
#include <cmh/result.hpp>
#include <cmh/state.hpp>
