"""Moves, not boards, on the held-out printed look: whole games replayed turn by turn.

``python -m lab.printed_turns [--tables 8] [--games 2] [--turns 12] [--first 940] [--json]``:
each of ``--tables`` printed tables (``lab.synth.printed_look``, fitted on by no net or gate)
is calibrated on its empty board (``automa-vision calibrate``) and taught with ``--teach``
photos of other games (``automa-vision adapt``), as a player sets it up. Then ``--games`` games
are played on it, ``--turns`` turns each: the companies take turns, and each turn makes one
legal map change of the mover's (``automa.barrage.human_moves``: a kind of move drawn first,
build, production, Water Management or one that changes nothing, then one of its moves), the
table is photographed after it, and the page's way of reading a turn ranks the mover's moves
(``web.barrage.game.rank_turn``: the frame read against the empty board, the game's map
before the turn, the boxes whose picture changed since the previous photo). Nothing is
carried wrong from a turn to the next: the players confirm or correct every turn.

Printed per kind of turn: the share whose best move is exactly the turn (confirmed with one
tap), among the three the page offers (one tap more), and the rest, which need a correction by
hand; of the wrong best moves, how many the page flags (a slot no legal move with it explains).
And as if each turn were an Automa's instruction, which the page checks done on the table
(``web.barrage.game.waiting_for``: the reading, held to the game, is exactly the map the
instruction leads to, nothing hidden): the share it sees done at once ("Done" tapped for the rest).
"""
from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from automa.barrage.human_moves import BUILDS, HumanMove, human_moves
from automa.barrage.state import GameState
from calibration.adapt import adapt, calibrate
from vision.barrage.board_state import MapState
from vision.barrage.changes import diff
from vision.barrage.reference_reading import ReferenceReader
from vision.slot_change import compare
from vision.stability import MotionDetector, StabilityFilter
from web.barrage.game import instruction_seen, map_of, rank_turn

from .reference_tables import TableShots, add_table_options, evaluated, light_words
from .turn_eval import listed

FIRST_SEED = 940                    # the printed tables printed_eval reads (900.. and 920.. chose its settings)
KINDS = ("build", "production", "water", "none")


def draw_move(known: MapState, mover: str, rng: random.Random) -> HumanMove:
    """A kind of move the mover can make (builds, productions, Water Management, one that
    changes nothing), then one of its moves, each at random."""
    moves = human_moves(known, mover)
    by_kind: dict[str, list[HumanMove]] = {}
    for m in moves:
        by_kind.setdefault(kind_of(m), []).append(m)
    kind = rng.choice(sorted(by_kind))
    return rng.choice(by_kind[kind])


def kind_of(move: HumanMove) -> str:
    return "build" if move.kind in BUILDS else move.kind


def read_afresh(reader: ReferenceReader, frame, companies: list[str]):
    """One frame read alone: no still spell carried over from the frame before."""
    reader.pipeline.motion, reader.pipeline.stability = MotionDetector(), StabilityFilter()
    return reader.read(frame, companies)


def play(shots: TableShots, reader: ReferenceReader, start: GameState, turns: int, rng: random.Random,
         game: int) -> list[dict]:
    """``turns`` turns from ``start`` on ``shots``' table, each ranked as the page ranks it;
    ``game`` numbers the game on the table (its pieces' places, its photos' noise)."""
    shot = 1000 * game
    state = start.copy()
    movers = list(state.turn_order)
    before = read_afresh(reader, shots.picture(state, shot, game)[0], shots.companies)
    out = []
    for t in range(turns):
        mover = movers[t % len(movers)]
        known = map_of(state)
        move = draw_move(known, mover, rng)
        after_state = state.copy()
        move.apply(after_state)
        frame, _ = shots.picture(after_state, shot + t + 1, game)
        after = read_afresh(reader, frame, shots.companies)
        made = diff(known, map_of(after_state))
        row = {"kind": kind_of(move), "registered": after.map is not None and before.view is not None}
        if row["registered"]:
            pictures = compare(reader.pipeline.profile.layout, before.view, after.view, after.camera)
            ranking = rank_turn(known, after.map, mover, pictures)
            right = [listed(known, s.move) == made for s in ranking.offered()]
            # the page's check of an Automa's instruction (waiting_for), this turn taken as one
            held = instruction_seen(known, map_of(after_state), after.map, mover, pictures)
            row |= {"first": right[0], "offered": any(right), "flagged": not right[0] and bool(ranking.unexplained),
                    "confidence": ranking.best.confidence,
                    "seen_done": not diff(held, map_of(after_state)) and not held.unknown}
        out.append(row)
        state, before = after_state, after
    return out


def evaluate(tables: int, games: int, turns: int, teach: int, work: Path, first: int = FIRST_SEED,
             seed: int = 0, exposure: float | tuple[float, float, float] = 1.0,
             taught_at_calibration: bool = False) -> dict:
    rows: list[dict] = []
    rng = random.Random(seed)
    for table in range(first, first + tables):
        shots = TableShots(table, printed=True, exposure=exposure)
        folder = work / f"table{table}"
        calibrate(shots.empty(), folder)
        teacher = shots.teacher(taught_at_calibration)
        adapt(folder, [(image, state) for image, _, state in (teacher.frame(k) for k in range(1, teach + 1))])
        reader = ReferenceReader.load(folder)
        for g in range(games):
            start = shots.state(teach + 1 + g)
            rows += play(shots, reader, start, turns, rng, game=g + 1)
    return summarise(rows) | {"first": first, "tables": tables, "games": tables * games, "teach": teach,
                              "exposure": exposure, "taught_at_calibration": taught_at_calibration}


def summarise(rows: list[dict]) -> dict:
    out: dict = {"turns": len(rows)}
    for kind in (*KINDS, "all"):
        mine = [r for r in rows if kind in ("all", r["kind"])]
        read = [r for r in mine if r["registered"]]
        if not mine:
            continue
        first = sum(r["first"] for r in read)
        offered = sum(r["offered"] for r in read)
        out[kind] = {"turns": len(mine), "not_registered": len(mine) - len(read),
                     "first_pct": round(100 * first / len(mine), 1),
                     "offered_pct": round(100 * offered / len(mine), 1),
                     "correction_pct": round(100 * (len(mine) - offered) / len(mine), 1),
                     "wrong_first": len(mine) - first,
                     "wrong_but_flagged": sum(r.get("flagged", False) for r in read),
                     "seen_done_pct": round(100 * sum(r.get("seen_done", False) for r in read) / len(mine), 1)}
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_table_options(p, tables=8, first=FIRST_SEED)
    p.add_argument("--games", type=int, default=2, help="games played on each table")
    p.add_argument("--turns", type=int, default=12, help="turns of each game")
    p.add_argument("--seed", type=int, default=0, help="seed of the moves drawn")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    out = evaluated(lambda work: evaluate(args.tables, args.games, args.turns, args.teach, work, args.first, args.seed,
                                          args.exposure, args.taught_at_calibration))
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{out['turns']} turns of {out['games']} games on {out['tables']} printed tables (seeds {out['first']}..), "
          f"each table calibrated and taught with {out['teach']} photos, {light_words(out)}; {out['seconds']} s")
    for kind in (*KINDS, "all"):
        if kind in out:
            m = out[kind]
            print(f"{kind:>10}: {m['turns']} turns, best move right {m['first_pct']} %, among the three offered "
                  f"{m['offered_pct']} %, a correction by hand {m['correction_pct']} %; "
                  f"{m['wrong_but_flagged']} of {m['wrong_first']} wrong best moves flagged; "
                  f"as an Automa's instruction, seen done at once {m['seen_done_pct']} %")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
