#!/usr/bin/env bash
# Reproduces the shipped compact policy (resources/models/web-policy): the `default` recipe of
# `lab train policy` (oracle episodes on training seeds 0-189 of the nine training families, tier 1,
# then SFT of the copying policy), then copies the model files into resources/.
set -euo pipefail
cd "$(dirname "$0")/.."
LAB=${LAB:-.lab}
npx tsx main/cli/index.ts --lab "$LAB" train policy --preset default --out "$LAB/policies/web-policy"
mkdir -p resources/models/web-policy
for f in model.json weights.bin tokenizer.json policy.json train-log.jsonl runs.jsonl; do
  cp "$LAB/policies/web-policy/$f" resources/models/web-policy/
done
echo "copied to resources/models/web-policy"
