#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""KTAP, read with the kernel tree's own parser (tools/testing/kunit/kunit_parser.py).

The one reader of KTAP in the workspace: ci/judge.py reads the guest's KUnit
and mbus-test results with it, and ci/test.sh the workspace's own test
scripts:

    ktap.py script NAME LOG EXIT_STATUS

prints one line per test case of the script, "ok - NAME: case" or
"not ok - NAME: case", and fails closed: a log without a plan, a plan the
script fell short of (or went past), a crash, or a non-zero exit status is
one more "not ok - NAME: ..." line that says which.
"""

import io
import os
import re
import sys
from typing import List, Tuple

_parser = None


def parser():
	"""The base's kunit_parser module: MBUS_KUNIT_DIR, the base's own
	tools/testing/kunit (ci/lib.sh's base_tools makes it from the base
	commit, whatever the tree has checked out)."""
	global _parser
	if _parser is None:
		kdir = os.environ.get('MBUS_KUNIT_DIR')
		if not kdir or not os.path.isfile(os.path.join(kdir, 'kunit_parser.py')):
			raise SystemExit(f'ktap.py: MBUS_KUNIT_DIR={kdir!r} holds no kunit_parser.py')
		sys.path.insert(0, kdir)
		import kunit_parser  # pylint: disable=import-outside-toplevel
		_parser = kunit_parser
	return _parser


def parse(lines: List[str]):
	"""Parse KTAP lines; the parser's own progress output is discarded."""
	kp = parser()
	import kunit_printer  # pylint: disable=import-outside-toplevel
	saved = kunit_printer.stdout._output  # pylint: disable=protected-access
	kunit_printer.stdout._output = io.StringIO()  # pylint: disable=protected-access
	try:
		return kp.parse_run_tests(lines)
	finally:
		kunit_printer.stdout._output = saved  # pylint: disable=protected-access


def status_name(test) -> str:
	return test.status.name


def leaves(test, path: Tuple[str, ...] = ()) -> List[Tuple[str, str]]:
	"""(path, status) of every test case (a test without subtests)."""
	out = []
	for sub in test.subtests:
		if not sub.name and sub.status.name == 'TEST_CRASHED' and not sub.subtests:
			continue  # a result the plan promised and the log lacks
		name = path + (sub.name or '?',)
		if sub.subtests:
			out.extend(leaves(sub, name))
		else:
			out.append((': '.join(name), status_name(sub)))
	return out


def problems(test) -> List[str]:
	"""What makes a parse not a complete result: no KTAP, errors, crashes."""
	kp = parser()
	out = []
	if test.status == kp.TestStatus.FAILURE_TO_PARSE_TESTS:
		out.append('no KTAP output')
	if test.status == kp.TestStatus.NO_TESTS:
		out.append('no tests ran')
	if test.counts.errors:
		out.append(f'{test.counts.errors} KTAP error(s) (missing results or plans)')
	if test.counts.crashed:
		out.append(f'{test.counts.crashed} test(s) crashed or missing')
	return out


_RESULT = re.compile(r'^(ok|not ok) [0-9]+')


def script(name: str, log: str, status: int) -> int:
	"""The verdict lines of one test script: its cases, then how it ended."""
	with open(log, errors='replace') as f:
		lines = f.read().splitlines()
	# A plan after the first result: the parser would not end on it.
	first_result = next((i for i, l in enumerate(lines) if _RESULT.match(l)), None)
	first_plan = next((i for i, l in enumerate(lines) if re.match(r'^1\.\.[0-9]+', l)), None)
	if first_plan is not None and first_result is not None and first_plan > first_result:
		print(f'not ok - {name}: the script did not complete: its plan comes after its first result'
		      + (f'; exited with status {status}' if status else ''))
		return 0
	test = parse(lines)
	for case, st in leaves(test):
		mark = 'ok' if st in ('SUCCESS', 'SKIPPED') else 'not ok'
		print(f'{mark} - {name}: {case}' + (' # SKIP' if st == 'SKIPPED' else ''))
	plan = test.expected_count
	top = [l for l in lines if _RESULT.match(l)]
	ends = []
	if test.status.name == 'FAILURE_TO_PARSE_TESTS':
		ends.append('printed no KTAP (no "TAP version" header)')
	elif plan is None:
		ends.append('declared no plan (1..N)')
	elif len(top) < plan:
		ends.append(f'fell short of its plan: {len(top)} of {plan} results')
	elif len(top) > plan:
		ends.append(f'went past its plan: {len(top)} results, plan 1..{plan}')
	if not ends:
		ends.extend(problems(test))
	if status != 0:
		ends.append(f'exited with status {status}')
	if ends:
		print(f'not ok - {name}: the script did not complete: ' + '; '.join(ends))
	return 0


def main(argv: List[str]) -> int:
	if len(argv) == 5 and argv[1] == 'script':
		return script(argv[2], argv[3], int(argv[4]))
	print('usage: ktap.py script NAME LOG EXIT_STATUS', file=sys.stderr)
	return 2


if __name__ == '__main__':
	sys.exit(main(sys.argv))
