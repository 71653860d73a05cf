#!/usr/bin/env bash
# SDSAT against model size (issue 47): trains the code model at more sizes than the shipped one
# (resources/models/sdsat-code, 1.09M parameters), SAT-tunes each as the shipped model was, gives
# each SAT-tuned folder its own bench-decode.json (so it decodes with what won on it), then measures
# the family with `lab bench sizes` on the validation prompts and on the held-out packages' prompts.
#
# Two ladders:
#   small  0.25M and 0.56M parameters on the shipped model's corpus with its recipe (4,000 steps of
#          16 x 128 tokens, then 1,500 SAT steps): the sizes differ in parameters only. Both are
#          copied to resources/models/sdsat-code-0.25m and -0.56m; their curve with the shipped
#          model is resources/models/bench-sizes.json. About an hour on 2 idle cores.
#   large  5M and 15M parameters on the large npm corpus (scripts/build-code-corpus.ts --large: the
#          shipped corpus's packages and every other installed one, the same validation files and
#          held-out packages), 8.2M tokens each, as many as the shipped model read. On 2 idle cores
#          (native kernels: 1,515 tokens/s at 5M and 707 at 15M in `bench train`) about 3 h for the
#          5M model and 6 h for the 15M one: more than one uninterrupted session here has had.
#
# Every size shares the shipped model's tokenizer (--tokenizer-from), so losses, acceptance and
# tokens/s compare token for token. Resumable: stop it any time (Ctrl-C keeps a checkpoint, a killed
# run loses at most 250 steps) and run it again; a finished training resumes to its end at once.
# What each stage took is in its model folder's runs.jsonl and in the size curve's report.
#
# Usage: bash scripts/train-code-sizes.sh [small|large] [LAB_DIR]      (default: small .lab-sizes)
set -euo pipefail
cd "$(dirname "$0")/.."
ladder="${1:-small}"
lab_dir="${2:-.lab-sizes}"
small=resources/corpus/npm-code
large=resources/corpus/npm-code-large
shipped=resources/models/sdsat-code
[ -s "$small/validation.txt" ] || npx tsx scripts/build-code-corpus.ts
lab() { npx tsx main/cli/index.ts --lab "$lab_dir" "$@"; }

# name corpus width blocks base-lr: the shipped model's recipe (scripts/train-shipped-model.sh) at
# this width, depth and learning rate.
train_size() {
  local name=$1 corpus=$2 width=$3 blocks=$4 lr=$5
  lab train lm --name "code-$name-base" --backend native --corpus "$corpus" --tokenizer-from "$shipped" \
    --d-model "$width" --layers "$blocks" --heads 4 --d-ff $((4 * width)) --ctx 256 \
    --steps 4000 --batch 16 --seq-len 128 --lr "$lr" --min-lr "$(node -p "$lr / 10")" --warmup 100 --seed 1 \
    --eval-every 500 --checkpoint-every 250
  lab train sdsat --base "$lab_dir/models/code-$name-base" --name "code-$name-sdsat" --backend native --corpus "$corpus" \
    --sat-mode distinct --k 4 --blocks 16 --sat-weight 1 --distill 3000 --distill-share 0.5 \
    --steps 1500 --batch 16 --seq-len 128 --lr "$(node -p "$lr * 0.75")" --min-lr "$(node -p "$lr * 0.075")" --warmup 50 --seed 1 \
    --eval-every 500 --checkpoint-every 250
  # The folder's own benchmark, which makes its fastest exact mode its default decoder (main/decode/default-mode.ts).
  local dir="$lab_dir/models/code-$name-sdsat"
  [ -s "$dir/bench-decode.json" ] || { lab bench decode --model "$dir" --k 1,2,3,4 --backend native --json > "$dir/bench-decode.json.tmp" && mv "$dir/bench-decode.json.tmp" "$dir/bench-decode.json"; }
}

# Copy a SAT-tuned size beside the shipped model (inference files, both runs' records, its benchmark),
# so the size curve can be measured again from a fresh clone in minutes.
ship_size() {
  local name=$1 out="resources/models/sdsat-code-$1"
  mkdir -p "$out"
  cp "$lab_dir/models/code-$name-sdsat/"{model.json,weights.bin,tokenizer.json,bench-decode.json} "$out/"
  cat "$lab_dir/models/code-$name-base/runs.jsonl" "$lab_dir/models/code-$name-sdsat/runs.jsonl" > "$out/training-runs.jsonl"
}

case "$ladder" in
  small)
    train_size 0.25m "$small" 64 2 2e-3
    train_size 0.56m "$small" 96 3 2e-3
    ship_size 0.25m
    ship_size 0.56m
    models="resources/models/sdsat-code-0.25m,resources/models/sdsat-code-0.56m,$shipped"
    out=resources/models/bench-sizes.json heldout=docs/bench-sizes-heldout.json ;;
  large)
    [ -s "$large/train.txt" ] || npx tsx scripts/build-code-corpus.ts --large
    train_size 5m "$large" 256 6 1e-3
    train_size 15m "$large" 384 8 6e-4
    models="$shipped,$lab_dir/models/code-5m-sdsat,$lab_dir/models/code-15m-sdsat"
    out=docs/bench-sizes-large.json heldout=docs/bench-sizes-large-heldout.json ;;
  *) echo "usage: bash scripts/train-code-sizes.sh [small|large] [LAB_DIR]" >&2; exit 2 ;;
esac

lab bench sizes --models "$models" --k 1,2,4 --backend native --out "$out"
lab bench sizes --models "$models" --k 1,2,4 --backend native --prompts "$small/heldout-prompts.jsonl" --out "$heldout"
echo "size curve: $out (validation prompts), $heldout (held-out packages)"
