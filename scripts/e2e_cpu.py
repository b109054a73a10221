#!/usr/bin/env python3
"""Sums a `CARDTABLE_CPU_REPORT` file of the browser suite (e2e/cpu_report.py) by module and
lists the tests that cost the most CPU: where CI's test stage spends its time.

    CARDTABLE_CPU_REPORT=/tmp/cpu.jsonl make test-e2e
    scripts/e2e_cpu.py /tmp/cpu.jsonl [--top 30]
"""

import argparse
import collections
import json


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", help="the file CARDTABLE_CPU_REPORT named")
    parser.add_argument("--top", type=int, default=30, help="how many tests to list")
    args = parser.parse_args()
    with open(args.report) as report:
        tests = [json.loads(line) for line in report if line.strip()]
    if not tests:
        raise SystemExit(f"{args.report}: no tests recorded")
    total = sum(t["cpu"] for t in tests)
    modules = collections.defaultdict(lambda: [0, 0.0, 0.0])
    for t in tests:
        module = modules[t["test"].split("::")[0]]
        module[0] += 1
        module[1] += t["cpu"]
        module[2] += t["wall"]
    print(
        f"{len(tests)} tests, {total:.1f} s of CPU, {sum(t['wall'] for t in tests):.1f} s of wall"
    )
    print(f"\n{'module':<48} {'tests':>5} {'CPU s':>8} {'share':>6} {'wall s':>8}")
    for name, (count, cpu, wall) in sorted(modules.items(), key=lambda m: -m[1][1]):
        print(f"{name:<48} {count:>5} {cpu:>8.1f} {cpu / total:>6.1%} {wall:>8.1f}")
    print(f"\n{'test':<100} {'CPU s':>7} {'wall s':>7}")
    for t in sorted(tests, key=lambda t: -t["cpu"])[: args.top]:
        print(f"{t['test'][:100]:<100} {t['cpu']:>7.1f} {t['wall']:>7.1f}")


if __name__ == "__main__":
    main()
