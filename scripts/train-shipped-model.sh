#!/usr/bin/env bash
# Reproduces resources/models/sdsat-code, the shipped SDSAT code model: builds the npm source-code
# corpus (scripts/build-code-corpus.ts), trains the base model (lab train lm), SAT-tunes it with
# self-distillation (lab train sdsat), copies the inference files into resources/ and benchmarks
# them (lab bench decode). About 40 + 45 minutes on 2 idle cores with the native kernels.
# Usage: bash scripts/train-shipped-model.sh [LAB_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
lab="${1:-.lab}"
corpus=resources/corpus/npm-code
out=resources/models/sdsat-code
npx tsx scripts/build-code-corpus.ts
npx tsx main/cli/index.ts --lab "$lab" train lm --name code-base --no-resume --backend native --corpus "$corpus" \
  --vocab 1024 --d-model 128 --layers 4 --heads 4 --d-ff 512 --ctx 256 \
  --steps 4000 --batch 16 --seq-len 128 --lr 2e-3 --min-lr 2e-4 --warmup 100 --seed 1 --eval-every 500 --checkpoint-every 500
npx tsx main/cli/index.ts --lab "$lab" train sdsat --base "$lab/models/code-base" --name code-sdsat --no-resume --backend native --corpus "$corpus" \
  --sat-mode distinct --k 4 --blocks 16 --sat-weight 1 --distill 3000 --distill-share 0.5 \
  --steps 1500 --batch 16 --seq-len 128 --lr 1.5e-3 --min-lr 1.5e-4 --warmup 50 --seed 1 --eval-every 500 --checkpoint-every 500
mkdir -p "$out"
cp "$lab/models/code-sdsat/"{model.json,weights.bin,tokenizer.json} "$out/"
cat "$lab/models/code-base/runs.jsonl" "$lab/models/code-sdsat/runs.jsonl" > "$out/training-runs.jsonl"
npx tsx main/cli/index.ts bench decode --model "$out" --k 1,2,3,4 --json > "$out/bench-decode.json"
echo "shipped model written to $out"
