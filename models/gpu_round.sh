#!/bin/bash
# One GPU round of fine-tunes, as models/MODEL_CARD.md's GPU rounds ran them: fresh images, half
# drawn like the earlier rounds and half under every light, finish, webcam processing and piece
# shape (since 2026-11-26, twelfth session: the rounds before had blocks only), then
# the slot model, the dam-height reader, the specialist and the lake counter fine-tuned side by
# side from the shipped files. Each fine-tune writes its file and report to $OUT (eight files,
# nothing else) as soon as it ends, so a run stopped at a time limit still leaves what finished;
# the logs stay beside the images. Then: python -m models.soup, and python -m models.quantize for
# the slot model's 8-bit file.
#
#   SEED=60 NA=3000 NB=3000 OUT=out/gpu60 bash models/gpu_round.sh
#
# SEED: the round's seed (images 10^6 x SEED + 100,000+ and 150,000+, validation + 200,000+ and
# 250,000+); NA, NB: training images of each half; DEV: the torch device (cuda); E1, E2: epochs
# of the slot model and reader, and of the others; SCRATCH=1: train each net from random weights
# on the same images instead of fine-tuning the shipped file, at each command's default learning
# rate (untried: the rounds so far fine-tuned; give it more images and epochs than a fine-tune);
# READER_WIDTHS=32,64,128,192 READER_LAYERS=1 (with SCRATCH=1): the dam-height reader's conv
# trunk that wide, with that many attention layers (train-heights --widths --layers; the reader
# underfits at the shipped 24,48,96,128 and gains little from reading the other dams,
# docs/benchmarks.md, "Why the reader misses raised dams"; this shape keeps the six files
# under 5 MB). Needs the training extra (torch).
set -u
S=${SEED:-60}; NA=${NA:-3000}; NB=${NB:-3000}; DEV=${DEV:-cuda}; E1=${E1:-12}; E2=${E2:-8}; SCRATCH=${SCRATCH:-0}
READER_WIDTHS=${READER_WIDTHS:-}; READER_LAYERS=${READER_LAYERS:-}
if [ -n "$READER_WIDTHS$READER_LAYERS" ] && [ "$SCRATCH" != 1 ]; then
  echo "READER_WIDTHS and READER_LAYERS need SCRATCH=1: a fine-tune keeps its file's shape" >&2; exit 2
fi
OUT=${OUT:-out/gpu$S}; DATA=${DATA:-data/gpu$S}
AV="python3 -m automa.cli"
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
rm -rf "$DATA" "$DATA-b"
mkdir -p "$OUT" "$DATA/logs"
T0=$(date +%s)
log() { echo "[$(( $(date +%s) - T0 ))s] $*" | tee -a "$DATA/logs/round.log"; }
MIX="--size 640x480 --size 1280x720 --size 1280x960 --size 1920x1080 --placement shift --placement turn"
MORE="--lighting one --lighting lamps --lighting low --finish matte --finish glossy --finish clear --processing none --processing webcam --shapes blocks --shapes moulded"

log "images: $NA + $NB for training, 30 + 30 for validation, seed $S"
$AV synth --n "$NA" --seed "${S}100000" --out "$DATA/train" $MIX --jobs 8 > "$DATA/logs/synth_a.log" 2>&1 &
$AV synth --n "$NB" --seed "${S}150000" --out "$DATA-b/train" $MIX $MORE --jobs 8 > "$DATA/logs/synth_b.log" 2>&1 &
$AV synth --n 30 --seed "${S}200000" --out "$DATA/val" $MIX --jobs 2 > /dev/null 2>&1 &
$AV synth --n 30 --seed "${S}250000" --out "$DATA-b/val" $MIX $MORE --jobs 2 > /dev/null 2>&1 &
wait
for part in train val; do      # one folder of both halves; the second half's files named bNNNN.*
  for f in "$DATA-b/$part"/*; do mv "$f" "$DATA/$part/b$(basename "$f")"; done
done
rm -rf "$DATA-b"
log "images done: $(ls "$DATA/train" | wc -l) training files, $(ls "$DATA/val" | wc -l) validation files"

C="--data $DATA --n-train $((NA + NB)) --n-val 60 --seed $S --device $DEV --jobs 4 $MIX $MORE"
fine_tune() {   # name, the shipped file it starts from, then the training command and its own arguments
  local name=$1 start=$2; shift 2
  if [ "$SCRATCH" = 1 ]; then start=""; else start="--init $start --lr 5e-4"; fi
  $AV "$@" $start $C --out "$OUT/$name$S.onnx" > "$DATA/logs/$name.log" 2>&1
  log "$name: exit $? ($(tail -n 1 "$DATA/logs/$name.log"))"
}
fine_tune slots models/barrage_slots.onnx train --epochs "$E1" &
fine_tune heights models/barrage_dam_heights.onnx train-heights --epochs "$E1" ${READER_WIDTHS:+--widths "$READER_WIDTHS"} \
  ${READER_LAYERS:+--layers "$READER_LAYERS"} &
fine_tune specialist models/barrage_specialist.onnx train --kinds conduit,powerhouse --epochs "$E2" &
fine_tune lake models/barrage_lake_drops.onnx train-drops --kind lake --epochs "$E2" &
wait
log "all done"
