// SPDX-License-Identifier: MIT
// main() of every benchmark executable (the cmh::main library).
#include <cmh/profilers/builtins.hpp>

#include "host/main_entry.hpp"

int main(int argc, char** argv) {
  cmh::profilers::register_builtins();
  return cmh::run_main(argc, argv);
}
