"""How often the page lists exactly the move a player made: one turn per held-out image.

Each synthetic frame stands for the table just after a turn. The game knew the table
before it: the frame's true map less one structure of a company (a whole conduit,
powerhouse or bare dam, or a raised dam's top elevation), drawn at random; that company
built it, on its turn. The page reads the frame knowing the game's companies (rulings V4)
and lists the moves from what the game knew, the changes the rules never make put back
and a new piece taken as the builder's (``web.barrage.game.read_against``, rulings V3). A turn is
right when the list is exactly that move (with the drops a new dam holds). For comparison,
the same frames read blind and taken as read. Water counts: a drop misread is a wrong list.

Each frame also stands for the table after a production (``production_*`` figures), where
one exists that could have made it: a company drew drops from a dam of its own or a neutral
one through a conduit to its powerhouse, and they ran down the river (``before_a_production``).
Such a turn's drop moves are real: this shows whether the water rules (rulings V5) ever put
back water that did move. Likewise for a Water Management action (``water_*``): two drops put
on headstreams, or one that ran down the river into a dam (``before_water_management``); this
is where a phantom structure read on the turn makes rulings V7 put back real drops.

With ``--pairs``, a third way (``pictures_*``): the session also has the frame the game last
read the table from, rendered again from the image's seed with the map before the turn
(``lab.synth.pairs``), and a box whose picture has not changed keeps what the game knows
(rulings V8); ``pictures_*missed_but_asked`` counts the turns it reads as no move whose
pictures changed where the move was, which the page asks the players to check (``game.unread``).

Moves, not boards (``ranked_*``, and ``ranked_pictures_*`` with ``--pairs``): the legal moves of
the mover (``automa.barrage.human_moves``) ranked by the session's reading, held first to what the
game knows, with ``--pairs`` also by the boxes whose picture changed (``web.barrage.game.rank_turn``),
as the page offers them (``vision.barrage.move_ranking``). ``*exact``: the best move
is exactly the turn's; ``*top3``: the turn is among the three the page offers, one tap each (the
others need a correction by hand); ``*legal``: the turn is among the moves listed at all (a build
turn whose new dam holds water is not: a dam is built bare); ``*wrong_but_flagged``: the best move
is wrong and the page flags a slot no legal move with it explains.

For the page's two ways (``session_*``, ``pictures_*``), ``*wrong_but_asked`` counts the turns
listed wrong on which the page asks the players to check a slot of a move missed or listed
wrongly: a slot read unsure, breaking a rule or hidden (``game.to_check``), or one whose picture
changed on a turn read as no move; ``*asked_slots`` counts the slots it asks about, all turns.

    python -m lab.turn_eval data/heldout_random2 [--n 200] [--seed 0] [--pairs]
"""
from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
from dataclasses import replace
from pathlib import Path
from typing import Callable

from automa.barrage.data import barrage_map
from automa.barrage.human_moves import HumanMove
from automa.barrage.rules import production_systems
from automa.barrage.water import group_path, headstream_path
from lab.evaluate import synthetic_samples, truth_companies, truth_piece
from lab.synth.pairs import frame_before, table_of
from lab.vision_bench import FIXTURES
from vision.barrage.board_state import MapState, build_map
from vision.barrage.changes import Move, diff
from vision.barrage.move_ranking import Ranking
from vision.barrage.pipeline import Pipeline, Reading
from vision.reader import Flag, SlotReading
from vision.slot_change import Comparison, compare
from vision.stability import MotionDetector, StabilityFilter
from web.barrage.game import rank_turn, read_against, to_check, unread


def truth_map(truth: dict) -> MapState:
    """The map a synthetic image shows, from its ground truth: every slot read for sure,
    hidden or not, through the same ``build_map`` as the camera's readings."""
    return build_map([SlotReading(s["id"], s["kind"], None if s["kind"] == "headstream" else truth_piece(s),
                                  s["owner"], s["drops"], 1.0) for s in truth["slots"]])[0]


def before_the_turn(after: MapState, rng: random.Random) -> tuple[MapState, str] | None:
    """The map one company's build earlier, and that company; None when no company has built."""
    built = ([("dam", s, d.owner) for s, d in after.dams.items() if d.owner != "neutral"]
             + [("conduit", s, o) for s, o in after.conduits.items()]
             + [("powerhouse", s, o) for s, o in after.powerhouses.items()])
    if not built:
        return None
    kind, space, owner = rng.choice(sorted(built))
    before = after.copy()
    if kind == "dam" and after.dams[space].pieces > 1:
        before.dams[space] = replace(after.dams[space], pieces=after.dams[space].pieces - 1)
    elif kind == "dam":
        del before.dams[space]
    else:
        del (before.conduits if kind == "conduit" else before.powerhouses)[space]
    return before, owner


def before_a_production(after: MapState, rng: random.Random) -> tuple[MapState, str] | None:
    """The map one production earlier, and its producer; None when no production can have
    made ``after``. The producer drew ``k`` drops from a dam with room for them now (their
    own or a neutral one, with a conduit from its basin to their powerhouse), and the drops
    ran down from the powerhouse's group: each stopped in the first dam with room, so the
    dams below held fewer drops before (rulings V5, base_rules.md §7-8)."""
    # the production systems that stand on the map, whatever water their dams hold now
    filled = replace(after, dams={s: replace(d, drops=d.pieces) for s, d in after.dams.items()})
    options = [(company, system.dam, barrage_map().conduits[system.conduit].group)
               for company in sorted(set(after.powerhouses.values()))
               for system in production_systems(filled, company)
               if after.dams[system.dam].drops < after.dams[system.dam].pieces]
    rng.shuffle(options)
    for company, space, group in options:
        dam = after.dams[space]
        k = rng.randint(1, dam.pieces - dam.drops)
        before = _undo_flow(after, group_path(group), k, rng)
        if before is not None:
            before.dams[space] = replace(dam, drops=dam.drops + k)
            return before, company
    return None


def before_water_management(after: MapState, rng: random.Random, companies: list[str]) -> tuple[MapState, str] | None:
    """The map one Water Management action earlier, and a company of the game that took it;
    None when none can have made ``after``. The action put two drops on headstreams, where
    they stay until the Water Flow phase ("p2"), or one drop that ran down the river at once
    and was caught by a dam ("d1"; one that left the map changed nothing)."""
    if not companies:
        return None
    mover = rng.choice(sorted(companies))
    placed = [h for h, n in sorted(after.headstreams.items()) for _ in range(n)]
    if len(placed) >= 2 and rng.random() < 0.5:
        before = replace(after, headstreams=dict(after.headstreams))
        for h in rng.sample(placed, 2):
            before.headstreams[h] -= 1
        return before, mover
    for h in rng.sample(sorted(after.headstreams), len(after.headstreams)):
        before = _undo_flow(after, headstream_path(h), 1, rng)
        if before is not None and before != after:
            return before, mover
    return None


def _undo_flow(after: MapState, path: list[str], k: int, rng: random.Random) -> MapState | None:
    """A map from which ``k`` drops running down ``path`` give ``after``; None if there is none.
    A drop stops in the first dam with room: a dam with room now caught every drop that reached
    it, a full one any number of them up to what it holds."""
    before = replace(after, dams=dict(after.dams))
    for stop in path:
        dam = after.dams.get(stop)
        if k == 0 or dam is None:
            continue
        caught = k if dam.drops < dam.pieces else rng.randint(0, min(k, dam.drops))
        if caught > dam.drops:
            return None
        before.dams[stop] = replace(dam, drops=dam.drops - caught)
        k -= caught
    return before


def _afresh(pipeline: Pipeline, frame, companies: list[str] | None) -> Reading:
    """One frame read alone: no motion or stable state carried over, so no frame completes
    a still spell (and none is read again from more cuts)."""
    pipeline.motion, pipeline.stability = MotionDetector(), StabilityFilter()
    return pipeline.read_frame(frame, companies)


def _read(pipeline: Pipeline, frame, companies: list[str] | None) -> tuple[MapState, list[Flag]] | None:
    """The frame's map and the flags on it, as the page has them; None when not registered."""
    reading = _afresh(pipeline, frame, companies)
    return None if reading.map is None else build_map(reading.slots)


def evaluate(folder: Path, n: int, seed: int = 0, profile: str | None = None,
             select: Callable[[Path], bool] = lambda path: True, pairs: bool = False) -> dict:
    """Counts of turns listed exactly right (``*_exact``), of turns whose move was missed and
    of extra moves listed, blind and in a session, for build, production and water turns;
    ``select`` keeps some of the folder's images. ``pairs``: also in a session that compares
    each box's picture with the frame the game last saw (``pictures_*``, rulings V8): that
    frame is rendered again from the image's seed with the map before the turn, fresh sensor
    noise, a slightly different exposure and no hand (``lab.synth.pairs``); where it cannot
    be (``not_reproduced``), the turn is read as the session reads it, as on a page that has
    no earlier picture."""
    # water turns draw from a stream of their own: adding them left the other turns as they were
    rng, water_rng = random.Random(seed), random.Random(f"water-{seed}")
    pipeline = Pipeline.load(profile)
    ways = ("blind", "session", "pictures") if pairs else ("blind", "session")
    counts: dict = {"turns": 0, "production_turns": 0, "water_turns": 0, "not_registered": 0}
    for kind, way in itertools.product(("", "production_", "water_"), ways):
        counts |= {f"{way}_{kind}exact": 0, f"{way}_{kind}move_missed": 0, f"{way}_{kind}extra_moves": 0,
                   f"{way}_{kind}extra_by_kind": {}}
        if way != "blind":      # the page's ways: what it asks the players to check
            counts |= {f"{way}_{kind}wrong_but_asked": 0, f"{way}_{kind}asked_slots": 0}
    for kind, way in itertools.product(("", "production_", "water_"), ("ranked", "ranked_pictures") if pairs else ("ranked",)):
        counts |= {f"{way}_{kind}{figure}": 0 for figure in ("exact", "top3", "legal", "wrong_but_flagged")}
    if pairs:
        counts |= {"not_reproduced": 0, "pictures_missed_but_asked": 0, "pictures_production_missed_but_asked": 0,
                   "pictures_water_missed_but_asked": 0}
    for path, frame, truth in itertools.islice(synthetic_samples(folder, select=select), n):
        after = truth_map(truth)
        turns = [("", before_the_turn(after, rng)), ("production_", before_a_production(after, rng)),
                 ("water_", before_water_management(after, water_rng, truth_companies(truth)))]
        turns = [(kind, picked) for kind, picked in turns if picked is not None]
        if not turns:
            continue
        pipeline.registrar.reset()      # another image, another camera and lens
        blind, seen = _read(pipeline, frame, None), _read(pipeline, frame, truth_companies(truth))
        layout = pipeline.profile.layout
        table = table_of(truth, path.read_bytes()) if pairs else None
        if pairs:
            counts["not_reproduced"] += table is None
        for k, (kind, (known, mover)) in enumerate(turns):
            counts[f"{kind}turns"] += 1
            made = diff(known, after)   # the build and the drops a new dam holds; the water moved
            if blind is None or seen is None:
                counts["not_registered"] += 1
                continue
            seen_map, flags = seen
            listed = {"blind": diff(known, blind[0]), "session": diff(known, read_against(known, seen_map, mover)[0])}
            asked = {"session": {f.slot for f in to_check(layout, seen_map, flags)}}
            ranked = {"ranked": rank_turn(known, seen_map, mover)}
            if table is not None:
                compared = _compared(pipeline, frame_before(table, known, k), frame, truth_companies(truth))
                ranked["ranked_pictures"] = rank_turn(known, seen_map, mover, compared)
                listed["pictures"] = diff(known, read_against(known, seen_map, mover, pictures=compared)[0])
                # a turn read as no move, whose pictures changed where the move was: the page asks
                changed = unread(layout, compared.still) if not listed["pictures"] else []
                counts[f"pictures_{kind}missed_but_asked"] += any(m.space in changed for m in made)
                asked["pictures"] = {f.slot for f in to_check(layout, seen_map, flags, compared.still)} | set(changed)
            elif pairs:
                # No earlier picture to compare with: the page reads the turn as a session does.
                listed["pictures"], asked["pictures"] = listed["session"], asked["session"]
                ranked["ranked_pictures"] = ranked["ranked"]
            for way, ranking in ranked.items():
                _count_ranked(counts, f"{way}_{kind}", known, made, ranking)
            for way, moves in listed.items():
                # a build is missed when the structure is; a water turn when any of its water is
                _count(counts, f"{way}_{kind}", made, moves, made[:1] if kind == "" else made, asked.get(way))
    return counts


def listed(known: MapState, move: HumanMove) -> list[Move]:
    """The map changes ``move`` makes from ``known``, as the page lists a turn's."""
    board = known.copy()
    move.apply(board)
    return diff(known, board)


def _count_ranked(counts: dict, key: str, known: MapState, made: list[Move], ranking: Ranking) -> None:
    """Whether the best move, one of the three offered, or any listed is the turn ``made``."""
    right = [listed(known, s.move) == made for s in ranking.offered()]
    counts[f"{key}exact"] += right[0]
    counts[f"{key}top3"] += any(right)
    counts[f"{key}legal"] += any(right) or any(listed(known, s.move) == made for s in ranking.moves[len(right):])
    counts[f"{key}wrong_but_flagged"] += not right[0] and bool(ranking.unexplained)


def _compared(pipeline: Pipeline, before, after, companies: list[str]) -> Comparison:
    """The two frames' pictures compared, read as a session reads them: the earlier frame
    registers the board, the later one keeps its homography; nothing still and no drops seen
    coming when either is not registered."""
    pipeline.registrar.reset()
    earlier, later = (_afresh(pipeline, frame, companies) for frame in (before, after))
    if earlier.view is None or later.view is None:
        return Comparison(frozenset(), {})
    return compare(pipeline.profile.layout, earlier.view, later.view, later.camera)


def _count(counts: dict, key: str, made: list[Move], moves: list[Move], needed: list[Move],
           asked: set[str] | None) -> None:
    """``asked``: the slots the page asks the players to check on the turn (``game.to_check``,
    ``game.unread``; None where no page reads that way): a turn listed wrong is caught when a
    slot of a move missed or listed wrongly is among them."""
    counts[f"{key}exact"] += moves == made
    if asked is not None:
        wrong = {m.space for m in made if m not in moves} | {m.space for m in moves if m not in made}
        counts[f"{key}wrong_but_asked"] += bool(wrong & asked)
        counts[f"{key}asked_slots"] += len(asked)
    counts[f"{key}move_missed"] += any(m not in moves for m in needed)
    extra = [m for m in moves if m not in made]
    counts[f"{key}extra_moves"] += len(extra)
    by_kind = counts[f"{key}extra_by_kind"]
    for m in extra:
        by_kind[m.kind] = by_kind.get(m.kind, 0) + 1


def fixture_figures(folder: Path = FIXTURES) -> dict:
    """``automa-vision bench``: the share of turns listed exactly right on the committed
    fixtures with markers, blind, in a session, and in a session that compares pictures
    (rulings V8), for each kind of turn."""
    figures = evaluate(folder, 10_000, select=lambda path: not path.name.startswith("nomarkers"), pairs=True)
    out: dict = {}
    for kind, name in (("", "build"), ("production_", "production"), ("water_", "water")):
        turns = figures[f"{kind}turns"]
        out[f"fixture_{name}_turns"] = turns
        for way in ("blind", "session", "pictures", "ranked", "ranked_pictures"):
            out[f"fixture_{name}_turns_right_{way}"] = figures[f"{way}_{kind}exact"] / turns if turns else None
        for way in ("ranked", "ranked_pictures"):       # the turn among the three moves the page offers
            out[f"fixture_{name}_turns_offered_{way}"] = figures[f"{way}_{kind}top3"] / turns if turns else None
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--n", type=int, default=200, help="images of the folder to use")
    parser.add_argument("--seed", type=int, default=0, help="seed of the turns drawn (the structure built, the production, the water placed)")
    parser.add_argument("--profile")
    parser.add_argument("--pairs", action="store_true",
                        help="also read each turn against a frame of the table before it (rulings V8)")
    args = parser.parse_args(argv)
    figures = evaluate(Path(args.dir), args.n, args.seed, args.profile, pairs=args.pairs)
    if figures["turns"] == 0:
        print(f"no turn to read in {args.dir}: no image with ground truth and a company's structure", file=sys.stderr)
        return 2
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
