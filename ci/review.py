#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Stage "trailers", the mail side: the replies of a saved mbox, read
against the postings of one revision (outgoing/vN).

b4 collects the trailers (ci/trailers.sh runs 'b4 am'); this reads what b4
does not: which message answers which patch, the review comments (the
reply's own text that is neither quoted nor a trailer), and what is wrong
with the input. Python's mailbox and email modules parse the mail.

usage: review.py check POSTINGS_DIR MBOX
         prints "warning: ..." lines; exits 1 with "error: ..." if the mbox
         is empty, not an mbox, or holds no reply to the postings
       review.py comments POSTINGS_DIR MBOX
         prints one TSV line a review comment: patch number (0: the cover
         letter), author, Message-ID, the comment on one line
"""

import email.policy
import email.utils
import mailbox
import os
import re
import sys

TRAILER = re.compile(r'^([A-Z][A-Za-z-]*-by|Fixes|Link|Closes):\s*(.*)$')
ADDR = re.compile(r'^[^<>@]+ <[^<>@\s]+@[^<>@\s]+\.[^<>@\s]+>$')
ATTRIBUTION = re.compile(r'^On .*wrote:\s*$|^.* writes:\s*$')


def postings(d):
	"""{Message-ID: patch number} of the mails of outgoing/vN."""
	ids = {}
	for name in sorted(os.listdir(d)):
		if not name.endswith('.patch'):
			continue
		m = re.match(r'^v\d+-(\d{4})-', name)
		if not m:
			continue
		with open(os.path.join(d, name), 'rb') as f:
			msg = email.message_from_binary_file(f, policy=email.policy.default)
		mid = (msg['Message-Id'] or '').strip()
		if mid:
			ids[mid] = int(m.group(1))
	return ids


def read_mbox(path):
	if not os.path.isfile(path):
		raise SystemExit(f'error: {path}: no such file')
	if os.path.getsize(path) == 0:
		raise SystemExit(f'error: {path}: empty (no message in it)')
	with open(path, 'rb') as f:
		head = f.read(5)
	if head != b'From ':
		raise SystemExit(f'error: {path}: not an mbox (it does not begin with a "From " line)')
	msgs = []
	for msg in mailbox.mbox(path, factory=lambda f: email.message_from_binary_file(f, policy=email.policy.default)):
		msgs.append(msg)
	if not msgs:
		raise SystemExit(f'error: {path}: not an mbox (no message in it)')
	return msgs


def refs(msg):
	out = []
	for h in ('In-Reply-To', 'References'):
		out += re.findall(r'<[^<>]+>', str(msg[h] or ''))
	return out


def ident(msg):
	mid = (msg['Message-Id'] or '').strip() or '(no Message-ID)'
	return f"message {mid} from {msg['From'] or '(no From)'} ({msg['Subject'] or 'no subject'})"


def body(msg):
	part = msg.get_body(preferencelist=('plain',))
	return part.get_content() if part else ''


def classify(postings_ids, msgs):
	"""(replies, warnings): replies as (msg, patch number)."""
	replies, warnings = [], []
	by_id = {(m['Message-Id'] or '').strip(): m for m in msgs}
	for msg in msgs:
		mid = (msg['Message-Id'] or '').strip()
		if mid in postings_ids:
			continue  # one of the postings themselves (a b4 mbox has them)
		if not mid:
			warnings.append(f'{ident(msg)}: no Message-ID: ignored')
			continue
		# The posting it answers: its direct parent, or up the chain.
		target = None
		chain = refs(msg)
		for r in [str(msg['In-Reply-To'] or '').strip()] + list(reversed(chain)):
			if r in postings_ids:
				target = postings_ids[r]
				break
			parent = by_id.get(r)
			if parent is not None:
				up = [p for p in refs(parent) if p in postings_ids]
				if up:
					target = postings_ids[up[-1]]
					break
		if target is None:
			warnings.append(f'{ident(msg)}: not a reply to this revision\'s postings: ignored')
			continue
		for line in body(msg).splitlines():
			t = TRAILER.match(line.strip())
			if t and t.group(1).endswith('-by') and not ADDR.match(t.group(2).strip()):
				warnings.append(f'{ident(msg)}: malformed trailer "{line.strip()}" (not "Name <address>"): not collected')
		replies.append((msg, target))
	return replies, warnings


def comment(text):
	"""The reply's own words: not quoted, not a trailer, not the
	attribution line, not the signature."""
	out = []
	for line in text.splitlines():
		s = line.strip()
		if s == '--':
			break
		if not s or s.startswith('>') or TRAILER.match(s) or ATTRIBUTION.match(s):
			continue
		out.append(s)
	return ' '.join(out)


def main():
	if len(sys.argv) != 4 or sys.argv[1] not in ('check', 'comments'):
		print(__doc__, file=sys.stderr)
		return 2
	mode, pdir, mbox = sys.argv[1:]
	ids = postings(pdir)
	if not ids:
		print(f'error: {pdir}: no postings with a Message-Id', file=sys.stderr)
		return 1
	try:
		msgs = read_mbox(mbox)
	except SystemExit as e:
		print(e, file=sys.stderr)
		return 1
	replies, warnings = classify(ids, msgs)
	if mode == 'check':
		for w in warnings:
			print(f'warning: {mbox}: {w}')
		if not replies:
			print(f'error: {mbox}: no message in it replies to the postings in {pdir} '
			      f'(none refers to their Message-IDs)', file=sys.stderr)
			return 1
		return 0
	for msg, n in replies:
		c = comment(body(msg))
		if c:
			name, addr = email.utils.parseaddr(str(msg['From'] or ''))
			print(f"{n}\t{name} <{addr}>\t{(msg['Message-Id'] or '').strip()}\t{c}")
	return 0


if __name__ == '__main__':
	sys.exit(main())
