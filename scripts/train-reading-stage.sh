#!/usr/bin/env bash
# The reading stage: fine-tunes a policy (default: the shipped one) on oracle episodes of the nine
# training families plus the factbook reading drill, with value answers (`--answer value`), about
# 35 minutes on two cores:
#   1. oracle episodes, tier 1, training seeds: 80 per training family, 600 factbook; 240 factbook
#      at tier 2 (records reached by search);
#   2. one dataset of every successful episode;
#   3. SFT from INIT under the shipped policy's prompt settings, answers learned as the value alone.
# Usage: LAB=.lab INIT=resources/models/web-policy OUT=.lab/policies/reading bash scripts/train-reading-stage.sh
set -euo pipefail
cd "$(dirname "$0")/.."
LAB=${LAB:-.lab}
INIT=${INIT:-resources/models/web-policy}
OUT=${OUT:-$LAB/policies/reading}
STEPS=${STEPS:-600}
lab() { npx tsx main/cli/index.ts --lab "$LAB" "$@"; }
oracle=(--agent oracle --retries 0 --reflect none --tier 1 --parallel 2)
lab collect --tasks shop,flights,webmail,hotels,jobs,calendar,realestate,compare,tickets:train "${oracle[@]}" --seeds 80
lab collect --tasks factbook:train "${oracle[@]}" --seeds 600
lab collect --tasks factbook:train --agent oracle --retries 0 --reflect none --tier 2 --parallel 2 --seeds 240
# Oracle episodes only: an evaluation run in the same lab records the policy's test and held-out episodes too.
agents=(); for f in shop flights webmail hotels jobs calendar realestate compare tickets factbook; do agents+=(--agent "oracle:$f"); done
lab datasets create --name reading-oracle "${agents[@]}" --status success --split 0.97,0.03,0 --description "oracle, tier 1: nine training families x 80 seeds, factbook 600 (+240 at tier 2)"
lab train sft --dataset reading-oracle --init "$INIT" --out "$OUT" --thought element --element-order task-layout --max-text-chars 100 \
  --answer value --steps "$STEPS" --lr 5e-4 --min-lr 5e-5 --warmup 30 --eval-every 200 --checkpoint-every 50
