#!/usr/bin/env bash
# The reading stage: fine-tunes a policy (INIT: the shipped policy's stage 3, which
# scripts/train-shipped-policy.sh passes; the policy shipped before 2026-12-05's late evening is
# that stage, `git show 4ec5daa:resources/models/web-policy/...`) on oracle episodes of the nine
# training families plus the factbook reading drill (main/tasks/families/factbook), about 50 minutes
# on two cores; run in a lab of its own (its dataset takes every oracle episode of those families):
#   1. oracle episodes on training seeds: 80 per training family at tier 1; factbook 600 at tier 1
#      (records linked from home), 240 at tier 2 (reached by search) and 300 at tier 3 (two records
#      compared, both by search);
#   2. one dataset of those oracle episodes (not of the policy's own evaluation episodes, which a
#      lab holds too);
#   3. 800 SFT steps from INIT under the shipped policy's prompt settings, plus SFT_EXTRA (the
#      shipped policy: SFT_EXTRA="--answer cite --mark-values --copy-next").
# The drill is its third version since 2026-12-05's late evening (eight question wordings); the
# runs on its second version (docs/benchmarks.md, "Value marks") are reproduced from commit
# 4ec5daa, those on its first from commit 063803a.
# Resumable: the collections are named runs (`lab collect --run-id`, continued when they exist) and
# SFT resumes from its last checkpoint.
# Usage: LAB=.lab-reading INIT=<stage 3 policy> OUT=.lab-reading/policies/reading bash scripts/train-reading-stage.sh
set -euo pipefail
cd "$(dirname "$0")/.."
LAB=${LAB:-.lab-reading}
INIT=${INIT:?set INIT to the policy folder to fine-tune, the shipped policy stage 3}
OUT=${OUT:-$LAB/policies/reading}
read -r -a extra <<< "${SFT_EXTRA:-}"
lab() { npx tsx main/cli/index.ts --lab "$LAB" "$@"; }
oracle=(--agent oracle --retries 0 --reflect none --parallel 2)
lab collect --run-id reading-nine --tasks shop,flights,webmail,hotels,jobs,calendar,realestate,compare,tickets:train "${oracle[@]}" --tier 1 --seeds 80
lab collect --run-id reading-factbook-t1 --tasks factbook:train "${oracle[@]}" --tier 1 --seeds 600
lab collect --run-id reading-factbook-t2 --tasks factbook:train "${oracle[@]}" --tier 2 --seeds 240
lab collect --run-id reading-factbook-t3 --tasks factbook:train "${oracle[@]}" --tier 3 --seeds 300
agents=(); for f in shop flights webmail hotels jobs calendar realestate compare tickets factbook; do agents+=(--agent "oracle:$f"); done
if [ ! -f "$OUT/train-state.json" ]; then # frozen once: a rerun after a stop resumes SFT on the same version
  lab datasets create --name reading-oracle "${agents[@]}" --status success --split 0.97,0.03,0 \
    --description "oracle, training seeds: nine training families x 80 (tier 1); factbook 600 (tier 1), 240 (tier 2), 300 (tier 3)"
fi
lab train sft --dataset reading-oracle --init "$INIT" --out "$OUT" --thought element --element-order task-layout --max-text-chars 100 \
  --answer message --steps 800 --lr 5e-4 --min-lr 5e-5 --warmup 30 --eval-every 200 --checkpoint-every 50 ${extra[@]+"${extra[@]}"}
