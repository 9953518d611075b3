// SPDX-License-Identifier: MIT
// cmh::run_main() (cmh/main.hpp): the built-in profilers, then the executable's whole life
// (host or fork worker). It is outside cmh_harness because it needs the profilers, which
// depend on the harness: the composition root (main/README.md).
#include <cmh/main.hpp>
#include <cmh/profilers/builtins.hpp>

#include <cmh/detail/main_entry.hpp>

namespace cmh {

int run_main(int argc, char** argv) {
  profilers::register_builtins();
  return host::main_entry(argc, argv);
}

}  // namespace cmh
