"""Each tests/gbench_compat program lists the same benchmark names, in the same
order, whether built against Google Benchmark or against cmh::gbench; with a
filter too. Under cmh the names are cmh benchmarks (-l) whose arguments are
parameters (-lp)."""
import cmhtest as t
from gbench_common import list_tests, programs

for name, (cmh, google) in programs().items():
    ours, theirs = list_tests(cmh), list_tests(google)
    t.check(len(theirs) > 0, f"{name}: Google Benchmark listed nothing")
    t.check(ours == theirs, f"{name}: --benchmark_list_tests differs\n cmh:    {ours}\n google: {theirs}")
    for flt in ["BM_pairs", "-BM_pairs", "threads:2$", "Fixture"]:
        ours, theirs = list_tests(cmh, "--benchmark_filter=" + flt), list_tests(google, "--benchmark_filter=" + flt)
        t.check(ours == theirs, f"{name} --benchmark_filter={flt}: differs\n cmh:    {ours}\n google: {theirs}")

cmh, _ = programs()["registration"]
listed = t.run(cmh, ["-l"], check_exit=0).stdout
t.check("BM_pairs/a:1/b:2\n" in listed and "accumulate_negative/-8\n" in listed,
        "cmh's -l does not list the Google Benchmark names\n" + listed)
lp = t.run(cmh, ["-lp", "BM_pairs/a:3"], check_exit=0).stdout
t.check('param "a" = {3}' in lp and 'param "b" = {4}' in lp, "-lp does not show the arguments as parameters\n" + lp)
lp = t.run(cmh, ["-lp", "BM_accumulate/16$"], check_exit=0).stdout
t.check('param "arg0" = {16}' in lp, "-lp does not show an unnamed argument as arg0\n" + lp)

t.done()
