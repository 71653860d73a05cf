#!/usr/bin/env bash
# SDSAT against model size (issue 47): trains the code model at two sizes beyond the shipped one
# (about 5M and 15M parameters) on the large npm corpus (scripts/build-code-corpus.ts --large: the
# shipped corpus's packages and every other installed one, the same validation files and held-out
# packages), SAT-tunes each as the shipped model was, then measures all three with `lab bench
# sizes` on the validation prompts and on the held-out packages' prompts. Each SAT-tuned folder gets
# its own bench-decode.json (every mode, merged-tree included), so it decodes with what won on it.
#
# Every size shares the shipped model's tokenizer (--tokenizer-from), so losses, acceptance and
# tokens/s compare token for token. Resumable: stop it any time (Ctrl-C keeps a checkpoint, a killed
# run loses at most 250 steps) and run it again; a finished training resumes to its end at once.
# What each stage took is in its model folder's runs.jsonl and in the size curve's report.
# On 2 idle cores (native kernels: 1,515 tokens/s at 5M and 707 at 15M in `bench train`; the 5M base
# ran at 1,180 with its evaluations) about 3 h for the 5M model and 6 h for the 15M one, the
# benchmarks after them about an hour.
#
# Usage: bash scripts/train-code-sizes.sh [LAB_DIR]      (default .lab-sizes)
set -euo pipefail
cd "$(dirname "$0")/.."
lab_dir="${1:-.lab-sizes}"
small=resources/corpus/npm-code
large=resources/corpus/npm-code-large
shipped=resources/models/sdsat-code
[ -s "$small/validation.txt" ] || npx tsx scripts/build-code-corpus.ts
[ -s "$large/train.txt" ] || npx tsx scripts/build-code-corpus.ts --large
lab() { npx tsx main/cli/index.ts --lab "$lab_dir" "$@"; }

# name width blocks base-steps base-lr
train_size() {
  local name=$1 width=$2 blocks=$3 steps=$4 lr=$5
  lab train lm --name "code-$name-base" --backend native --corpus "$large" --tokenizer-from "$shipped" \
    --d-model "$width" --layers "$blocks" --heads 4 --d-ff $((4 * width)) --ctx 256 \
    --steps "$steps" --batch 16 --seq-len 128 --lr "$lr" --min-lr "$(node -p "$lr / 10")" --warmup 200 --seed 1 \
    --eval-every 500 --checkpoint-every 250
  # The shipped model's SAT recipe (scripts/train-shipped-model.sh), at this size's learning rate.
  lab train sdsat --base "$lab_dir/models/code-$name-base" --name "code-$name-sdsat" --backend native --corpus "$large" \
    --sat-mode distinct --k 4 --blocks 16 --sat-weight 1 --distill 3000 --distill-share 0.5 \
    --steps 1500 --batch 16 --seq-len 128 --lr "$(node -p "$lr * 0.75")" --min-lr "$(node -p "$lr * 0.075")" --warmup 50 --seed 1 \
    --eval-every 500 --checkpoint-every 250
  # The folder's own benchmark, which makes its fastest exact mode its default decoder (main/decode/default-mode.ts).
  local dir="$lab_dir/models/code-$name-sdsat"
  [ -s "$dir/bench-decode.json" ] || { lab bench decode --model "$dir" --modes sdsat,sdsat-tree,lookup,lookup-tree,merged-tree --k 1,2,3,4 --backend native --json > "$dir/bench-decode.json.tmp" && mv "$dir/bench-decode.json.tmp" "$dir/bench-decode.json"; }
}

# 4,000 steps of 16 x 128 tokens (8.2M tokens) each: what the shipped 1.1M model saw, so the sizes
# differ in parameters, not in how much text they read (the large corpus is read about once).
train_size 5m 256 6 4000 1e-3
train_size 15m 384 8 4000 6e-4

models="$shipped,$lab_dir/models/code-5m-sdsat,$lab_dir/models/code-15m-sdsat"
lab bench sizes --models "$models" --k 1,2,4 --backend native --out resources/models/bench-sizes.json
lab bench sizes --models "$models" --k 1,2,4 --backend native --prompts "$small/heldout-prompts.jsonl" --out docs/bench-sizes-heldout.json
echo "size curve: resources/models/bench-sizes.json (validation prompts), docs/bench-sizes-heldout.json (held-out packages)"
