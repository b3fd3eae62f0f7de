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
	bench test clean clean-cache

all: deps ## main job: check and boot every revision, render the postings
	@ci/each-rev.sh check boot kunit render roundtrip
	@ci/maintainers.sh
	@ci/where.sh

help: ## list the targets
	@echo "usage: make [TARGET] [REV=vN] [MBUS_CACHE=DIR]"
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | \
		sed -E 's/^([a-z-]+):.*## (.*)/  \1\t\2/' | expand -t 16

deps: ## install the Debian packages the workspace uses (as root)
	@ci/deps.sh

tree: deps ## extract linux-source-6.12 into the cache as a git tree
	@ci/tree.sh

apply: deps ## git am each revision onto the base, on branch rev/vN
	@ci/each-rev.sh apply

check: deps ## apply, then checkpatch/meta/build/kernel-doc each patch
	@ci/each-rev.sh check

boot: deps ## boot base and revision in QEMU (vimc, vivid, KUnit) and judge
	@ci/each-rev.sh apply boot

kunit: deps ## kunit.py run --arch=x86_64 of the suites a revision adds
	@ci/each-rev.sh apply kunit

render: deps ## render the postings into outgoing/vN (only what passed)
	@ci/each-rev.sh render

roundtrip: deps ## b4 am + git am of outgoing/vN give the checked tree
	@ci/each-rev.sh roundtrip

maintainers: deps ## regenerate MAINTAINERS-notes
	@ci/maintainers.sh

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
