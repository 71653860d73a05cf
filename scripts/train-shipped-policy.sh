#!/usr/bin/env bash
# Reproduces the shipped compact policy (resources/models/web-policy) in four stages, about 3.3
# hours on two cores:
#   1. `lab train policy --preset wide`: oracle episodes on training seeds 0-249 of the nine
#      training families (tier 1), then 2,000 SFT steps of the copying policy (3 blocks of width
#      128, element thoughts, `task` element order);
#   2. 1,000 steps fine-tuned from it (--init) with the `task-layout` element order and text runs
#      of up to 100 characters, lr 1e-3;
#   3. 600 more steps from stage 2 (lr 5e-4);
#   4. the reading stage (scripts/train-reading-stage.sh, in a lab of its own, $LAB-reading): 800
#      steps from stage 3 on the nine families plus the factbook reading drill, answers cited with
#      their value marks, the pointer's continuation bonus added (--copy-next).
# The shipped policy's stages 1-2 read flights episodes of the oracle before it sorted the results
# (2026-12-05); a fresh lab collects the sorting oracle's for every stage. Then the model files
# are copied into resources/.
set -euo pipefail
cd "$(dirname "$0")/.."
LAB=${LAB:-.lab}
lab() { npx tsx main/cli/index.ts --lab "$LAB" "$@"; }
lab train policy --preset wide --out "$LAB/policies/wide"
layout=(--dataset policy-recipe-wide --thought element --element-order task-layout --max-text-chars 100 --warmup 30 --eval-every 250 --checkpoint-every 50)
lab train sft "${layout[@]}" --init "$LAB/policies/wide" --out "$LAB/policies/layout" --steps 1000 --lr 1e-3 --min-lr 1e-4
lab train sft "${layout[@]}" --init "$LAB/policies/layout" --out "$LAB/policies/layout2" --steps 600 --lr 5e-4 --min-lr 5e-5
LAB="$LAB-reading" INIT="$LAB/policies/layout2" OUT="$LAB-reading/policies/web-policy" SFT_EXTRA="--answer cite --mark-values --copy-next" \
  bash scripts/train-reading-stage.sh
mkdir -p resources/models/web-policy
for f in model.json weights.bin tokenizer.json policy.json train-log.jsonl runs.jsonl; do
  cp "$LAB-reading/policies/web-policy/$f" resources/models/web-policy/
done
echo "copied to resources/models/web-policy"
