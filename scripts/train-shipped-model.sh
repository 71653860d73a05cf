#!/usr/bin/env bash
# Reproduces resources/models/sdsat-ts: the base code LM, then its SDSAT fine-tune, then copies the
# inference files (model.json, weights.bin, tokenizer.json) into resources/. About 10-20 minutes on
# 2 shared cores with the wasm backend. Usage: bash scripts/train-shipped-model.sh [LAB_DIR]
set -euo pipefail
lab="${1:-.lab}"
npx tsx main/cli/index.ts --lab "$lab" train lm --name ts-base --no-resume
npx tsx main/cli/index.ts --lab "$lab" train sdsat --base "$lab/models/ts-base" --name ts-sdsat --no-resume
mkdir -p resources/models/sdsat-ts
cp "$lab/models/ts-sdsat/"{model.json,weights.bin,tokenizer.json} resources/models/sdsat-ts/
echo "shipped model written to resources/models/sdsat-ts"
