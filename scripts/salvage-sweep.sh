#!/usr/bin/env bash
# The Salvage-DS lever sweep on the state yardstick (issue 42): configurations trained from an
# experiment's SFT policy on the training side of its mined states (--heldout-share), each judged
# with `lab bench states` against the SFT policy on the held-out side, the trained side and routine
# states. No test or held-out-family evaluation runs here: the configuration for the experiment's
# Salvage-DS stages is chosen from these figures, committed, and only then evaluated.
#
# The SFT policy is measured once (sft.json) and every variant is paired with it (--baseline).
# Each step is skipped when its output exists, so the script continues after a stop; a variant
# stopped mid-training resumes from its checkpoint.
#
# Usage: LAB_DIR=/path/to/lab EXP=full4 MINED=<first rollout eval id> bash scripts/salvage-sweep.sh [VARIANT ...]
#   (no VARIANT: all of them, in the order below)
set -euo pipefail
cd "$(dirname "$0")/.."
LAB=${LAB_DIR:?set LAB_DIR to the lab holding the experiment}
EXP=${EXP:-full4}
MINED=${MINED:?set MINED to the id of the evaluation whose mining.json holds the mined states}
SHARE=${SHARE:-0.3}
SFT=$LAB/experiments/$EXP/policies/sft-reflect
OUT=${OUT:-$LAB/sweeps/$EXP}
MAX_STATES=${MAX_STATES:-200}
mkdir -p "$OUT"
lab() { node --import tsx main/cli/index.ts --lab "$LAB" "$@"; }
bench=(bench states --mined "$MINED" --heldout-share "$SHARE" --max-states "$MAX_STATES" --json)

# Each variant: its name, then its flags on top of `lab train salvage`'s defaults.
declare -A VARIANTS=(
  # full3's configuration (30 iterations x 4 states, 2 updates each at 3e-5), on the new states.
  [full3]="--iterations 30 --states-per-iter 4"
  # Hundreds of groups and updates that move: 40 x 8 states, 1e-4 after a 10-update warm-up.
  [wide-lr1e4]="--iterations 40 --states-per-iter 8 --lr 1e-4 --warmup 10"
  # The same at 3e-4 after a 20-update warm-up (full3's 3e-4 had none and broke the policy in one step).
  [wide-lr3e4]="--iterations 40 --states-per-iter 8 --lr 3e-4 --warmup 20"
  # 1e-4 with a stronger anchor and hotter samples (more mixed groups).
  [wide-lr1e4-hot]="--iterations 40 --states-per-iter 8 --lr 1e-4 --warmup 10 --temperature 1.3 --anchor-coef 1"
  # 3e-4 moved held-out critical states +10.8 points but cost routine states 17.6: hold them with
  # more routine states in the mix, or with a larger KL weight.
  [wide-lr3e4-routine]="--iterations 40 --states-per-iter 8 --lr 3e-4 --warmup 20 --routine-share 0.5"
  [wide-lr3e4-kl]="--iterations 40 --states-per-iter 8 --lr 3e-4 --warmup 20 --beta 0.2"
  # Where the forgetting comes from: the anchor alone (no group passes a contrast gate of spread 99,
  # so every group is anchored on its reference action) against the policy gradient alone (rejected
  # groups dropped), each at wide-lr3e4's schedule.
  [anchor-only]="--iterations 40 --states-per-iter 8 --lr 3e-4 --warmup 20 --min-spread 99"
  [pg-only]="--iterations 40 --states-per-iter 8 --lr 3e-4 --warmup 20 --drop-rejected"
)
ORDER=(full3 wide-lr3e4 wide-lr1e4 wide-lr3e4-routine wide-lr3e4-kl anchor-only pg-only wide-lr1e4-hot)
[ $# -gt 0 ] && ORDER=("$@")

[ -f "$OUT/sft.json" ] || lab "${bench[@]}" --policy "$SFT" --out "$OUT/sft.json" > /dev/null
for name in "${ORDER[@]}"; do
  flags=${VARIANTS[$name]:?unknown variant $name}
  read -r -a f <<< "$flags"
  # Trained unless its result says it finished (a stopped run resumes from its checkpoint).
  if ! grep -q '"cancelled": false' "$OUT/$name.train.json" 2>/dev/null; then
    lab train salvage --policy "$SFT" --mined "$MINED" --heldout-share "$SHARE" --out "$OUT/$name" "${f[@]}" --json > "$OUT/$name.train.json"
  fi
  [ -f "$OUT/$name.json" ] || lab "${bench[@]}" --baseline "$OUT/sft.json" --policy "$OUT/$name" --out "$OUT/$name.json" > /dev/null
  echo "$name: done ($OUT/$name.json)"
done
