# mbus-workspace: carries the media-bus format descriptor series for Linux
# 6.12 (series-v*/), checks every revision patch by patch on Debian's
# linux-source-6.12, and renders its postings.
#
# Every target is a verb; `make help` lists them. Select one revision with
# REV=vN; without it, targets act on every revision in order.

SHELL := /bin/bash
REV ?=
export REV

# The cache outside the repository: extracted tree, object directory, ccache,
# results. Override with MBUS_CACHE=/some/dir.
MBUS_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/mbus-workspace
export MBUS_CACHE

.DEFAULT_GOAL := all
.PHONY: all help deps tree apply check boot kunit render roundtrip maintainers send \
	trailers new-revision bench test clean clean-cache

all: deps ## main job: check and boot every revision, render the postings
	@ci/main.sh

help: ## list the targets and the environment variables a user may set
	@echo "usage: make [TARGET] [VARIABLE=VALUE...]"
	@echo "targets:"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | \
		sed -E 's/^([a-z-]+):.*## (.*)/  \1\t\2/' | expand -t 16
	@echo "variables:"
	@sed -n 's/^#var \([A-Z_]*\) *\(.*\)/  \1\t\2/p' $(MAKEFILE_LIST) | expand -t 22

# The environment variables a user may set (make help prints these lines):
#var REV               one revision (vN) for every target; default: all, in order
#var MBUS_CACHE        the cache outside the repository (default ~/.cache/mbus-workspace)
#var XDG_CACHE_HOME    where the default cache lives
#var MBUS_FROM         'Name <address>': author, Signed-off-by and From of the postings
#var SEND              yes: make send sends for real (only then)
#var JOBS              parallel make jobs (default: nproc)
#var KERNEL_TARBALL    the linux-source tarball (default /usr/src/linux-source-6.12.tar.xz)
#var KERNEL_PKG        its Debian package (default linux-source-6.12)
#var CODESPELL_DICT    codespell's dictionary for checkpatch
#var MBUS_KVM          auto (default: KVM only if a probe boot works) or no
#var MBUS_GUEST_TIMEOUT  seconds a guest may run (default 900)
#var MBUS_GUEST_MEM    the guest's memory in MiB (default 4096: 1.5 x the measured peak)
#var MBUS_DEBIAN_MIRROR  the Debian mirror of the guest's userspace (default http://deb.debian.org/debian)
#var MBUS_GUEST_REFRESH  1: fetch the guest's Debian 13 userspace again
#var QUICK             1: make boot boots the quick guest (no debug set, vimc only; never a verdict)
#var MBUS_GUEST_APPEND extra kernel command line of the guest
#var MBUS_MAIN_RERUN   1: make runs every stage even if nothing changed since its last good run
#var MBUS_BUILDS       only these configurations of ci/builds (a,b); render refuses while set
#var CCACHE_DIR        ccache's directory (default: in the cache)
#var BENCH_DIR         the benchmark's scratch directory (default /var/tmp/mbus-bench)
#var MBUS_TREE         the base tree (default: MBUS_CACHE/linux)
#var MBUS_BUILD        the check build's object directory, the quick kernels' too (MBUS_CACHE/build)
#var MBUS_BOOT_BUILD   the boot kernels' object directory (MBUS_CACHE/build-boot)
#var MBUS_RESULTS      the results (MBUS_CACHE/results)
#var MBUS_STATE        the kept results, by key (MBUS_CACHE/state)
#var MBUS_SERIES_DIR   where series-v*/ are (the tests point it at fixtures)
#var MBUS_BRANCH_PREFIX  prefix of the per-revision branches (default rev/)
#var MBUS_GUEST_INIT   the guest's init (the tests boot fixture inits)
#var MBOX              make trailers: the saved mbox of replies to outgoing/REV
#var FROM              make new-revision: the revision to start the next one from

deps: ## install the Debian packages the workspace uses (as root)
	@ci/deps.sh

tree: deps ## extract linux-source-6.12 into the cache as a git tree
	@ci/tree.sh

apply: deps ## git am each revision onto the base, on branch rev/vN
	@ci/each-rev.sh apply

check: deps ## per patch: checkpatch, meta, build, kernel-doc, cocci, htmldocs, builds; matrix
	@rc=0; ci/each-rev.sh @checks || rc=$$?; \
		ci/matrix.sh || rc=1; exit $$rc

boot: deps ## boot base and revision in QEMU (vimc, vivid, KUnit) and judge; QUICK=1: the quick guest
	@case "$(QUICK)" in "" | 0 | no) stage=boot ;; 1 | yes) stage=boot-quick ;; \
		*) echo "make boot: QUICK=$(QUICK): say QUICK=1 (or yes), or nothing" >&2; exit 2 ;; esac; \
		ci/each-rev.sh apply $$stage

kunit: deps ## kunit.py run --arch=x86_64 of the suites a revision adds
	@ci/each-rev.sh apply kunit

render: deps ## render the postings into outgoing/vN (only what passed)
	@ci/each-rev.sh render

roundtrip: deps ## b4 am + git am of outgoing/vN give the checked tree
	@ci/each-rev.sh roundtrip

maintainers: deps ## regenerate MAINTAINERS-notes
	@ci/maintainers.sh

trailers: deps ## the review of outgoing/REV from a saved mbox of replies: REV=vN MBOX=FILE
	@ci/trailers.sh "$(REV)" "$(MBOX)"

new-revision: deps ## start series-vN+1 and cover-letter/vN+1 from FROM=vN, trailers applied
	@ci/new-revision.sh "$(FROM)"

send: deps ## git send-email --dry-run; sends for real only with SEND=yes
	@ci/each-rev.sh send

bench: deps ## the benchmark (not a test; an hour or more): ci/bench.sh
	@ci/bench.sh

test: deps ## the workspace's tests and the checks of every revision
	@ci/test.sh

clean: ## remove the results (keeps the tree, objects and ccache)
	rm -rf "$(MBUS_CACHE)/results"

clean-cache: ## remove the whole cache (tree, objects, ccache, results)
	rm -rf "$(MBUS_CACHE)"
