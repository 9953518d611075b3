// SPDX-License-Identifier: MIT
// What a result file says about the machine and the build, folded into one vocabulary
// (model.hpp, Record::environment) so that cmh-history can tell a change of compiler
// or machine from a change of code, whatever format the file is in; and cmh's
// per-iteration disturbance flags.
#include "readers.hpp"

#include <regex>

namespace cmh::results {
namespace {

void put(std::map<std::string, std::string>& env, const std::string& key, const Json* value) {
  if (value == nullptr || value->is_null()) return;
  std::string text = value->is_string() ? value->get<std::string>() : value->dump();
  if (value->is_array()) {  // JMH's jvmArgs: one space-separated string
    text.clear();
    for (const auto& part : *value)
      text += (text.empty() ? "" : " ") + (part.is_string() ? part.get<std::string>() : part.dump());
  }
  if (!text.empty() && text != "unknown") env[key] = text;
}

const Json* find(const Json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

/// The fields cmh writes both into its JSON's "cmh" block and into its gbench context,
/// under their names in each: {environment key, cmh block, gbench context}.
struct SharedField {
  const char* key;
  const char* in_cmh_block;
  const char* in_gbench_context;
};
constexpr SharedField kSharedFields[] = {
    {"compiler", "compiler", "compiler"},           {"compilerFlags", "compilerFlags", "compiler_flags"},
    {"cpuModel", "cpuModel", "cpu_model"},           {"kernel", "kernel", "kernel"},
    {"numaMode", "numaMode", "numa_mode"},           {"allocatorOptions", "allocatorOptions", "allocator_options"},
};

/// cmh writes the governor only into its warning ("The CPU frequency governor is
/// 'powersave', not 'performance': ..."); a file without that warning ran under
/// 'performance' or on a machine without cpufreq, which the file does not tell apart.
void governor_from_warnings(const std::vector<std::string>& warnings, std::map<std::string, std::string>& env) {
  static const std::regex pattern("frequency governor is ('[^']*'(, '[^']*')*)");
  for (const auto& w : warnings) {
    std::smatch m;
    if (std::regex_search(w, m, pattern)) env["governor"] = m[1].str();
  }
}

}  // namespace

void read_jmh_environment(const Json& record, Record& out) {
  auto& env = out.environment;
  if (const Json* cmh = find(record, "cmh"); cmh != nullptr && cmh->is_object()) {
    put(env, "toolVersion", find(*cmh, "version"));
    if (env.count("toolVersion")) env["toolVersion"] = "cmh " + env["toolVersion"];
    for (const auto& f : kSharedFields) put(env, f.key, find(*cmh, f.in_cmh_block));
    put(env, "buildType", find(*cmh, "buildType"));
    put(env, "cpuCount", find(*cmh, "cpuCount"));
    put(env, "runtimeArgs", find(record, "jvmArgs"));
    std::vector<std::string> warnings;
    if (const Json* w = find(*cmh, "warnings"); w != nullptr && w->is_array())
      for (const auto& s : *w)
        if (s.is_string()) warnings.push_back(s.get<std::string>());
    governor_from_warnings(warnings, env);
    return;
  }
  // Java JMH: the JVM is both the compiler and the runtime.
  put(env, "toolVersion", find(record, "jmhVersion"));
  if (env.count("toolVersion")) env["toolVersion"] = "JMH " + env["toolVersion"];
  put(env, "runtime", find(record, "vmName"));
  put(env, "compiler", find(record, "vmVersion"));
  put(env, "runtimeArgs", find(record, "jvmArgs"));
}

void read_disturbance_flags(const Json& record, Record& out) {
  const Json* cmh = find(record, "cmh");
  const Json* disturbance = cmh ? find(*cmh, "disturbance") : nullptr;
  const Json* forks = disturbance ? find(*disturbance, "iterations") : nullptr;
  if (forks == nullptr || !forks->is_array()) return;
  for (const auto& fork : *forks) {
    auto& flags = out.disturbed.emplace_back();
    if (!fork.is_array()) continue;
    for (const auto& it : fork) {
      const Json* d = find(it, "disturbed");
      flags.push_back(d != nullptr && d->is_boolean() && d->get<bool>());
    }
  }
}

void read_gbench_context(const Json& doc, ResultFile& out) {
  const Json* context = find(doc, "context");
  if (context == nullptr || !context->is_object()) return;
  std::map<std::string, std::string> env;
  put(env, "host", find(*context, "host_name"));
  put(env, "cpuCount", find(*context, "num_cpus"));
  put(env, "toolVersion", find(*context, "library_version"));
  put(env, "buildType", find(*context, "library_build_type"));
  // cmh's custom context entries; Google Benchmark itself has none of these.
  for (const auto& f : kSharedFields) put(env, f.key, find(*context, f.in_gbench_context));
  if (const Json* scaling = find(*context, "cpu_scaling_enabled"); scaling && scaling->is_boolean())
    env["governor"] = scaling->get<bool>() ? "scaling enabled" : "performance";
  governor_from_warnings(out.warnings, env);
  if (const Json* date = find(*context, "date"); date && date->is_string()) out.date = date->get<std::string>();
  for (auto& r : out.records) r.environment = env;
}

}  // namespace cmh::results
