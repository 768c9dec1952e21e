#!/usr/bin/env bash
# Record gsd-sdk's answers (and the files its writes change) on every tree of
# ../shared/corpus and fixtures/sdk-parity, for the pinned version, into
# tests/sdk_parity/recorded/<version>/{reads,writes}.jsonl.gz. The parity
# harness (tests/sdk_parity.rs) compares gsd against these; a tree that is not
# recorded, or changed since, is asked live there. Re-run after the corpus or
# the harness's calls change; commit the result. Prints its wall time.
#
#   bash bench/sdk-record.sh            # everything, anew
#   GSD_SDK_RECORD=missing cargo test --test sdk_parity   # only trees not recorded yet
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
GSD_SDK="${GSD_SDK:-$(bash .ci/gsd-sdk)}"
GSD_CORPUS="${GSD_CORPUS:-$(cd ../shared/corpus && pwd)}"
export GSD_SDK GSD_CORPUS GSD_SDK_RECORD=1
# The two corpus tests in one process each; the recordings are written when
# each ends, whatever gsd's answers were (a difference is gsd's to fix).
for t in reads_answer_like_gsd_sdk_on_every_corpus_tree writes_are_exact_edits_on_every_corpus_tree; do
  cargo test --quiet --test sdk_parity -- --exact "$t" --nocapture 2>&1 | grep -E "^gsd-sdk|^sdk parity|test result" || true
done
ls -l tests/sdk_parity/recorded/*/
echo "recorded in $(( $(date +%s) - start )) s"
