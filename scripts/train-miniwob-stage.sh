#!/usr/bin/env bash
# The MiniWoB++ stage: fine-tunes a policy (INIT, default the shipped policy) on oracle episodes of
# the MiniWoB++ tasks of the 56-task set that have an oracle (51; main/tasks/miniwob/oracles),
# on their training seeds, mixed with oracle episodes of the nine training families and the
# factbook drill so that the built-in sites are not forgotten (46 minutes on two cores shared with
# another job, 2026-12-07: 17 collecting, 29 training). Run in a lab of its own: its dataset
# takes every oracle episode of the lab.
#   1. oracle episodes on training seeds: MINIWOB_SEEDS per MiniWoB++ task (default 20), 30 per
#      training family at tier 1, factbook 200 at tier 1;
#   2. one dataset of those episodes;
#   3. STEPS SFT steps (default 600) from INIT under the shipped policy's prompt settings.
# Then `lab eval --miniwob DIR --seeds 5` measures it on BrowserGym's seeds 10000-10004, which no
# training seed reaches (MiniWoB++ training seeds are the families' training range, 0-9999).
# Resumable: named collection runs (`lab collect --run-id`), the dataset frozen once, SFT resumed.
# Usage: MINIWOB=/path/to/miniwob-plusplus LAB=.lab-miniwob bash scripts/train-miniwob-stage.sh
set -euo pipefail
cd "$(dirname "$0")/.."
LAB=${LAB:-.lab-miniwob}
MINIWOB=${MINIWOB:?set MINIWOB to a local checkout of Farama-Foundation/miniwob-plusplus}
INIT=${INIT:-resources/models/web-policy}
OUT=${OUT:-$LAB/policies/miniwob-stage}
MINIWOB_SEEDS=${MINIWOB_SEEDS:-20}
STEPS=${STEPS:-600}
lab() { npx tsx main/cli/index.ts --lab "$LAB" "$@"; }
oracle=(--agent oracle --retries 0 --reflect none --parallel 2)
tasks=$(npx tsx scripts/miniwob-oracle-tasks.ts)
lab collect --run-id "mw-miniwob-s$MINIWOB_SEEDS" --miniwob "$MINIWOB" --tasks "$tasks:train" "${oracle[@]}" --seeds "$MINIWOB_SEEDS"
lab collect --run-id mw-nine --tasks shop,flights,webmail,hotels,jobs,calendar,realestate,compare,tickets:train "${oracle[@]}" --tier 1 --seeds 30
lab collect --run-id mw-factbook --tasks factbook:train "${oracle[@]}" --tier 1 --seeds 200
[ -f "$OUT/train-state.json" ] || lab datasets create --name miniwob-stage --agent oracle --status success --split 0.97,0.03,0 \
  --description "oracle, training seeds: 51 MiniWoB++ tasks of the 56-task set x $MINIWOB_SEEDS; nine training families x 30 (tier 1); factbook 200 (tier 1)"
lab train sft --dataset miniwob-stage --init "$INIT" --out "$OUT" --thought element --element-order task-layout --max-text-chars 100 \
  --answer cite --mark-values --copy-next --steps "$STEPS" --lr 5e-4 --min-lr 5e-5 --warmup 30 --eval-every 200 --checkpoint-every 50
