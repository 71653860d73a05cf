#!/usr/bin/env bash
# Reproduces the shipped compact policy (resources/models/web-policy): the recipe
# `lab train policy --preset wide` (oracle episodes on training seeds 0-249 of the nine training
# families, tier 1, then 2,000 SFT steps of the copying policy, 3 blocks of width 128, with element thoughts; about 1.5 hours
# on two cores), then copies the model files into resources/.
set -euo pipefail
cd "$(dirname "$0")/.."
LAB=${LAB:-.lab}
npx tsx main/cli/index.ts --lab "$LAB" train policy --preset wide --out "$LAB/policies/web-policy"
mkdir -p resources/models/web-policy
for f in model.json weights.bin tokenizer.json policy.json train-log.jsonl runs.jsonl; do
  cp "$LAB/policies/web-policy/$f" resources/models/web-policy/
done
echo "copied to resources/models/web-policy"
