#!/usr/bin/env bash
# Reproduces resources/models/sdsat-ts (the tiny model the tests decode with): the base code LM (lab train lm), then its SDSAT fine-tune
# (lab train sdsat), then copies the inference files into resources/. About 13 + 18 minutes on 2 idle
# cores with the native kernels (native/, built by npm install); roughly twice that on a loaded
# machine, and about 2.5x longer on wasm. Usage: bash scripts/train-tiny-model.sh [LAB_DIR]
set -euo pipefail
lab="${1:-.lab}"
npx tsx main/cli/index.ts --lab "$lab" train lm --name ts-base --no-resume --backend native \
  --vocab 768 --d-model 64 --layers 3 --heads 4 --d-ff 256 --ctx 256 \
  --steps 2000 --batch 16 --seq-len 128 --lr 2e-3 --min-lr 2e-4 --warmup 50 --seed 1
npx tsx main/cli/index.ts --lab "$lab" train sdsat --base "$lab/models/ts-base" --name ts-sdsat --no-resume --backend native \
  --sat-mode distinct --k 4 --blocks 16 --sat-weight 1 --distill 1500 --distill-share 0.5 \
  --steps 2500 --batch 16 --seq-len 128 --lr 3e-3 --min-lr 3e-4 --warmup 50 --seed 1
mkdir -p resources/models/sdsat-ts
cp "$lab/models/ts-sdsat/"{model.json,weights.bin,tokenizer.json} resources/models/sdsat-ts/
cat "$lab/models/ts-base/runs.jsonl" "$lab/models/ts-sdsat/runs.jsonl" > resources/models/sdsat-ts/training-runs.jsonl
echo "shipped model written to resources/models/sdsat-ts"
