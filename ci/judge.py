#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Stage "judge": the verdicts on one guest run, from its console log.

One function a check, check_<name>, for each boot check of ci/checks:
  guest       a time-out, a missing MBUS-DONE, a guest step that failed
              (kmemleak refusing to scan, lockdep turned off: debug-state,
              which a full guest must have run)
  console     BUG:, WARNING:, KASAN:, UBSAN:, lockdep, Call Trace:,
              kmemleak's unreferenced objects, Oops, panics, DEBUG_OBJECTS
              turning itself off (ODEBUG:); reports known
              from the base (ci/known-splats) give WARN
  kunit       the KTAP of the kernel's suites (the tree's kunit_parser,
              through ci/ktap.py): any failure fails, and every suite of
              the revision's .kunitconfig files must have run and passed
  mbus        ci/guest/mbus-test's KTAP: on a revision any failure fails; on
              the base its failures are the expected-fail set, and there
              must be some (the base lacks the formats: the test can fail)
  compliance  v4l2-compliance (Debian 13's, as test-media runs it) of vimc,
              of vimc by the 32-bit (i386) binary, and of vivid, test by
              test against the unpatched base of the same run: a test
              failing here and not on the base fails; the base's own
              failures are listed
  libcamera   libcamera's cam lists vimc's camera, captures the frames
              asked for (counted in its output: an exit status 0 alone is
              not a capture) and exits 0 (a crash fails); on a revision,
              not capturing where the base did fails, naming libcamera

Writes its evidence files into DIR and prints one line a check,
"<check> OK|WARN|FAIL <reason>", for ci/boot.sh to record with
verdict_write (the one writer of verdicts). Exits non-zero only if it
could not judge at all.

usage: judge.py [--quick] DIR [--base BASEDIR] [--require-suites-of BASE TIP]
  --quick: a run of the quick guest (ci/guest/init's mbus.quick steps):
  the same checks, but compliance is that of vimc alone.
  DIR holds console.log (and console.log.accel); no --base: DIR is the
  base, the reference. --require-suites-of: the suites of the .kunitconfig
  files that TIP adds or changes over BASE must have run.
"""

import argparse
from collections import Counter
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ktap  # pylint: disable=wrong-import-position

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Run:
	"""One guest run: its console and the files judged beside it."""

	def __init__(self, d, basedir, tree, require):
		self.dir = d
		self.basedir = basedir
		self.tree = tree
		self.require = require
		self.quick = False
		raw = open(os.path.join(d, 'console.log'), errors='replace').read()
		raw = re.sub(r'\x1b\[[0-9;]*m', '', raw).replace('\r', '')
		self.lines = raw.splitlines()
		with open(os.path.join(d, 'console.txt'), 'w') as f:
			f.write(raw)
		self.accel = self.read('console.log.accel').strip() or '?'

	def read(self, name, d=None):
		try:
			return open(os.path.join(d or self.dir, name)).read()
		except FileNotFoundError:
			return ''

	def write(self, name, text):
		with open(os.path.join(self.dir, name), 'w') as f:
			f.write(text)

	def section(self, step):
		"""The lines between the markers of one guest step."""
		out, on = [], False
		for line in self.lines:
			if line == f'MBUS-BEGIN {step}':
				on, out = True, []
			elif on and line.startswith(f'MBUS-END {step} rc='):
				return out
			elif on:
				out.append(line)
		return out

	def steps(self):
		"""(name, rc, seconds) of every guest step, rc None if it never ended."""
		res = []
		for line in self.lines:
			m = re.match(r'^MBUS-BEGIN (\S+)$', line)
			if m:
				res.append([m.group(1), None, None])
			m = re.match(r'^MBUS-END (\S+) rc=(\d+)(?: seconds=(\d+))?', line)
			if m:
				for r in reversed(res):
					if r[0] == m.group(1) and r[1] is None:
						r[1], r[2] = int(m.group(2)), int(m.group(3) or 0)
						break
		return res

	def tail(self, n=25):
		return '\n'.join('    | ' + l for l in [l for l in self.lines if l.strip()][-n:])


def check_guest(run):
	problems = []
	timeout = [l for l in run.lines if l.startswith('MBUS-HOST: timeout')]
	if timeout:
		problems.append(f'the guest timed out: {timeout[0]}')
	elif 'MBUS-DONE' not in run.lines:
		problems.append("the guest's summary (MBUS-DONE) is missing")
	oom = [l for l in run.lines if re.search(r'Out of memory: Killed process|invoked oom-killer', l)]
	if oom:
		problems.append(f'OOM kill in the guest: {oom[0].strip()}')
	quick = any(re.match(r'^MBUS-GUEST .* quick$', l) for l in run.lines)
	if quick != run.quick:
		problems.append('a quick guest judged as a full one' if quick else
				'a full guest (or none) judged as a quick one: the console has no quick guest')
	steps = run.steps()
	# A full guest that ran to its end (ci/guest/init's; a fixture's init
	# says "MBUS-GUEST fixture") ends with debug-state: whether lockdep
	# still checked locks (its step fails when it did not, below). Without
	# it a quiet console proves nothing about locking.
	if (not (quick or run.quick) and 'MBUS-DONE' in run.lines and 'MBUS-GUEST fixture' not in run.lines
			and not any(n == 'debug-state' for n, _, _ in steps)):
		problems.append('the guest did not say whether lockdep stayed on (no step debug-state)')
	for name, rc, _ in steps:
		if name.startswith(('compliance-', 'libcamera-')) or name == 'mbus-test':
			continue  # judged by their own checks
		if rc != 0:
			last = (run.section(name) or ['(no output)'])[-1]
			problems.append(f'guest step {name} failed (rc {rc if rc is not None else "none"}): {last}')
	secs = sorted(((s or 0, n) for n, rc, s in steps if rc is not None), reverse=True)
	run.write('step-seconds', ''.join(f'{s} {n}\n' for s, n in secs))
	if problems:
		run.write('console.tail', run.tail() + '\n')
		return 'FAIL', '; '.join(problems)
	mem = [re.match(r'^MBUS-MEM peak_kb=(\d+) total_kb=(\d+)', l) for l in run.lines]
	mem = [m for m in mem if m]
	memory = ''
	if mem:
		peak, total = int(mem[-1].group(1)), int(mem[-1].group(2))
		run.write('memory', f'peak_kb {peak}\ntotal_kb {total}\n')
		memory = f'; memory peak {peak // 1024} of {total // 1024} MiB'
	slow = ', '.join(f'{n} {s}s' for s, n in secs[:3])
	ended = sum(1 for _, rc, _ in steps if rc is not None)
	return 'OK', f'{ended} steps ran to the end ({run.accel}' + (f'; slowest: {slow}' if slow else '') + memory + ')'


# (Every line of DEBUG_OBJECTS begins "ODEBUG:", which "BUG:" matches: its
# reports and its "Out of memory. ODEBUG disabled", after which it checks
# nothing.)
SPLAT = re.compile(r'BUG:|WARNING:|KASAN:|UBSAN:|possible (circular|recursive) locking|'
		   r'INFO: (task|trying)|Call Trace:|unreferenced object 0x|Oops|Kernel panic|'
		   r'general protection fault')


def known_splats():
	out = []
	for line in open(os.path.join(TOP, 'ci', 'known-splats')):
		line = line.rstrip('\n')
		if not line or line.startswith('#'):
			continue
		name, *pats = line.split('|')
		out.append((name, [re.compile(p) for p in pats]))
	return out


def check_console(run):
	known = known_splats()
	hits, new, old = [], [], []
	for i, line in enumerate(run.lines):
		if not SPLAT.search(line):
			continue
		hit = f'{i + 1}:{line}'
		hits.append(hit)
		ctx = '\n'.join(run.lines[max(0, i - 3):i + 21])
		name = next((n for n, pats in known if all(p.search(ctx) for p in pats)), None)
		(old if name else new).append(f'{name}: {hit}' if name else hit)
	run.write('splats', ''.join(h + '\n' for h in hits))
	run.write('splats.new', ''.join(h + '\n' for h in new))
	run.write('splats.known', ''.join(h + '\n' for h in old))
	if new:
		return 'FAIL', f'{len(new)} splat line(s), first: {new[0]}'
	if old:
		names = sorted({h.split(':')[0] for h in old})
		return 'WARN', 'only reports known from the base (ci/known-splats): ' + ' '.join(names)
	return 'OK', 'no BUG/WARNING/KASAN/UBSAN/lockdep/Call Trace/kmemleak/Oops'


def git(*args):
	return subprocess.run(['git', '-C', os.environ.get('MBUS_TREE', ''), *args], check=True,
			      capture_output=True, text=True).stdout


SUITE = re.compile(r'struct\s+kunit_suite\s+\w+\s*=\s*\{[^}]*?\.name\s*=\s*"([^"]+)"', re.S)


def required_suites(base, tip):
	"""{suite: .kunitconfig} for the .kunitconfig files TIP adds or changes:
	each CONFIG_ option it sets, through the Makefiles of its directory, to
	the objects it builds and the kunit_suite names their sources define."""
	req, unnamed = {}, []
	for cfg in git('diff', '--name-only', '--diff-filter=AM', base, tip, '--', '*.kunitconfig').split():
		d = os.path.dirname(cfg)
		opts = re.findall(r'^CONFIG_(\w+)=[ym]', git('show', f'{tip}:{cfg}'), re.M)
		makefiles = [m for m in git('ls-tree', '-r', '--name-only', tip, '--', d).split()
			     if os.path.basename(m) in ('Makefile', 'Kbuild')]
		found = set()
		for mk in makefiles:
			text = git('show', f'{tip}:{mk}')
			for opt in opts:
				for m in re.finditer(r'^obj-\$\(CONFIG_' + opt + r'\)\s*\+?=\s*(.*)$', text, re.M):
					for obj in m.group(1).split():
						src = os.path.join(os.path.dirname(mk), obj[:-2] + '.c')
						try:
							found.update(SUITE.findall(git('show', f'{tip}:{src}')))
						except subprocess.CalledProcessError:
							pass
		if not found:
			unnamed.append(cfg)
		for s in found:
			req[s] = cfg
	return req, unnamed


def check_kunit(run):
	# The kernel's KTAP, without mbus-test's (which has its own check).
	lines, skip = [], False
	for line in run.lines:
		if line == 'MBUS-BEGIN mbus-test':
			skip = True
		if not skip:
			lines.append(line)
		if line.startswith('MBUS-END mbus-test '):
			skip = False
	test = ktap.parse(lines)
	cases = ktap.leaves(test)
	failed = [c for c, st in cases if st not in ('SUCCESS', 'SKIPPED')]
	run.write('kunit.results', ''.join(f'{st} {c}\n' for c, st in cases))
	probs = ktap.problems(test)
	suites = {s.name: s.status.name for s in test.subtests}
	missing, req = [], {}
	if run.require:
		req, unnamed = required_suites(*run.require)
		for cfg in unnamed:
			missing.append(f'{cfg} names no KUnit suite that the judge can find')
		for s, cfg in sorted(req.items()):
			if s not in suites:
				missing.append(f'suite {s} of {cfg} did not run')
			elif suites[s] != 'SUCCESS':
				missing.append(f'suite {s} of {cfg}: {suites[s]}')
	summary = f'{len(cases)} test cases in {len(suites)} suites, {len(failed)} failed'
	if not cases and not missing:
		return 'FAIL', 'no KTAP results on the console'
	if failed or probs or missing:
		what = missing + probs + ([f'first failure: {failed[0]}'] if failed else [])
		return 'FAIL', summary + '; ' + '; '.join(what)
	return 'OK', summary + (f'; the revision\'s suites ran: {" ".join(sorted(req))}' if req else '')


def check_mbus(run):
	sec = [l for l in run.section('mbus-test') if not l.startswith('mbus-test: ')]
	run.write('mbus-test.log', ''.join(l + '\n' for l in sec))
	if not any(re.match(r'^K?TAP version', l) for l in sec):
		return 'FAIL', 'no results from mbus-test'
	test = ktap.parse(sec)
	cases = ktap.leaves(test)
	failing = sorted({c.split(': ', 1)[-1] for c, st in cases if st not in ('SUCCESS', 'SKIPPED')})
	passing = sorted({c.split(': ', 1)[-1] for c, st in cases if st == 'SUCCESS'})
	skipped = [c for c, st in cases if st == 'SKIPPED']
	run.write('mbus.failing', ''.join(f + '\n' for f in failing))
	run.write('mbus.passing', ''.join(f + '\n' for f in passing))
	probs = ktap.problems(test)
	summary = f'{len(cases)} tests, {len(failing)} failed'
	# mbus-test's own count (it has no plan: results are printed as they
	# come), its subtest's result and its exit status must agree with what
	# was parsed, or a result was lost or mangled on the console.
	own = [re.match(r'^\s*# mbus-vimc: (\d+) tests, (\d+) failed$', l) for l in sec]
	own = [m for m in own if m]
	rc = next((r for n, r, _ in run.steps() if n == 'mbus-test'), None)
	sub = test.subtests[0].status.name if test.subtests else 'MISSING'
	if not own:
		probs.append("mbus-test's summary line is missing")
	elif (int(own[-1].group(1)), int(own[-1].group(2))) != (len(cases), len(failing)):
		probs.append(f'mbus-test counted {own[-1].group(1)} tests, {own[-1].group(2)} failed; the console shows {summary}')
	elif (sub == 'SUCCESS') != (not failing) or (rc == 0) != (not failing):
		probs.append(f'the results, the subtest ({sub}) and the exit status ({rc}) disagree')
	if probs:
		return 'FAIL', f'mbus-test did not complete ({summary}): ' + '; '.join(probs)
	summary += f', {len(skipped)} skipped'
	if run.basedir is not None:
		# A test that passes on the base must pass here: skipped (a
		# step the kernel refused, taken for "does not apply"), failing
		# or not run at all, it fails the revision.
		lost = sorted(set(run.read('mbus.passing', run.basedir).splitlines()) - set(passing))
		if lost:
			return 'FAIL', f'{summary}; {len(lost)} passing on the base and not here (skipped, failed or not run), first: {lost[0]}'
	if run.basedir is None:
		if failing:
			return 'WARN', f'reference: {summary}; the expected-fail set of the base is in mbus.failing'
		return 'OK', f'reference: {summary}'
	# A test that fails here and not on the base (or that the base did not
	# run) fails the revision. Tests that fail on the base too are listed,
	# never counted as passes: mbus-test's own count says how many ran.
	base_failing = set(run.read('mbus.failing', run.basedir).splitlines())
	new = [f for f in failing if f not in base_failing]
	if new:
		return 'FAIL', f'{summary}; {len(new)} not failing on the base, first: {new[0]}'
	if failing:
		return 'OK', f'{summary}, each failing on the base too (mbus.failing)'
	return 'OK', summary


# The v4l2-compliance runs of ci/guest/init (step compliance-<name>); the
# quick guest runs vimc's alone.
COMPLIANCE = ('vimc', 'vimc-32', 'vivid')
COMPLIANCE_QUICK = ('vimc',)


def compliance_tests(run, drv):
	out, hdr = [], ''
	for line in run.section(f'compliance-{drv}'):
		m = re.match(r'^Compliance test for (.*?):?$', line)
		if m:
			hdr = line.rstrip(':')
		m = re.match(r'^\s*test (.*): (OK|FAIL)(.*)$', line)
		if m:
			status = m.group(2) + (' (Not Supported)' if 'Not Supported' in m.group(3) else '')
			out.append((drv, hdr, m.group(1), status))
	return out


def compliance_unsound(run, drv):
	"""Why the tests read from a compliance run cannot be counted, or None.

	v4l2-compliance prints each node's "Compliance test for" once, each
	"Test input/output N:" once per node, per node one "Total for" with
	the number of tests it ran, and one "Grand Total for" the media device
	(-m), the sum of its nodes' Totals. Output printed again or lost breaks
	one of these, a whole node lost included: with its stdout buffered, the
	children that testVividDisconnect forks printed the parent's buffer
	again when they exited (the guest runs it under stdbuf -oL, so that
	they have nothing to print).
	"""
	hdr, seen, nodes, ran, totals, grand = '', set(), [], {}, {}, None
	for line in run.section(f'compliance-{drv}'):
		m = re.match(r'^Compliance test for (.*?):?$', line)
		if m:
			hdr, seen = m.group(1), set()
			if hdr in ran:
				return f'"Compliance test for {hdr}" printed twice'
			nodes.append(hdr)
			ran[hdr] = 0
		elif re.match(r'^Test (input|output) \d+:$', line):
			if line in seen:
				return f'{hdr}: "{line}" printed twice'
			seen.add(line)
		elif re.match(r'^\s*test (.*): (OK|FAIL)', line) and hdr:
			ran[hdr] += 1
		elif (m := re.match(r'^Total for (.*?): (\d+), Succeeded', line)):
			node = m.group(1)
			if node not in ran:
				return f'"Total for {node}" without its "Compliance test for"'
			if node in totals:
				return f'"Total for {node}" printed twice'
			totals[node] = int(m.group(2))
			if ran[node] != totals[node]:
				return f'{node}: {ran[node]} tests read, its "Total for" says {m.group(2)}'
		elif (m := re.match(r'^Grand Total for (.*?): (\d+), Succeeded', line)):
			if grand is not None:
				return f'"Grand Total for {m.group(1)}" printed twice'
			grand = int(m.group(2))
	lost = [node for node in nodes if node not in totals]
	if lost:
		return f'{lost[0]}: no "Total for" line'
	if grand is not None and sum(totals.values()) != grand:
		return (f'the nodes\' "Total for" lines add up to {sum(totals.values())}, '
			f'its "Grand Total" says {grand}')
	return None


def check_compliance(run):
	tests, notes, problems = [], [], []
	for drv in COMPLIANCE_QUICK if run.quick else COMPLIANCE:
		tests += compliance_tests(run, drv)
		why = compliance_unsound(run, drv)
		if why:
			problems.append(f'{drv}: its output cannot be counted ({why}): printed again or lost')
		total = [l for l in run.section(f'compliance-{drv}') if l.startswith('Grand Total for')]
		if not total:
			problems.append(f'{drv}: no v4l2-compliance summary')
		else:
			notes.append(f'{drv} {total[-1].split(": ", 1)[-1]}')
	run.write('compliance.tests', ''.join('|'.join(t) + '\n' for t in tests))
	failing = sorted({'|'.join(t[:3]) for t in tests if t[3] == 'FAIL'})
	run.write('compliance.failing', ''.join(f + '\n' for f in failing))
	if run.basedir is not None:
		if not run.base_ok:
			problems.append("the base's compliance results are missing or incomplete: nothing to compare with")
		else:
			# Test by test, counted: v4l2-compliance runs its streaming
			# tests once per input, so a test may run many times.
			base_t = [tuple(l.split('|')) for l in run.read('compliance.tests', run.basedir).splitlines() if l]
			key = lambda t: '|'.join(t[:3])
			ran_b, ran_h = Counter(key(t) for t in base_t), Counter(key(t) for t in tests)
			fail_b = Counter(key(t) for t in base_t if t[3] == 'FAIL')
			fail_h = Counter(key(t) for t in tests if t[3] == 'FAIL')
			ns_b = Counter(key(t) for t in base_t if t[3].endswith('(Not Supported)'))
			ns_h = Counter(key(t) for t in tests if t[3].endswith('(Not Supported)'))
			gone = sorted(k for k in ran_b if ran_h[k] < ran_b[k])
			if gone:
				problems.append(f'{len(gone)} test(s) ran fewer times than on the base: {gone[0]} '
						f'({ran_h[gone[0]]} of {ran_b[gone[0]]})')
			lost = sorted(k for k in ns_h if ns_h[k] > ns_b[k])
			if lost:
				problems.append(f'{len(lost)} test(s) Not Supported here but supported on the base: {lost[0]}')
			new = sorted(k for k in fail_h if fail_h[k] > fail_b[k])
			known = [f for f in failing if f not in new]
			fixed = sorted(k for k in fail_b if fail_h[k] < fail_b[k])
			run.write('compliance.comparison', ''.join([
				'# v4l2-compliance, test by test (counted), against the unpatched base of the same run\n',
				'# new failures (fail here more often than on the base):\n'] + [f'NEW   {f}\n' for f in new] + [
				'# known failures (fail here and on the base; the tools are newer or older than the kernel):\n'] +
				[f'KNOWN {f}\n' for f in known] + ['# fixed (fail on the base only):\n'] +
				[f'FIXED {f}\n' for f in fixed]))
			if new:
				problems.append(f'{len(new)} new failing test(s): {new[0]}')
	if problems:
		return 'FAIL', '; '.join(problems)
	what = '; '.join(notes)
	if failing and run.basedir is None:
		return 'WARN', f'reference: {what}; {len(failing)} known failing test(s) in compliance.failing'
	if failing:
		return 'WARN', f'{what}; {len(failing)} failing test(s), all failing on the base too (listed in compliance.comparison)'
	return 'OK', what


def cam_frames(run):
	"""(frames asked for, frames cam reported, first error) of the capture."""
	sec = run.section('libcamera-capture')
	asked = [re.match(r'^cam: capturing (\d+) frames', l) for l in sec]
	asked = [int(m.group(1)) for m in asked if m]
	got = len([l for l in sec if re.search(r'\bseq: \d+ bytesused: [1-9]\d*', l)])
	# The reason: libcamera's first ERROR, else a failure that is not a
	# WARN, without libcamera's time stamp; the kernel's word beside it.
	errs = [l for l in sec if re.search(r'\b(ERROR|FATAL)\b', l)] or \
		[l for l in sec if re.search(r'Failed|failed', l) and not re.search(r'\bWARN\b', l)]
	err = re.sub(r'^\[[0-9:.]+\] \[\d+\]\s*', '', errs[0].strip()) if errs else ''
	kern = next((l.strip() for l in sec if re.match(r'^vimc \S+: ', l)), '')
	if err and kern:
		err = f'{err} (kernel: {kern})'

	return (asked[-1] if asked else None), got, err


def check_libcamera(run):
	listed = [l for l in run.section('libcamera-list') if re.match(r"^\d+: .*\(platform/vimc\.0 Sensor B\)", l)]
	asked, got, err = cam_frames(run)
	rcs = {n: r for n, r, _ in run.steps() if n.startswith('libcamera-')}
	crashed = [f'{n} rc {rcs.get(n)}' for n in ('libcamera-list', 'libcamera-capture') if rcs.get(n) != 0]
	ok = listed and got >= (asked or 0) and not crashed
	run.write('libcamera.frames', f'{asked} {got} {"ok" if ok else "fail"}\n')
	if asked is None:
		return 'FAIL', 'libcamera: the capture step did not run'
	what = f"libcamera's cam listed {'the' if listed else 'no'} vimc camera and captured {got} of {asked} frames"
	if crashed:
		what += f" but did not end well ({', '.join(crashed)})"
	if not ok:
		why = f'{what}: {err}' if err else what
		if run.basedir is None:
			return 'FAIL', f'reference: {why}'
		base = run.read('libcamera.frames', run.basedir).split()
		if len(base) == 3 and base[2] == 'ok':
			return 'FAIL', f'{why} (the base captured all {base[1]}): this revision breaks libcamera on vimc'
		return 'FAIL', f'{why}; the base did not capture either ({" of ".join(reversed(base[:2])) or "no result"}): nothing to compare with'
	return 'OK', what


def registry():
	return [l.split()[1] for l in open(os.path.join(TOP, 'ci', 'checks'))
		if l.strip() and not l.startswith('#') and l.split()[0] == 'boot']


def main():
	ap = argparse.ArgumentParser(description='judge one guest run')
	ap.add_argument('--quick', action='store_true', help='a run of the quick guest')
	ap.add_argument('dir')
	ap.add_argument('--base', dest='basedir')
	ap.add_argument('--base-ok', action='store_true',
			help="the base's compliance verdict is current and not FAIL")
	ap.add_argument('--require-suites-of', nargs=2, metavar=('BASE', 'TIP'))
	a = ap.parse_args()
	if not os.path.isfile(os.path.join(a.dir, 'console.log')):
		print(f'judge: {a.dir}/console.log missing', file=sys.stderr)
		return 1
	run = Run(a.dir, a.basedir, os.environ.get('MBUS_TREE'), a.require_suites_of)
	run.base_ok = a.base_ok
	run.quick = a.quick
	for name in registry():
		fn = globals().get('check_' + name.replace('-', '_'))
		if fn is None:
			print(f'{name} FAIL ci/judge.py has no check_{name}: the registry and the judge disagree')
			continue
		try:
			verdict, reason = fn(run)
		except Exception as e:  # pylint: disable=broad-except
			verdict, reason = 'FAIL', f'the check itself failed: {type(e).__name__}: {e}'
		print(f'{name} {verdict} {reason}')
	return 0


if __name__ == '__main__':
	sys.exit(main())
