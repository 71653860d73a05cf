#!/usr/bin/env bash
# Issue 44's evaluations of one policy, each written as its report JSON into OUTDIR (greedy,
# guided, `lab eval`'s Wilson 95% intervals):
#   test-t1.json     tier-1 test seeds of the nine original training families, 2 runs x 10 seeds (180)
#   tier2.json       tier 2 of the same families, 5 seeds each (45)
#   varied-t1.json   tier-1 test seeds of forum, bank, settings and docs, 10 seeds each (40)
#   heldout.json     the held-out families (restaurants, wiki), HELDOUT_RUNS x 15 seeds x 2
#                    (default 18 runs: 540 episodes, the issue's yardstick)
#   miniwob.json     MiniWoB++'s 56-task set on BrowserGym's seeds 10000-10004 (with MINIWOB set)
# A report already in OUTDIR is kept, so a stopped suite goes on where it stopped.
# Usage: [MINIWOB=DIR] [HELDOUT_RUNS=18] bash scripts/eval-policy-suite.sh POLICY OUTDIR
set -euo pipefail
cd "$(dirname "$0")/.."
POLICY=${1:?usage: eval-policy-suite.sh POLICY OUTDIR}
OUTDIR=${2:?usage: eval-policy-suite.sh POLICY OUTDIR}
LAB=${LAB:-$OUTDIR/lab}
HELDOUT_RUNS=${HELDOUT_RUNS:-18}
mkdir -p "$OUTDIR"
nine=shop,flights,webmail,hotels,jobs,calendar,realestate,compare,tickets
one() { # name, then eval flags
  local name=$1; shift
  if [ -s "$OUTDIR/$name.json" ]; then echo "$name: kept $OUTDIR/$name.json" >&2; return; fi
  npx tsx main/cli/index.ts --lab "$LAB" eval --policy "$POLICY" --parallel 2 --json "$@" > "$OUTDIR/$name.json.part"
  mv "$OUTDIR/$name.json.part" "$OUTDIR/$name.json"
  node -e "const r=JSON.parse(require('fs').readFileSync(process.argv[1],'utf8'));const s=r.overall.success;console.log(process.argv[2]+': '+s.k+'/'+s.n+(r.miniwob?' (MiniWoB++ mean over the 56: '+(100*r.miniwob.set56.mean).toFixed(1)+'%)':''))" "$OUTDIR/$name.json" "$name"
}
one test-t1 --split test --tasks "$nine" --tier 1 --seeds 10 --runs 2
one tier2 --split test --tasks "$nine" --tier 2 --seeds 5
one varied-t1 --split test --tasks forum,bank,settings,docs --tier 1 --seeds 10
if [ -n "${MINIWOB:-}" ]; then one miniwob --miniwob "$MINIWOB" --seeds 5; fi
one heldout --split heldout --tier 1 --seeds 15 --runs "$HELDOUT_RUNS"
