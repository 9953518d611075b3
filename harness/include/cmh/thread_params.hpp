// SPDX-License-Identifier: MIT
// cmh::ThreadParams: the identity of one worker thread within a trial (JMH's
// ThreadParams), which a benchmark or fixture may take as `const cmh::ThreadParams&`.
// Part of <cmh/cmh.hpp>; the run's other parameters are in <cmh/params.hpp>.
#pragma once

namespace cmh {

struct ThreadParams {
  int thread_index = 0;    ///< 0 .. thread_count-1
  int thread_count = 1;
  int group_index = 0;     ///< which group instance this thread belongs to
  int group_count = 1;
  int subgroup_index = 0;  ///< which member of the group this thread runs
  int subgroup_count = 1;
  int group_thread_index = 0;  ///< index within its group instance
  int group_thread_count = 1;
  int subgroup_thread_index = 0;  ///< index among the threads running the same member
  int subgroup_thread_count = 1;
};

}  // namespace cmh
