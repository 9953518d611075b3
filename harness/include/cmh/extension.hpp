// SPDX-License-Identifier: MIT
// What code that extends cmh includes, on top of <cmh/cmh.hpp>: the run parameters
// and options model, the results model, the profiler interface and its registration,
// the benchmark registry and the custom-main entry point.
//
//   #include <cmh/extension.hpp>
//   struct MyProfiler : cmh::InternalProfiler { ... };
//   CMH_PROFILER(MyProfiler, "mine", "What it measures, in one line");
#pragma once

#include <cmh/cmh.hpp>
#include <cmh/histogram.hpp>
#include <cmh/main.hpp>
#include <cmh/options.hpp>
#include <cmh/params.hpp>
#include <cmh/profiler.hpp>
#include <cmh/profiler_options.hpp>
#include <cmh/profiler_registration.hpp>
#include <cmh/registry.hpp>
#include <cmh/result.hpp>
