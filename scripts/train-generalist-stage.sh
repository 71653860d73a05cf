#!/usr/bin/env bash
# The generalist stage (issue 44): fine-tunes a policy (INIT, default the shipped policy) on oracle
# episodes of everything the workbench can train on at once, so that no one kind of page takes
# the model over (the MiniWoB++ stage alone, 70% MiniWoB++, cost held-out success):
#   - MiniWoB++: the tasks of the 56-task set that have an oracle, MINIWOB_SEEDS training seeds each;
#   - the nine original training families at tier 1 and tier 2 (tier 2 is trained for, not only reported;
#     their pages vary per seed since 2026-12-07);
#   - the four families whose wording, order and layout vary per seed (forum, bank, settings, docs),
#     tiers 1 and 2;
#   - the two drills: directory (navigation) and factbook (reading);
#   - recoveries: the noisy expert on the thirteen training families with its mistakes labelled, so
#     the dataset keeps the page a wrong click or a detour led to and the way back, not the mistake.
# Then one dataset of the lab's successful oracle and noisy episodes and STEPS SFT steps from INIT
# under the shipped policy's prompt settings.
# Resumable after any stop: every collection is a named run (`lab collect --run-id`, named after its
# seed count where a knob sets it; continued when it exists), the dataset is frozen once (skipped
# when the SFT job has started) and SFT resumes from its last checkpoint. Run it in a lab of its
# own: its dataset takes every oracle and noisy episode of the lab.
# Usage: MINIWOB=/path/to/miniwob-plusplus LAB=.lab-generalist bash scripts/train-generalist-stage.sh
set -euo pipefail
cd "$(dirname "$0")/.."
LAB=${LAB:-.lab-generalist}
MINIWOB=${MINIWOB:?set MINIWOB to a local checkout of Farama-Foundation/miniwob-plusplus}
INIT=${INIT:-resources/models/web-policy}
OUT=${OUT:-$LAB/policies/generalist}
MINIWOB_SEEDS=${MINIWOB_SEEDS:-30}
STEPS=${STEPS:-1400}
NINE_T1_SEEDS=${NINE_T1_SEEDS:-30}
LR=${LR:-5e-4}
lab() { npx tsx main/cli/index.ts --lab "$LAB" "$@"; }
oracle=(--agent oracle --retries 0 --reflect none --parallel 2)
nine=shop,flights,webmail,hotels,jobs,calendar,realestate,compare,tickets
varied=forum,bank,settings,docs
tasks=$(npx tsx scripts/miniwob-oracle-tasks.ts)
lab collect --run-id "gen-miniwob-s$MINIWOB_SEEDS" --miniwob "$MINIWOB" --tasks "$tasks:train" "${oracle[@]}" --seeds "$MINIWOB_SEEDS"
lab collect --run-id "gen-nine-t1-s$NINE_T1_SEEDS" --tasks "$nine:train" "${oracle[@]}" --tier 1 --seeds "$NINE_T1_SEEDS"
lab collect --run-id gen-nine-t2 --tasks "$nine:train" "${oracle[@]}" --tier 2 --seeds 15
lab collect --run-id gen-varied-t1 --tasks "$varied:train" "${oracle[@]}" --tier 1 --seeds 50
lab collect --run-id gen-varied-t2 --tasks "$varied:train" "${oracle[@]}" --tier 2 --seeds 25
lab collect --run-id gen-directory --tasks directory:train "${oracle[@]}" --seeds 120
lab collect --run-id gen-factbook-t1 --tasks factbook:train "${oracle[@]}" --tier 1 --seeds 120
lab collect --run-id gen-factbook-t2 --tasks factbook:train "${oracle[@]}" --tier 2 --seeds 80
lab collect --run-id gen-noisy --tasks "$nine,$varied:train" --agent noisy --label-mistakes --retries 0 --reflect none --parallel 2 --tier 1 --seeds 12
if [ ! -f "$OUT/train-state.json" ]; then
  # A lab that collected more seeds of a family before holds both runs; duplicates are dropped.
  lab datasets create --name generalist --agent oracle --agent noisy --status success --split 0.97,0.03,0 \
    --description "oracle, training seeds: MiniWoB++ 56-task set with an oracle x $MINIWOB_SEEDS; nine families x $NINE_T1_SEEDS (tier 1) + 15 (tier 2); forum, bank, settings, docs x 50 (tier 1) + 25 (tier 2); directory 120; factbook 120 (tier 1) + 80 (tier 2); noisy expert, mistakes labelled, thirteen families x 12 (tier 1)"
fi
lab train sft --dataset generalist --init "$INIT" --out "$OUT" --thought element --element-order task-layout --max-text-chars 100 \
  --answer cite --mark-values --copy-next --steps "$STEPS" --lr "$LR" --min-lr 5e-5 --warmup 30 --eval-every 200 --checkpoint-every 50
