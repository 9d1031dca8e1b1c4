#!/usr/bin/env bash
# A Slurm job array over a collection: each array task reads one shard of
# the inputs with `scantext batch`, so N tasks cover every input exactly once
# and their outputs merge by the folder tree alone (docs/batch.md).
#
#   sbatch --array=1-N Tools/run/slurm-batch.sh OUT INPUT... [batch options]
#
# OUT is the output folder (shared by the tasks: each writes its own report,
# scantext-report-I-of-N.jsonl); INPUTs are files, folders or
# --manifest FILE; other options (--format json,alto, --lang deu) go to
# `scantext batch`. Resubmit the same array to finish what a failed or
# killed task left: done inputs are skipped. $SCANTEXT names the binary
# (default: scantext on PATH).
#SBATCH --job-name=scantext-batch
#SBATCH --cpus-per-task=1
#SBATCH --output=scantext-batch-%A_%a.out
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: sbatch --array=1-N $0 OUT INPUT... [scantext batch options]" >&2
  exit 64
fi
: "${SLURM_ARRAY_TASK_ID:?run this script as a job array: sbatch --array=1-N}"
out=$1
shift
# The array's ids, a contiguous range (1-N, or 0-(N-1)), are the shards
# 1..N (--shard counts from 1).
index=$((SLURM_ARRAY_TASK_ID - SLURM_ARRAY_TASK_MIN + 1))
count=$((SLURM_ARRAY_TASK_MAX - SLURM_ARRAY_TASK_MIN + 1))
exec "${SCANTEXT:-scantext}" batch "$@" --out-dir "$out" \
  --shard "$index/$count" --jobs "${SLURM_CPUS_PER_TASK:-1}" -q
