// SPDX-License-Identifier: MIT
// Exceptions to Failure records: the demangled dynamic type and what().
#include "engine/failure.hpp"

#include <cmh/detail/benchmark_code.hpp>
#include <cmh/param.hpp>

#include <cxxabi.h>

#include <cstdlib>
#include <memory>
#include <new>
#include <typeinfo>

namespace cmh {
namespace detail {

std::string demangle(const char* mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> text(abi::__cxa_demangle(mangled, nullptr, nullptr, &status),
                                              std::free);
  return status == 0 && text ? std::string(text.get()) : std::string(mangled);
}

}  // namespace detail

namespace engine {

Failure make_failure(FailureKind kind, std::string message) {
  Failure f;
  f.kind = kind;
  f.message = std::move(message);
  return f;
}

Failure failure_from_current_exception() {
  Failure f;
  f.kind = FailureKind::exception;
  try {
    throw;
  } catch (const detail::ParamError& e) {
    f.kind = FailureKind::other;
    f.message = e.what();
  } catch (const std::bad_alloc& e) {
    // Typed here, where the exception is, so that nobody compares type names later.
    f.kind = FailureKind::out_of_memory;
    f.exception_type = detail::demangle(typeid(e).name());
    f.message = e.what();
  } catch (const std::exception& e) {
    f.exception_type = detail::demangle(typeid(e).name());
    f.message = e.what();
  } catch (...) {
    const std::type_info* type = abi::__cxa_current_exception_type();
    f.exception_type = type != nullptr ? detail::demangle(type->name()) : "unknown";
    f.message = "an exception of type " + f.exception_type + " (not derived from std::exception)";
  }
  return f;
}

}  // namespace engine
}  // namespace cmh
