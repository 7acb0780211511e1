"""The game loop the page walks through: whose turn it is, and each kind of step.

Every function takes the last stored step and returns the next one as a plain
dict (kind, label, state, flow, payload) for :class:`web.store.Store`; nothing
here touches the database, so the rules of the loop are testable on their own.

The engine tracks Automa engineers but not the humans' choices, so a human's
turn ends when the players confirm what the camera saw (or what they typed in),
and a human leaves the round with "pass". What the camera saw is read against
the game: a change the rules never make is a misreading, not a move.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any, Collection, Mapping, Sequence

from automa.barrage import phases
from automa.barrage.data import barrage_map, company_colours
from automa.barrage.engine import apply_decision, decide
from automa.barrage.human_moves import human_moves
from automa.barrage.names import with_code
from automa.barrage.officers import human_first_action_due
from automa.barrage.rules import legal_spaces
from automa.barrage.setup import new_game
from automa.barrage.state import Company, Dam, GameState, capacity
from automa.barrage.turn_water import can_drain, can_flow_into
from automa.common.errors import StateError
from vision.barrage.board_state import MapState, apply_to_state
from vision.barrage.changes import Move, diff
from vision.barrage.labels import ALLOWED_PIECES, dam_pieces
from vision.barrage.move_ranking import Ranking, rank
from vision.layout import Layout
from vision.reader import LOW_CONFIDENCE, Flag
from vision.slot_change import Comparison

from ..store import Step

NewStep = dict[str, Any]
# Nothing in Barrage takes a structure off the map, hands it to another company or lowers a
# dam (rulings V3), so a reading that shows one has misread a piece the game knows: a raised
# dam read as a bare base is the camera's likeliest mistake (models/MODEL_CARD.md). Nor does
# anything take drops off a headstream before the Water Flow phase, which the page runs itself.
GAME_ID = "barrage"       # Barrage's id in the registry (automa.games) and its sessions' game
NEVER = ("removed", "owner")
# Only the company whose turn it is builds (a neutral dam is set up, never built).
BUILT = ("dam", "conduit", "powerhouse")
STRUCTURE = {"dam": "dam_base", "powerhouse": "powerhouse"}     # a move's kind -> the rules' structure
UNREAD_LIMIT = 8     # slots whose picture changed, at most, for the page to ask about them (``unread``)


@dataclass
class Flow:
    """What comes next. ``phase``: actions | round_end | over; ``next``: the company to move."""
    phase: str = "actions"
    next: str | None = None
    passed: list[str] = field(default_factory=list)   # humans out of the current round

    @classmethod
    def from_dict(cls, raw: dict) -> "Flow":
        """The flow a step stored; StateError where it is not one ``advance`` makes (a session
        file is checked by this before anything is stored)."""
        phase, after, passed = raw.get("phase", "actions"), raw.get("next"), raw.get("passed", [])
        if phase not in ("actions", "round_end", "over"):
            raise StateError(f"unknown phase {phase!r}")
        if not (after is None or isinstance(after, str)) or (phase == "actions") != (after is not None):
            raise StateError("\"next\" must name the company to move during actions, and be null otherwise")
        if not isinstance(passed, list) or not all(isinstance(c, str) for c in passed):
            raise StateError("\"passed\" must be a list of companies")
        return cls(phase, after, list(passed))


@dataclass(frozen=True)
class GameSettings:
    automas: int
    humans: int
    companies: list[str]          # turn order at set-up: Automas first
    difficulty: str
    seed: int
    profile: str | None = None    # calibration profile name
    levels: list[str] | None = None               # each Automa's level in turn order (None: difficulty)
    officers: list[str | None] | None = None      # each Very Hard Automa's officer (None: drawn)
    leeghwater: bool = False                      # The Leeghwater Project in play


def _active(state: GameState, company: str, passed: list[str]) -> bool:
    c = state.companies[company]
    return c.workers() > 0 if c.automa else company not in passed


def advance(state: GameState, after: str | None, passed: list[str]) -> Flow:
    """The flow after ``after`` moved: the next active company in turn order, or round end."""
    order = state.turn_order
    start = order.index(after) + 1 if after in order else 0
    for k in range(len(order)):
        company = order[(start + k) % len(order)]
        if _active(state, company, passed):
            return Flow("actions", company, list(passed))
    return Flow("round_end", None, list(passed))


def start(settings: GameSettings) -> NewStep:
    state = new_game(settings.automas, settings.humans, settings.seed, companies=list(settings.companies),
                     difficulty=settings.difficulty, levels=settings.levels, officers=settings.officers,
                     leeghwater=settings.leeghwater)
    return _step("start", f"Round 1 set up ({', '.join(settings.companies)})", state,
                 advance(state, None, []), {"settings": asdict(settings)})


def load(step: Step) -> tuple[GameState, Flow]:
    return GameState.from_dict(step.state), Flow.from_dict(step.flow)


def who(company: str, state: GameState) -> str:
    role = "Automa" if state.companies[company].automa else "player"
    return f"{company_colours()[company].capitalize()} {role} ({company})"


# -- Automa turns ------------------------------------------------------------------
def automa_decision(step: Step) -> dict | None:
    """The pending Automa decision (``decide`` is pure, so it is recomputed, never stored early); on a
    human's first turn of a round with Mahiri Sekibo in play, the Automa tile that decides the human's
    action (``human_first_action``: the page shows it to the human)."""
    state, flow = load(step)
    if flow.phase != "actions":
        return None
    if not state.companies[flow.next].automa:
        return decide(state, flow.next).to_dict() if human_first_action_due(state, flow.next) else None
    return decide(state, flow.next).to_dict()


def _sekibo_drawn(state: GameState, company: str) -> GameState:
    """The state once Sekibo's tile for ``company``'s first action of the round is drawn (if due)."""
    return apply_decision(state, decide(state, company)) if human_first_action_due(state, company) else state


def automa_done(step: Step) -> NewStep:
    state, flow = load(step)
    if flow.phase != "actions" or not state.companies[flow.next].automa:
        raise StateError("it is not an Automa's turn")
    decision = decide(state, flow.next)
    after = apply_decision(state, decision)
    following = advance(after, flow.next, flow.passed)
    if decision.extra_turn and after.companies[flow.next].workers() > 0:
        following = Flow("actions", flow.next, list(flow.passed))     # Battista: a second turn at once
    return _step("automa", decision.instruction, after, following, {"decision": decision.to_dict()})


def expected_map(step: Step) -> MapState | None:
    """The map once the pending Automa instruction is carried out (None if no Automa is to move)."""
    decision = automa_decision(step)
    if decision is None:
        return None
    return map_of(apply_decision(GameState.from_dict(step.state), decision))


def changes_map(step: Step) -> bool:
    """Whether the pending Automa instruction changes anything the camera sees: a turn on the
    management board alone (the Workshop, the Machinery Shop, the Bank) does not, so the camera
    cannot tell it done and the players acknowledge it with "Done"."""
    expected = expected_map(step)
    return expected is not None and bool(diff(map_of(GameState.from_dict(step.state)), expected))


# -- human turns -------------------------------------------------------------------
def _humans_turn(step: Step) -> tuple[GameState, Flow]:
    """The state and flow of ``step``, where a human player is to move; StateError if none is."""
    state, flow = load(step)
    if flow.phase != "actions" or state.companies[flow.next].automa:
        raise StateError("it is not a human player's turn")
    return state, flow


def human_done(step: Step, seen: MapState | None, pictures: Comparison | None = None,
               by_hand: Collection[str] = frozenset()) -> NewStep:
    """The human's turn as the camera saw it (``seen``), or unchanged when nothing was seen;
    ``pictures``: the table's picture now compared with the one ``step`` was read from;
    ``by_hand``: the boxes set by hand this turn (``read_against``)."""
    state, flow = _humans_turn(step)
    state = _sekibo_drawn(state, flow.next)
    moves: list[Move] = []
    refused: list[Move] = []
    after = state
    if seen is not None:
        known = map_of(state)
        seen, refused = read_against(known, seen, flow.next, pictures=pictures, by_hand=by_hand,
                                     companies=state.companies)
        moves = diff(known, seen)
        after, flags = apply_to_state(state, seen)
        if flags:
            raise StateError("the camera's reading does not fit the game: "
                             + "; ".join(f"{f.slot}: {f.problem}" for f in flags))
    label = f"{who(flow.next, state)}: " + ("; ".join(m.text for m in moves) if moves else "turn confirmed")
    if refused:
        label += " (not taken: " + "; ".join(m.text for m in refused) + ")"
    return _step("human", label, after, advance(after, flow.next, flow.passed),
                 {"moves": [asdict(m) for m in moves], "refused": [asdict(m) for m in refused]})


def refused_before(steps: Sequence[Step]) -> frozenset[str]:
    """What the last human turn listed as not taken: a misreading the camera keeps making (a
    neutral dam it does not see) is said on that turn, then not again on every turn after."""
    last = next((s for s in reversed(steps) if s.kind == "human"), None)
    return frozenset() if last is None else frozenset(m["text"] for m in last.payload.get("refused", []))


def human_pass(step: Step) -> NewStep:
    state, flow = _humans_turn(step)
    passed = flow.passed + [flow.next]
    state = _sekibo_drawn(state, flow.next)
    return _step("human", f"{who(flow.next, state)} passes for the rest of round {state.round}", state,
                 advance(state, flow.next, passed), {"moves": []})


def detected_moves(step: Step, seen: MapState, pictures: Comparison | None = None,
                   by_hand: Collection[str] = frozenset()) -> tuple[MapState, list[Move], list[Move]]:
    """The map the camera's reading leads to once read against the game, the moves it sees
    since ``step``, and the changes it reads that are not taken: those the rules never make,
    and those on boxes set by hand this turn or whose picture has not changed since; readings
    the drops seen coming overrule are listed too (``pictures``, ``by_hand``, ``read_against``)."""
    state, flow = load(step)
    mover = flow.next if flow.phase == "actions" else None
    fixed, refused = read_against(map_of(state), seen, mover, mover is not None and state.companies[mover].automa,
                                  pictures, by_hand, state.companies)
    return fixed, diff(map_of(state), fixed), refused


def read_against(known: MapState, seen: MapState, builder: str | None = None,
                 automa: bool = False, pictures: Comparison | None = None,
                 by_hand: Collection[str] = frozenset(),
                 companies: Mapping[str, Company] | None = None) -> tuple[MapState, list[Move]]:
    """``seen`` with every change from ``known`` that the rules never make in the actions
    phase (a structure gone, lowered or changed owner; drops gone from a headstream) put
    back as ``known`` has it, and those changes. A dam put back keeps the drops seen: a
    dam's water comes and goes (production, flow). ``builder``: the company whose turn it
    is; a new structure read as someone else's is taken as theirs, an elevation on someone
    else's dam, a second dam of theirs in a basin and a second powerhouse of theirs in a group
    are put back, and the readings are listed (rulings V3); a new dam is taken as built bare
    and a dam as raised by one elevation, and of several new structures only the one read
    with the most confidence is taken (rulings V6); drops a dam
    gained or lost that no action of theirs can move are put back (rulings V5); a human's turn
    does not both build and add drops to a headstream, or to a dam not theirs without a
    production, and the less sure of the two readings is put back (rulings V7; ``automa``: the
    builder is an Automa, whose turn may place water and then build). ``pictures``: the table's
    picture now compared with the one the camera showed when the game read ``known``
    (``vision.slot_change.compare``; None when there is none). The boxes whose picture is
    ``still`` are read as ``known`` has them, and the readings so put back are listed (rulings
    V8); for headstream tiles whose picture changed, the drops seen ``arrived`` there overrule
    a count read unsure with fewer than the game's drops and those, and the reading so
    overruled is listed (rulings V9). ``by_hand``: the boxes the players set by hand this turn
    (``set_by_hand``), read as ``known`` has them before anything else, whatever the pictures
    say, the readings so put back listed (rulings V12). ``companies``: the game's, whose
    officers change what a dam holds (``automa.barrage.state.capacity``; none: one drop a piece)."""
    companies = companies or {}
    seen, unchanged, _ = held_reading(known, seen, pictures, by_hand)
    fixed = seen.copy()
    refused = [m for m in diff(known, seen) if m.kind in NEVER or _headstream_lost(m, known, seen)]
    for m in refused:
        if m.space in known.headstreams:
            fixed.headstreams[m.space] = known.headstreams[m.space]
        elif m.space in known.dams:
            was, now = known.dams[m.space], seen.dams.get(m.space)
            fixed.dams[m.space] = was if now is None else Dam(was.owner, max(was.pieces, now.pieces), now.drops)
        elif m.space in known.conduits:
            fixed.conduits[m.space] = known.conduits[m.space]
        else:
            fixed.powerhouses[m.space] = known.powerhouses[m.space]
    for m in diff(known, fixed) if builder is not None else ():
        if m.kind in BUILT and m.owner != builder:
            if m.kind == "dam":
                fixed.dams[m.space] = replace(fixed.dams[m.space], owner=builder)
            else:
                (fixed.conduits if m.kind == "conduit" else fixed.powerhouses)[m.space] = builder
            refused.append(Move("owner", m.space, m.owner, f"{m.text} (on {builder}'s turn: taken as {builder}'s)"))
        elif m.kind == "elevation" and m.owner != builder:
            # an elevation goes only on the builder's own dam (and never on a neutral one)
            refused.append(_unbuild(known, fixed, m, f"on {builder}'s turn"))
    for m in diff(known, fixed) if builder is not None else ():
        # one own dam per basin, one own powerhouse per group (base_rules §3)
        if m.kind in ("dam", "powerhouse") and m.space not in legal_spaces(known, builder, STRUCTURE[m.kind]):
            where = "basin" if m.kind == "dam" else "group"
            refused.append(_unbuild(known, fixed, m, f"{builder} already has a {m.kind} in that {where}"))
    if builder is not None:
        refused += _one_piece(known, fixed, companies)
        refused += _one_structure(known, fixed, builder)
        refused += [] if automa else _build_or_water(known, fixed, builder)
        refused += _water_against(known, fixed, builder, companies)
    return fixed, unchanged + refused


def held_reading(known: MapState, seen: MapState, pictures: Comparison | None = None,
                 by_hand: Collection[str] = frozenset()) -> tuple[MapState, list[Move], frozenset[str]]:
    """``seen`` with what the game already holds put back: the boxes set by hand this turn
    (rulings V12) and those whose picture has not changed (V8) as ``known`` has them, the
    drops seen coming on a headstream counted (V9); the readings so put back; and the slots
    held whole (every box of theirs: a dam's space and its lake), whose reading is the game's."""
    seen, unchanged = _as_known(known, seen, by_hand, "set by hand this turn")
    still = pictures.still if pictures else frozenset()
    seen, put_back = _as_known(known, seen, still, "the picture there has not changed")
    seen, overruled = _drops_seen_arriving(known, seen, seen_coming(pictures, by_hand))
    boxes = set(by_hand) | set(still)
    dams = barrage_map().dams
    held = frozenset(b for b in boxes if not b.startswith("lake:") and (b not in dams or f"lake:{b}" in boxes))
    return seen, unchanged + put_back + overruled, held


def ranked_moves(step: Step, seen: MapState, pictures: Comparison | None = None,
                 by_hand: Collection[str] = frozenset()) -> Ranking:
    """The moves the human whose turn it is can make, ranked by how well each explains the
    camera's reading ``seen`` (``vision.barrage.move_ranking``), the reading first held to
    what the game already knows (``held_reading``); the slots read changed that the best move
    does not explain are flagged, never applied."""
    state, flow = _humans_turn(step)
    return rank_turn(map_of(state), seen, flow.next, pictures, by_hand, state.companies)


def rank_turn(known: MapState, seen: MapState, mover: str, pictures: Comparison | None = None,
              by_hand: Collection[str] = frozenset(), companies: Mapping[str, Company] | None = None) -> Ranking:
    """``mover``'s moves from ``known`` ranked by ``seen`` held to what the game knows, with
    the slots whose picture changed since the game read ``known`` (``ranked_moves``);
    ``companies``: the game's, whose officers change what a dam holds."""
    held_seen, _, held = held_reading(known, seen, pictures, by_hand)
    arrived = seen_coming(pictures, by_hand) if pictures is not None and pictures.still else {}
    return rank(known, held_seen, human_moves(known, mover, companies or {}), held, pictures_changed(pictures), arrived)


def seen_coming(pictures: Comparison | None, by_hand: Collection[str] = frozenset()) -> dict[str, int]:
    """The drops the pictures show coming on each headstream tile (rulings V9), but on a tile
    set by hand this turn, which holds what the players set (V12)."""
    return {h: k for h, k in pictures.arrived.items() if h not in by_hand} if pictures is not None else {}


def pictures_changed(pictures: Comparison | None) -> frozenset[str]:
    """The boxes of the map whose picture changed since the game last read the table, a slot's
    by its name and a dam's lake as ``lake:`` and the dam's (``Box.key``); none without a picture
    to compare, or when every box changed (the light or the board moved, rulings V8: the
    pictures then say nothing of the move)."""
    if pictures is None or not pictures.still:
        return frozenset()
    bmap = barrage_map()
    boxes = [*bmap.dams, *bmap.conduits, *bmap.powerhouses, *bmap.headstreams, *(f"lake:{d}" for d in bmap.dams)]
    return frozenset(b for b in boxes if b not in pictures.still)


def human_move(step: Step, key: str) -> NewStep:
    """The human's turn as the move ``key`` of ``human_moves`` (the best the camera saw, or a
    runner-up the players chose): its pieces put on the game's map, nothing else."""
    state, flow = _humans_turn(step)
    state = _sekibo_drawn(state, flow.next)
    known = map_of(state)
    move = next((m for m in human_moves(known, flow.next, state.companies) if m.key == key), None)
    if move is None:
        raise StateError(f"{key!r} is not a move {flow.next} can make now")
    board = known.copy()
    move.apply(board)
    after, flags = apply_to_state(state, board)
    if flags:
        raise StateError("; ".join(f"{f.slot}: {f.problem}" for f in flags))
    moves = diff(known, board)
    label = f"{who(flow.next, state)}: " + ("; ".join(m.text for m in moves) if moves else "turn confirmed")
    return _step("human", label, after, advance(after, flow.next, flow.passed),
                 {"moves": [asdict(m) for m in moves], "refused": [], "chosen": key})


def _as_known(known: MapState, seen: MapState, boxes: Collection[str], why: str) -> tuple[MapState, list[Move]]:
    """``seen`` with ``boxes`` (box keys) as ``known`` has them, hidden or not, and
    the readings so put back, each with ``why`` (rulings V8, V12). A dam's structure and its
    water are two boxes: the space and its lake (``lake:<space>``)."""
    if not boxes:
        return seen, []
    fixed = seen.copy()
    for h in known.headstreams:
        if h in boxes:
            fixed.headstreams[h] = known.headstreams[h]
    for space in set(known.dams) | set(seen.dams) | {u for u in seen.unknown if u in boxes}:
        was, now = known.dams.get(space), fixed.dams.get(space)
        if space in boxes:                                  # the structure as the game has it
            now = None if was is None else Dam(was.owner, was.pieces, now.drops if now else was.drops)
        if f"lake:{space}" in boxes and now is not None:    # and its water, where the lake is held too
            now = replace(now, drops=was.drops if was else 0)
        if now is None:
            fixed.dams.pop(space, None)
        else:
            fixed.dams[space] = now
    for table, before in ((fixed.conduits, known.conduits), (fixed.powerhouses, known.powerhouses)):
        for space in set(before) | set(table) | {u for u in seen.unknown if u in boxes}:
            if space in boxes:
                table.pop(space, None)
                if space in before:
                    table[space] = before[space]
    # a hidden slot among ``boxes`` holds what the game says (a dam the game knows, only with its lake)
    fixed.unknown = [u for u in seen.unknown if u not in boxes or (u in known.dams and f"lake:{u}" not in boxes)]
    left = diff(known, fixed)
    return fixed, [replace(m, text=f"{m.text} ({why})")
                   for m in diff(known, seen) if m not in left]


def _drops_seen_arriving(known: MapState, seen: MapState, arrived: Mapping[str, int]) -> tuple[MapState, list[Move]]:
    """``seen`` with each headstream that ``arrived`` says gained drops, and that the camera
    read unsure (below ``LOW_CONFIDENCE``) with fewer than the game's drops and those, taken
    to hold them; and those readings (rulings V9). Drops only come to a headstream in the
    actions phase, and a drop that came shows in the pictures as a shape of its own where
    the counters, reading one picture, miss it among printed drops and clutter."""
    if not arrived:
        return seen, []
    fixed, overruled = seen.copy(), []
    for h, k in sorted(arrived.items()):
        if h not in seen.headstreams or seen.confidence.get(h, 1.0) >= LOW_CONFIDENCE:
            continue
        at_least = known.headstreams.get(h, 0) + k
        if seen.headstreams[h] < at_least:
            fixed.headstreams[h] = at_least
            overruled.append(Move("drops", h, None, f"headstream {h} read with {seen.headstreams[h]} drops, unsure "
                                  f"({k} drop-sized shapes came in its picture: taken as {at_least})"))
    return fixed, overruled


def to_check(layout: Layout, seen: MapState, flags: Sequence[Flag], still: Collection[str] = frozenset(),
             by_hand: Collection[str] = frozenset()) -> list[Flag]:
    """What the page asks the players to check on a human's turn: the camera's flags on the
    slots of its stable reading ``seen`` (a reading it is unsure of, one that breaks a rule:
    ``vision.barrage.board_state.build_map``) and the slots it could not see, "hidden", each slot once;
    but not where the game already holds the answer: boxes ``still`` since the game last read
    the table (rulings V8), boxes set by hand this turn (rulings V12). A player's move on such
    a slot is read wrong or missed, so they look there before confirming."""
    held = set(still) | set(by_hand)
    boxes: dict[str, set[str]] = {}          # a slot's boxes: a dam's space and its lake
    for b in layout.boxes:
        boxes.setdefault(b.id, set()).add(b.key)
    out: dict[str, Flag] = {}
    for f in [*flags, *(Flag(u, "hidden from the camera") for u in seen.unknown)]:
        if f.slot in boxes and f.slot not in out and not boxes[f.slot] <= held:
            out[f.slot] = f
    return list(out.values())


def unread(layout: Layout, still: Collection[str]) -> list[str]:
    """The slots whose picture (the slot's or its lake's) changed since the game last read the
    table, for a turn on which the camera reads no move: something moved there that it cannot
    read (a raised dam read at its old height, a piece read as empty), or a piece's lean or
    shadow reached it. The players check them. None when more than ``UNREAD_LIMIT`` changed:
    a turn moves a few pieces, so that is the light, the board or a hand, not a move."""
    changed = list(dict.fromkeys(b.id for b in layout.boxes if b.key not in still))
    return changed if len(changed) <= UNREAD_LIMIT else []


def _one_piece(known: MapState, fixed: MapState, companies: Mapping[str, Company]) -> list[Move]:
    """A construction places one piece (rulings V6): a dam is built bare, and raised one
    elevation at a time. A new dam read taller, or a dam read more than one elevation
    higher, is taken in ``fixed`` as that one piece, holding no more drops than it can hold
    (``capacity``), and the readings are listed."""
    refused = []
    for m in diff(known, fixed):
        was, now = known.dams.get(m.space), fixed.dams.get(m.space)
        if m.kind == "dam" and now.pieces > 1:
            bare = replace(now, pieces=1)
            fixed.dams[m.space] = replace(bare, drops=min(now.drops, capacity(bare, companies)))
            refused.append(replace(m, text=f"{m.text} (a turn builds one structure: taken as a bare dam)"))
        elif m.kind == "elevation" and now.pieces > was.pieces + 1:
            raised = replace(now, pieces=was.pieces + 1)
            fixed.dams[m.space] = replace(raised, drops=min(now.drops, capacity(raised, companies)))
            refused.append(replace(m, text=f"{m.text} (a turn builds one structure: taken as one elevation)"))
    return refused


def _one_structure(known: MapState, fixed: MapState, mover: str) -> list[Move]:
    """Keep, in ``fixed``, only the new structure the camera is surest of when it reads
    several on ``mover``'s turn, and list the others (rulings V6); a map read without
    confidences keeps them all. Surest by the decoder's share, not the calibrated chance:
    a chance says how often a kind of reading is right, heights and drops included, not
    which of two new pieces is there (rulings V6)."""
    built = [m for m in diff(known, fixed) if m.kind in BUILT + ("elevation",)]
    sure = fixed.ranking
    if len(built) < 2 or any(m.space not in sure for m in built):
        return []
    kept = max(built, key=lambda m: sure[m.space])
    return [_unbuild(known, fixed, m, f"a turn builds one structure: the camera is surer of {kept.space}")
            for m in built if m is not kept]


def _build_or_water(known: MapState, fixed: MapState, mover: str) -> list[Move]:
    """A human's turn that builds moves no water but by its own means (rulings V7): it
    leaves no drop on a headstream, and a dam not the mover's gains drops only from a
    production, which shows as a dam read losing drops. When the camera reads both a new
    structure and such water, the reading it is less sure of (by the decoder's shares, as
    ``_one_structure`` ranks them) is put back in ``fixed`` and listed (a map read without
    confidences keeps the structure)."""
    moves = diff(known, fixed)
    built = [m for m in moves if m.kind in BUILT + ("elevation",)]
    if not built:
        return []
    was, now = known.dams, fixed.dams
    produced = any(s in now and now[s].drops < d.drops and can_drain(known, fixed, mover, s)
                   for s, d in was.items())
    water = [m for m in moves if m.kind == "drops" and (
        (m.space in known.headstreams and fixed.headstreams[m.space] > known.headstreams[m.space])
        or (not produced and m.space in was and was[m.space].owner != mover
            and now[m.space].drops > was[m.space].drops))]
    if not water:
        return []
    sure = fixed.ranking
    if all(m.space in sure for m in built + water) and max(sure[m.space] for m in water) > max(sure[m.space] for m in built):
        why = "a turn that builds brings no water there: the camera is surer of the water on " + \
            ", ".join(m.space for m in water)
        return [_unbuild(known, fixed, m, why) for m in built]
    refused = []
    for m in water:
        if m.space in known.headstreams:
            fixed.headstreams[m.space] = known.headstreams[m.space]
            refused.append(replace(m, text=f"{m.text} (a turn that builds leaves no drop on a headstream)"))
        else:
            now[m.space] = replace(now[m.space], drops=was[m.space].drops)
            refused.append(replace(m, text=f"{m.text} (a turn that builds fills no other dam without a production)"))
    return refused


def _unbuild(known: MapState, fixed: MapState, move: Move, why: str) -> Move:
    """Take the new structure ``move`` out of ``fixed``; the move, listed with ``why``."""
    if move.kind == "elevation":
        fixed.dams[move.space] = replace(fixed.dams[move.space], pieces=known.dams[move.space].pieces)
    else:
        del {"dam": fixed.dams, "conduit": fixed.conduits, "powerhouse": fixed.powerhouses}[move.kind][move.space]
    return replace(move, text=f"{move.text} ({why})")


def _water_against(known: MapState, fixed: MapState, mover: str, companies: Mapping[str, Company]) -> list[Move]:
    """Put back, in ``fixed``, the drops a dam gained or lost that ``mover``'s turn cannot
    move (rulings V5: ``automa.barrage.turn_water``), and list them. Losses go first: a
    dam's loss that stands lets water past it."""
    refused = []
    for losses in (True, False):
        for m in diff(known, fixed):
            was, now = known.dams.get(m.space), fixed.dams.get(m.space)
            if m.kind != "drops" or was is None or now is None or (now.drops < was.drops) != losses:
                continue
            if losses and not can_drain(known, fixed, mover, m.space):
                why = f"no production of {mover}'s draws on it"
            elif not losses and was.owner != mover and not can_flow_into(known, fixed, mover, m.space, companies):
                why = f"no water {mover}'s turn sets flowing can reach it"
            else:
                continue
            fixed.dams[m.space] = replace(now, drops=was.drops)
            refused.append(replace(m, text=f"{m.text} ({why})"))
    return refused


def _headstream_lost(move: Move, known: MapState, seen: MapState) -> bool:
    """Drops gone from a headstream: in the actions phase they only arrive (Water Management,
    placing incomes and rewards), and leave in the Water Flow phase (rulings V3)."""
    return (move.kind == "drops" and move.space in known.headstreams
            and seen.headstreams.get(move.space, 0) < known.headstreams[move.space])


# -- corrections -------------------------------------------------------------------
def set_by_hand(steps: Sequence[Step]) -> frozenset[str]:
    """The boxes (keys, as ``vision.layout.Box.key``) of the slots the players corrected since
    the last step that is not a correction: what they set this turn stands (rulings V12). A
    dam's correction sets its water too, so its lake's box is held as well."""
    dams = barrage_map().dams
    boxes: set[str] = set()
    for step in reversed(steps):
        if step.kind != "correction":
            break
        slot = step.payload["slot"]
        boxes |= {slot, f"lake:{slot}"} if slot in dams else {slot}
    return frozenset(boxes)


def correct_slot(step: Step, slot: str, kind: str, piece: str, owner: str | None, drops: int) -> NewStep:
    """Set one map slot to what is really on the table; the flow does not move."""
    if piece not in ALLOWED_PIECES.get(kind, ()):
        raise StateError(f"a {kind} slot cannot hold {piece!r} (choose {', '.join(ALLOWED_PIECES.get(kind, ()))})")
    state, _ = load(step)
    board = map_of(state)
    if kind == "headstream":
        board.headstreams[slot] = drops
    elif kind == "dam":
        board.dams.pop(slot, None)
        if piece != "empty":
            board.dams[slot] = Dam(_owner(owner), dam_pieces(piece), drops)
        elif drops:
            raise StateError("an empty dam space holds no water")
    else:
        table = board.conduits if kind == "conduit" else board.powerhouses
        table.pop(slot, None)
        if piece != "empty":
            table[slot] = _owner(owner)
    after, flags = apply_to_state(state, board)
    if flags:
        raise StateError("; ".join(f.problem for f in flags))
    what = "empty" if piece == "empty" else f"{piece} of {owner}"
    return _step("correction", f"Correction: {slot} is {what}" + (f" with {drops} drops" if drops else ""),
                 after, step.flow, {"slot": slot, "piece": piece, "owner": owner, "drops": drops})


def _owner(owner: str | None) -> str:
    if not owner:
        raise StateError("choose whose piece it is")
    return owner


# -- round end ---------------------------------------------------------------------
def round_end(step: Step) -> NewStep:
    """Water flow and round-end scoring; then final scoring (round 5) or the next round's income
    and headstreams."""
    state, flow = load(step)
    if flow.phase == "over":
        raise StateError("the game is over")
    if flow.phase != "round_end":
        raise StateError(f"round {state.round} is not over: {who(flow.next, state)} still plays "
                         "(Automas play until their engineers run out; humans press Pass)")
    ending = state.round
    work = state.copy()
    ops = phases.round_end(work)
    if ending == phases.LAST_ROUND:
        ops += phases.final_scoring(work)
        return _step("phases", "Final scoring", work, Flow("over"), {"ops": ops})
    ops += phases.income_phase(work) + phases.headstream_phase(work)
    return _step("phases", f"End of round {ending}; round {work.round} income and headstreams", work,
                 advance(work, None, []), {"ops": ops})


# -- helpers -----------------------------------------------------------------------
def map_of(state: GameState) -> MapState:
    return MapState(dams={s: Dam(d.owner, d.pieces, d.drops) for s, d in state.dams.items()},
                    conduits=dict(state.conduits), powerhouses=dict(state.powerhouses),
                    headstreams=dict(state.headstreams))


def waiting_for(step: Step, seen: MapState, pictures: Comparison | None = None,
                by_hand: Collection[str] = frozenset()) -> list[str] | None:
    """What the camera does not see done yet of the pending Automa instruction: each slot
    where its reading differs from the map the instruction leads to ("8U: usa's dam; the
    camera sees nothing there"), and each slot it cannot see; None when no Automa is to move.
    An empty list: the instruction is done, exactly, nothing hidden, and the page moves on.
    The reading is first read against the game, as on a human's turn: the changes the rules
    never make and the readings of boxes set by hand this turn or whose picture has not
    changed put back, the drops seen coming counted (``instruction_seen``)."""
    expected = expected_map(step)
    if expected is None:
        return None
    state, flow = load(step)
    fixed = instruction_seen(map_of(state), expected, seen, flow.next, pictures, by_hand, state.companies)
    slots = dict.fromkeys(m.space for m in diff(fixed, expected))
    return ([f"{with_code(s)}: {_holding(expected, s)}; the camera sees {_holding(fixed, s)} there" for s in slots]
            + [f"{with_code(u)}: hidden from the camera" for u in fixed.unknown])



def instruction_seen(known: MapState, expected: MapState, seen: MapState, automa: str,
                     pictures: Comparison | None = None, by_hand: Collection[str] = frozenset(),
                     companies: Mapping[str, Company] | None = None) -> MapState:
    """``seen``, read on ``automa``'s turn from a table that held ``known``, as the page checks
    it against the map ``expected`` the instruction leads to: read against the game
    (``read_against``: the pictures still, the boxes set by hand, the drops seen coming), and
    each tile on which the pictures show as many drops coming as the instruction puts there
    taken to hold them, whatever its count reads (rulings V9). ``companies``: as for ``read_against``."""
    fixed, _ = read_against(known, seen, automa, automa=True, pictures=pictures, by_hand=by_hand,
                            companies=companies)
    arrived = seen_coming(pictures, by_hand)
    fixed = fixed.copy() if arrived else fixed      # the caller's reading is left as it was
    for h, came in arrived.items():
        if h in expected.headstreams and expected.headstreams[h] - known.headstreams.get(h, 0) == came:
            fixed.headstreams[h] = expected.headstreams[h]
    return fixed

def _holding(board: MapState, slot: str) -> str:
    """What ``board`` has on ``slot``, in words."""
    if slot in board.headstreams:
        n = board.headstreams[slot]
        return f"{n} drop{'' if n == 1 else 's'}"
    if slot in board.dams:
        d = board.dams[slot]
        pieces = f" of {d.pieces} piece{'' if d.pieces == 1 else 's'}"      # said always: 1 piece read for 2 is the usual miss
        water = f" holding {d.drops} drop{'' if d.drops == 1 else 's'}" if d.drops else ""
        return f"{d.owner}'s dam{pieces}{water}"
    for kind, table in (("conduit", board.conduits), ("powerhouse", board.powerhouses)):
        if slot in table:
            return f"{table[slot]}'s {kind}"
    return "nothing"


def _step(kind: str, label: str, state: GameState, flow: Flow | dict, payload: dict) -> NewStep:
    return {"kind": kind, "label": label, "state": state.to_dict(),
            "flow": asdict(flow) if isinstance(flow, Flow) else flow, "payload": payload}
