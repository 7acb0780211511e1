#!/bin/bash
# One GPU round, as models/MODEL_CARD.md's GPU rounds ran them: fresh images, half drawn like the
# earlier rounds and half under every light, finish, webcam processing and piece shape (since
# 2026-11-26, twelfth session: the rounds before had blocks only), half of that half late games
# with most dam spaces built (since 2026-11-27, twenty-third session), then the slot model, the
# dam-height reader, the specialist, the lake counter and the headstream counter trained side by
# side, each fine-tuned from its shipped file or (SCRATCH) from random weights. The headstream
# counter learns from images of its own (since 2026-11-27, twenty-fourth session), every look,
# half of their tiles wet (0-12 drops each): fine-tuned on the game's counts alone it forgot the
# wet tiles' (docs/benchmarks.md, "Late games, and a seventh GPU round"). The logs stay beside
# the images. Then:
# python -m lab.training.soup for fine-tunes, and python -m lab.training.quantize for the slot model's 8-bit
# file.
#
#   SEED=60 NA=3000 NB=3000 OUT=out/gpu60 bash lab/training/gpu_round.sh
#
# SEED: the round's seed (images 10^6 x SEED + 100,000+ and 150,000+, validation + 200,000+ and
# 250,000+; the headstream counter's 300,000+ and 350,000+); NA, NB: training images of each
# half; NW: the headstream counter's (default 1500, 6000 tiles); DEV: the torch device (cuda); E1, E2: epochs
# of the slot model and reader, and of the others; E3: the reader's alone (default E1);
# HARD: the --hard-share of the slot model, the specialist and the lake counter, their epochs seeing
# again the crops or lakes they read worst (default 0.25: the slot model's since the twenty-sixth
# session, the others' since the twenty-seventh, whose CPU fine-tunes gained by it; 0 for none; the
# reader's and the headstream counter's CPU fine-tunes read worse with it, so they get none);
# SCRATCH: the nets trained from random weights on the same images instead of fine-tuned from
# the shipped file, at each command's default learning rate: 1 for all five, or a comma list of
# slots, heights, specialist, lake, headstream (give a net from random weights more epochs than a fine-tune);
# READERS (with heights in SCRATCH): the dam-height readers to train, one for each item,
# space-separated, WIDTHS/LAYERS: its conv trunk that wide, with that many attention layers
# (train-heights --widths --layers), written as heights$SEED-w<WIDTHS>-l<LAYERS>.onnx; the
# default is the shipped shape, 24,48,96,128/2. The reader underfits at the shipped shape and
# gains little from reading the other dams (docs/benchmarks.md, "Why the reader misses raised
# dams"); 32,64,128,192/1 keeps the six files under 5 MB. Each net writes its file and report
# to $OUT as soon as it ends (ten files with one reader), so a run stopped at a time limit
# still leaves what finished. Needs the training extra (torch).
# Time on an H200 (one call runs at most 600 s): NA=NB=3000 took 405-474 s with four nets; with
# two readers beside the other three (seed 64) the slot model was at its eighth of twelve epochs
# at 535 s, so give a round with more nets fewer images, or train the slot model in a second call.
set -u
S=${SEED:-60}; NA=${NA:-3000}; NB=${NB:-3000}; NW=${NW:-1500}; DEV=${DEV:-cuda}; E1=${E1:-12}; E2=${E2:-8}; E3=${E3:-$E1}; HARD=${HARD:-0.25}
NETS="slots heights specialist lake headstream"     # the nets a round trains, as SCRATCH names them
SCRATCH=${SCRATCH:-}; [ "$SCRATCH" = 1 ] && SCRATCH=${NETS// /,}
scratch() { case ",$SCRATCH," in *",$1,"*) return 0;; esac; return 1; }
for net in ${SCRATCH//,/ }; do  # a misspelt name would fine-tune that net unasked
  case " $NETS " in *" $net "*) ;;
    *) echo "SCRATCH: want 1 or nets among ${NETS// /,}, not $net" >&2; exit 2;; esac
done
READERS=${READERS:-}
if [ -n "$READERS" ] && ! scratch heights; then
  echo "READERS needs heights in SCRATCH: a fine-tune keeps its file's shape" >&2; exit 2
fi
[[ $HARD =~ ^(0(\.[0-9]+)?|1(\.0*)?)$ ]] ||     # the command refuses it too, but only after the images
  { echo "HARD: want a share from 0 to 1, not $HARD" >&2; exit 2; }
for shape in $READERS; do       # refused here, before any image is made, not after minutes of lease
  [[ $shape =~ ^[1-9][0-9]*(,[1-9][0-9]*){3}/[123]$ ]] ||
    { echo "READERS: want WIDTHS/LAYERS items such as 32,64,128,192/1, not $shape" >&2; exit 2; }
done
OUT=${OUT:-out/gpu$S}; DATA=${DATA:-data/gpu$S}
AV=${AV:-python3 -m automa_vision.cli}     # the commands (a test puts a recorder here)
export PYTHONUNBUFFERED=1 PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
rm -rf "$DATA" "$DATA-b" "$DATA-w"
mkdir -p "$OUT" "$DATA/logs"
T0=$(date +%s)
log() { echo "[$(( $(date +%s) - T0 ))s] $*" | tee -a "$DATA/logs/round.log"; }
MIX="--size 640x480 --size 1280x720 --size 1280x960 --size 1920x1080 --placement shift --placement turn"
WET="--headstreams game --headstreams wet"
MORE="--lighting one --lighting lamps --lighting low --finish matte --finish glossy --finish clear --processing none --processing webcam --shapes blocks --shapes moulded --games any --games late"

log "images: $NA + $NB for training, 30 + 30 for validation, seed $S"
$AV synth --n "$NA" --seed "${S}100000" --out "$DATA/train" $MIX --jobs 8 > "$DATA/logs/synth_a.log" 2>&1 &
$AV synth --n "$NB" --seed "${S}150000" --out "$DATA-b/train" $MIX $MORE --jobs 8 > "$DATA/logs/synth_b.log" 2>&1 &
$AV synth --n 30 --seed "${S}200000" --out "$DATA/val" $MIX --jobs 2 > /dev/null 2>&1 &
$AV synth --n 30 --seed "${S}250000" --out "$DATA-b/val" $MIX $MORE --jobs 2 > /dev/null 2>&1 &
$AV synth --n "$NW" --seed "${S}300000" --out "$DATA-w/train" $MIX $MORE $WET --jobs 4 > "$DATA/logs/synth_w.log" 2>&1 &
$AV synth --n 30 --seed "${S}350000" --out "$DATA-w/val" $MIX $MORE $WET --jobs 2 > /dev/null 2>&1 &
wait
for part in train val; do      # one folder of both halves; the second half's files named bNNNN.*
  for f in "$DATA-b/$part"/*; do mv "$f" "$DATA/$part/b$(basename "$f")"; done
done
rm -rf "$DATA-b"
log "images done: $(ls "$DATA/train" | wc -l) training files, $(ls "$DATA/val" | wc -l) validation files, $(ls "$DATA-w/train" | wc -l) for the headstream counter"

C="--data $DATA --n-train $((NA + NB)) --n-val 60 --seed $S --device $DEV --jobs 4 $MIX $MORE"
train_one() {   # net (as SCRATCH names it), file name, the shipped file a fine-tune starts from, then the
                # training command and its own arguments
  local net=$1 name=$2 start=$3; shift 3
  if scratch "$net"; then start=""; else start="--init $start --lr 5e-4"; fi
  $AV "$@" $start $C --out "$OUT/$name.onnx" > "$DATA/logs/$name.log" 2>&1
  log "$name: exit $? ($(tail -n 1 "$DATA/logs/$name.log"))"
}
train_one slots "slots$S" models/barrage_slots.onnx train --epochs "$E1" --hard-share "$HARD" &
if [ -n "$READERS" ]; then
  for shape in $READERS; do
    w=${shape%/*}; l=${shape#*/}
    train_one heights "heights$S-w${w//,/-}-l$l" "" train-heights --epochs "$E3" --widths "$w" --layers "$l" &
  done
else
  train_one heights "heights$S" models/barrage_dam_heights.onnx train-heights --epochs "$E3" &
fi
train_one specialist "specialist$S" models/barrage_specialist.onnx train --kinds conduit,powerhouse --epochs "$E2" \
  --hard-share "$HARD" &
train_one lake "lake$S" models/barrage_lake_drops.onnx train-drops --kind lake --epochs "$E2" --hard-share "$HARD" &
# The assignment holds for this call alone: the headstream counter reads its own images.
C="--data $DATA-w --n-train $NW --n-val 30 --seed $S --device $DEV --jobs 4 $MIX $MORE $WET" \
  train_one headstream "headstream$S" models/barrage_headstream_drops.onnx train-drops --kind headstream --epochs "$E2" &
wait
log "all done"
