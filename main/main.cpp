// SPDX-License-Identifier: MIT
// main() of every benchmark executable (the cmh::main library). A program that needs its
// own main() links cmh::cmh and calls cmh::run_main itself (cmh/main.hpp).
#include <cmh/main.hpp>

int main(int argc, char** argv) { return cmh::run_main(argc, argv); }
