// SPDX-License-Identifier: MIT
// A user's own main() (docs/packaging.md, "Custom main"): link cmh::cmh, not cmh::main.
#include <cmh/main.hpp>

int main(int argc, char** argv) {
  // Code here runs in the host and again in every fork (a fork re-executes the program).
  return cmh::run_main(argc, argv);
}
