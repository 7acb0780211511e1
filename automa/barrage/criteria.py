"""Structure Placing Criteria: the three criteria of each Criteria-tile column.

Rulebook (seed 004, "STRUCTURE PLACING PROCEDURE"): "Look at the column
relevant to the structure on the Criteria tile (Dam Bases and Elevations /
Conduits / Powerhouses) and check the first criterion. If the criterion
defines a single eligible position where Automa can build, choose this
position. If there are two or more eligible positions or the criterion
doesn't match with any position, check the next criterion".

Every criterion here is a pure function

    criterion(state, company, candidates, headstream_order) -> (kept, reason)

``kept`` is the subset of ``candidates`` (in their order) the criterion
prefers; an empty ``kept`` means the criterion "doesn't match with any
position" and the procedure skips it. ``reason`` is one short line for the
decision trace. ``headstream_order`` is the tile's letter row (only the
"most Water Drops" criterion reads it).

Vocabulary used throughout (see docs/rulings_placement.md):

- *owned* is the Automa's own piece, *neutral* a neutral dam, *opponent*
  any other company's piece.
- *linked* follows the printed map: a dam in basin n is linked to the
  conduit spaces nA/nB, a conduit to the dams of its basin and to the
  powerhouses of the group it leads to. A link exists whether or not the
  conduit is built; where the rulebook means built conduits it says
  "already built".
- *feeding* / *directly* follows the river: water leaving a powerhouse group
  directly feeds the first dam it meets ("through basins without other
  Dams"), whatever that dam holds.

The registry :data:`CRITERIA` is keyed by column (``dam``, ``conduit``,
``powerhouse``) and then by the ids of ``tiles.json`` ``criteria_ids``; the
dam and powerhouse columns both have a ``most_powerful_conduit``.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from functools import cache

from automa.common.trace import Text, text

from .data import barrage_map
from .state import NEUTRAL, GameState
from .water import drops_passing, headstream_order as tile_letter_order

Result = tuple[list[str], Text]
Criterion = Callable[[GameState, str, list[str], list[str]], Result]
Predicate = Callable[[str], bool]

OWNED, NEUTRAL_SIDE, OPPONENT = "owned", "neutral", "opponent"
_SIDE = {OWNED: text("owned"), NEUTRAL_SIDE: text("neutral"), OPPONENT: text("opponent")}
# "linked to <a side's piece>": a dam or a powerhouse of each side, with its article
_SIDES_PIECE = {("dam", OWNED): text("an owned dam"), ("dam", NEUTRAL_SIDE): text("a neutral dam"),
                ("dam", OPPONENT): text("an opponent dam"), ("powerhouse", OWNED): text("an owned powerhouse"),
                ("powerhouse", NEUTRAL_SIDE): text("a neutral powerhouse"),
                ("powerhouse", OPPONENT): text("an opponent powerhouse")}


# -- map look-ups (fixed topology, computed once) ------------------------------------
@cache
def _dam_conduits(space: str) -> tuple[str, ...]:
    """Conduit spaces linked to dam space ``space``: the two of its basin."""
    bmap = barrage_map()
    return bmap.basins[bmap.dams[space].basin].conduits


@cache
def _group_conduits(group: int) -> tuple[str, ...]:
    """Conduit spaces that lead into powerhouse group ``group``."""
    return tuple(barrage_map().conduits_into(group))


@cache
def _river_below(group: int) -> tuple[str, ...]:
    """Dam spaces, in order, that water leaving powerhouse group ``group`` meets."""
    return tuple(barrage_map().river_after_group(group))


def _group_of(space: str) -> int:
    return barrage_map().powerhouses[space].group


def _side(owner: str, company: str) -> str:
    if owner == company:
        return OWNED
    return NEUTRAL_SIDE if owner == NEUTRAL else OPPONENT


def _dam_basins(state: GameState, company: str, side: str) -> set[int]:
    """Basins holding a dam of that side (owned / neutral / opponent)."""
    bmap = barrage_map()
    return {bmap.dams[s].basin for s, d in state.dams.items() if _side(d.owner, company) == side}


def _first_dam_below(state: GameState, group: int) -> str | None:
    """The dam that water leaving ``group`` directly feeds: the first built one it meets."""
    return next((s for s in _river_below(group) if s in state.dams), None)


def _names(spaces: Iterable[str]) -> str:
    return ", ".join(spaces)


# -- shared mechanisms ------------------------------------------------------------------
def _most_powerful_built(state: GameState, company: str, candidates: list[str],
                         linked: Callable[[str], Iterable[str]]) -> Result:
    """Keep the candidates linked to the highest-value built conduit; on equal value an owned one wins.

    Shared by the dam and the powerhouse "most powerful Conduit already built
    (owned or opponent). Tiebreaker: owned Conduit." criteria; only ``linked``
    differs (a dam's basin conduits, a powerhouse group's incoming ones).
    """
    best: dict[str, tuple[int, bool, str]] = {}
    for space in candidates:
        built = [(barrage_map().conduits[c].value, state.conduits[c] == company, c)
                 for c in linked(space) if c in state.conduits]
        if built:
            best[space] = max(built)        # value first, then owned (True > False)
    if not best:
        return [], text("no built conduit is linked to any of them")
    top = max(v for v, _, _ in best.values())
    tied = [s for s in candidates if s in best and best[s][0] == top]
    owned = [s for s in tied if best[s][1]]
    via = _names(sorted({best[s][2] for s in (owned or tied)}))
    if owned and len(owned) < len(tied):
        return owned, text("linked to built conduit {via} (value {top}); tiebreaker: owned conduit", via=via, top=top)
    return tied, text("linked to built conduit {via} (value {top})", via=via, top=top)


def _otherwise(candidates: list[str], first: tuple[Text, Predicate], second: tuple[Text, Predicate]) -> Result:
    """"<first> OTHERWISE <second>": keep the matches of ``first``; only if none, those of ``second``."""
    for i, (label, test) in enumerate((first, second)):
        kept = [s for s in candidates if test(s)]
        if kept:
            return kept, label if i == 0 else text("none {first}; OTHERWISE {second}", first=first[0], second=label)
    return [], text("none {first}, and none {second}", first=first[0], second=second[0])


def _linked_side_criterion(kind: str, order: tuple[str, ...], doc: str) -> Criterion:
    """A conduit criterion "linked to an <order[0]> / <order[1]> / ... <kind>. Tiebreaker: <order>".

    The tiebreaker is the order itself: keep the conduits linked to a
    ``kind`` (dam / powerhouse) of the first side that any candidate is
    linked to. The forward and the reverse criteria differ only in ``order``.
    """
    def owners(state: GameState, conduit: str) -> Iterable[str]:
        c = barrage_map().conduits[conduit]
        if kind == "dam":
            return (state.dams[s].owner for s in barrage_map().basins[c.basin].dams if s in state.dams)
        return (o for s, o in state.powerhouses.items() if _group_of(s) == c.group)

    def criterion(state: GameState, company: str, candidates: list[str], headstream_order: list[str]) -> Result:
        sides = {c: {_side(o, company) for o in owners(state, c)} for c in candidates}
        for side in order:
            kept = [c for c in candidates if side in sides[c]]
            if kept:
                return kept, text("linked to {piece}; tiebreaker: {order}", piece=_SIDES_PIECE[kind, side],
                                  order=[_SIDE[s] for s in order])
        return [], text("none is linked to a built dam") if kind == "dam" else \
            text("none is linked to a built powerhouse")

    criterion.__doc__ = doc
    criterion.__name__ = f"conduit_{kind}_{'_'.join(order)}"
    return criterion


def _feeding_criterion(owned_first: bool, doc: str) -> Criterion:
    """The two powerhouse "feeding" criteria: the same two tests, in either order.

    *Feeding an owned Dam*: the first dam below the powerhouse's group is
    owned ("through basins without other Dams"). *Not directly feeding an
    opponent Dam*: the first dam below is not an opponent's (no dam at all,
    a neutral or an owned one).
    """
    def criterion(state: GameState, company: str, candidates: list[str], headstream_order: list[str]) -> Result:
        first = {g: _first_dam_below(state, g) for g in {_group_of(s) for s in candidates}}

        def fed_side(space: str) -> str | None:
            dam = first[_group_of(space)]
            return None if dam is None else _side(state.dams[dam].owner, company)

        feeds_owned = (text("feeding an owned dam"), lambda s: fed_side(s) == OWNED)
        spares_opponent = (text("not directly feeding an opponent dam"), lambda s: fed_side(s) != OPPONENT)
        return _otherwise(candidates, *((feeds_owned, spares_opponent) if owned_first else (spares_opponent, feeds_owned)))

    criterion.__doc__ = doc
    criterion.__name__ = "feeding_owned_dam" if owned_first else "not_feeding_opponent_dam"
    return criterion


# -- Dam Bases and Elevations ----------------------------------------------------------
def dam_most_powerful_conduit(state: GameState, company: str, candidates: list[str], headstream_order: list[str]) -> Result:
    """A Dam linked to the most powerful Conduit already built (owned or opponent). Tiebreaker: owned Conduit.

    A dam space is linked to the two conduit spaces of its basin. Among the
    eligible spaces, keep those whose basin has the highest-value built
    conduit (anyone's); if several share that value, keep those where it is
    the Automa's own conduit (if any is).
    """
    return _most_powerful_built(state, company, candidates, _dam_conduits)


def owned_powerhouse(state: GameState, company: str, candidates: list[str], headstream_order: list[str]) -> Result:
    """A Dam linked to an owned Powerhouse.

    Keep the dam spaces whose basin has a conduit space (built or not)
    leading to a group where the Automa has a powerhouse.
    """
    bmap = barrage_map()
    own_groups = {_group_of(s) for s, o in state.powerhouses.items() if o == company}
    if not own_groups:
        return [], text("the Automa has no powerhouse")
    reached = {s: sorted({bmap.conduits[c].group for c in _dam_conduits(s)} & own_groups) for s in candidates}
    kept = [s for s in candidates if reached[s]]
    if not kept:
        return [], text("no conduit link leads to an owned powerhouse")
    groups = sorted({g for s in kept for g in reached[s]})
    return kept, text("a conduit link leads to an owned powerhouse (group {groups})", groups=_names(map(str, groups)))


def most_water_drops(state: GameState, company: str, candidates: list[str], headstream_order: list[str]) -> Result:
    """A Dam able to receive the most Water Drops in the current Map condition. Tiebreaker: Headstream order.

    Count the headstream drops the coming Water Flow would bring through or
    into each space (full dams pass drops on, dams with room keep them).
    Keep the highest count (none if no drop reaches any). On a tie, keep
    the spaces reached by drops from the first headstream of the tile's
    letter order that reaches any of them (letters not printed come last).
    """
    reach = drops_passing(state)
    counts = {s: sum(reach.get(s, Counter()).values()) for s in candidates}
    top = max(counts.values())
    if top == 0:
        return [], text("no headstream drop would reach any of them")
    tied = [s for s in candidates if counts[s] == top]
    if len(tied) > 1:
        for letter in tile_letter_order(headstream_order):
            fed = [s for s in tied if reach[s][letter]]
            if fed:
                if len(fed) < len(tied):
                    return fed, text("{top} drops would reach them; tiebreaker: headstream order, {letter} first",
                                     top=top, letter=letter)
                break
    return tied, text("{top} drops would reach them", top=top) if len(tied) > 1 else \
        text("{top} drops would reach it", top=top)


def red_outline_space(state: GameState, company: str, candidates: list[str], headstream_order: list[str]) -> Result:
    """A building space with a red outline Dam among the eligibles.

    Keep the red-outlined (upper, nU) dam spaces.
    """
    bmap = barrage_map()
    kept = [s for s in candidates if bmap.dams[s].red]
    return kept, text("red-outlined space") if kept else text("no red-outlined space")


def upstream_powerhouse(state: GameState, company: str, candidates: list[str], headstream_order: list[str]) -> Result:
    """A Dam linked (through basins without other Dams) to an upstream Powerhouse.

    Follow the river down from every built powerhouse (anyone's): the dam
    spaces it reaches before meeting any built dam (any owner) are linked;
    the first built dam met is linked too and ends the link. A candidate
    that is itself a dam (an Elevation) is not an "other" dam.
    """
    below: dict[str, int] = {}
    for group in sorted({_group_of(s) for s in state.powerhouses}):
        for space in _river_below(group):
            below.setdefault(space, group)
            if space in state.dams:
                break
    kept = [s for s in candidates if s in below]
    if not kept:
        return [], text("no built powerhouse is upstream without other dams between")
    return kept, text("below the powerhouse group {groups} with no other dam between",
                      groups=_names(sorted({str(below[s]) for s in kept})))


def downstream_owned_dam(state: GameState, company: str, candidates: list[str], headstream_order: list[str]) -> Result:
    """A Dam linked (by a Conduit link) to a downstream basin with an owned Dam OTHERWISE A Dam not linked (by a Conduit link) to a downstream basin with an opponent Dam.

    A conduit link leads from the dam's basin to a powerhouse group, whose
    water enters the basin right below that group (groups 11 and 12 lead to
    the exits, to no basin). First keep the spaces with a conduit link to a
    basin holding an owned dam; if none, keep those none of whose conduit
    links leads to a basin holding an opponent dam.
    """
    bmap = barrage_map()
    owned, opponent = _dam_basins(state, company, OWNED), _dam_basins(state, company, OPPONENT)

    def downstream(space: str) -> set[int | None]:
        return {bmap.groups[bmap.conduits[c].group].flows_to_basin for c in _dam_conduits(space)}

    return _otherwise(candidates,
                      (text("linked by a conduit to a basin with an owned dam"), lambda s: bool(downstream(s) & owned)),
                      (text("not linked by a conduit to a basin with an opponent dam"),
                       lambda s: not downstream(s) & opponent))


# -- Conduits -----------------------------------------------------------------------
def most_powerful(state: GameState, company: str, candidates: list[str], headstream_order: list[str]) -> Result:
    """The most powerful Conduit among the eligibles.

    Keep the eligible conduit spaces with the highest printed value.
    """
    value = {c: barrage_map().conduits[c].value for c in candidates}
    top = max(value.values())
    return [c for c in candidates if value[c] == top], text("value {top}, the highest", top=top)


def second_most_powerful(state: GameState, company: str, candidates: list[str], headstream_order: list[str]) -> Result:
    """The second most powerful Conduit among the eligibles, if any OTHERWISE The most powerful one.

    "Second most powerful" is the second-highest distinct value among the
    eligible conduit spaces; when they all share one value there is none,
    and the most powerful (all of them) are kept.
    """
    value = {c: barrage_map().conduits[c].value for c in candidates}
    levels = sorted(set(value.values()), reverse=True)
    if len(levels) == 1:
        return list(candidates), text("all have value {value}: no second most powerful; OTHERWISE the most powerful",
                                      value=levels[0])
    return [c for c in candidates if value[c] == levels[1]], text("value {value}, the second highest", value=levels[1])


dam_owned_neutral_opponent = _linked_side_criterion("dam", (OWNED, NEUTRAL_SIDE, OPPONENT), """\
A Conduit linked to an owned / neutral / opponent Dam. Tiebreaker: owned, neutral, opponent.

    A conduit is linked to the dams of its own basin. Keep the conduits linked
    to an owned dam; if none, to a neutral dam; if none, to an opponent dam.
    """)

powerhouse_owned_opponent = _linked_side_criterion("powerhouse", (OWNED, OPPONENT), """\
A Conduit linked to an owned / opponent Powerhouse. Tiebreaker: owned, opponent.

    A conduit is linked to the powerhouses built in the group it leads to.
    Keep the conduits linked to an owned powerhouse; if none, to an opponent's.
    """)

dam_opponent_neutral_owned = _linked_side_criterion("dam", (OPPONENT, NEUTRAL_SIDE, OWNED), """\
A Conduit linked to an opponent / neutral / owned Dam. Tiebreaker: opponent, neutral, owned.

    The reverse of dam_owned_neutral_opponent: keep the conduits linked to an
    opponent dam; if none, to a neutral dam; if none, to an owned dam.
    """)

powerhouse_opponent_owned = _linked_side_criterion("powerhouse", (OPPONENT, OWNED), """\
A Conduit linked to an opponent / owned Powerhouse. Tiebreaker: opponent, owned.

    The reverse of powerhouse_owned_opponent: keep the conduits linked to an
    opponent's powerhouse; if none, to an owned one.
    """)


# -- Powerhouses --------------------------------------------------------------------
def powerhouse_most_powerful_conduit(state: GameState, company: str, candidates: list[str], headstream_order: list[str]) -> Result:
    """A Powerhouse linked to the most powerful Conduit already built (owned or opponent). Tiebreaker: owned Conduit.

    A powerhouse space is linked to the conduit spaces leading into its
    group. Keep the spaces of the groups reached by the highest-value built
    conduit (anyone's); on equal value, those reached by an owned conduit.
    """
    return _most_powerful_built(state, company, candidates, lambda s: _group_conduits(_group_of(s)))


def owned_dam(state: GameState, company: str, candidates: list[str], headstream_order: list[str]) -> Result:
    """A Powerhouse linked to an owned Dam.

    Keep the powerhouse spaces of groups that a conduit space (built or not)
    links to a basin holding an owned dam.
    """
    bmap = barrage_map()
    own_basins = _dam_basins(state, company, OWNED)
    if not own_basins:
        return [], text("the Automa has no dam")
    kept = [s for s in candidates if any(bmap.conduits[c].basin in own_basins for c in _group_conduits(_group_of(s)))]
    return kept, (text("a conduit link leads from an owned dam (basin {basins})",
                       basins=_names(map(str, sorted(own_basins)))) if kept
                  else text("no conduit link leads from an owned dam"))


def plains(state: GameState, company: str, candidates: list[str], headstream_order: list[str]) -> Result:
    """A Powerhouse in the Plains.

    Keep the powerhouse spaces of groups 8-12.
    """
    bmap = barrage_map()
    kept = [s for s in candidates if bmap.area_of_group(_group_of(s)) == "plains"]
    return kept, text("in the Plains") if kept else text("none in the Plains")


def _hills_basin(group: int) -> Criterion:
    """The "5 / 6 / 7" row: one criterion per printed Hills basin number."""
    def criterion(state: GameState, company: str, candidates: list[str], headstream_order: list[str]) -> Result:
        kept = [s for s in candidates if _group_of(s) == group]
        return kept, text("in Hills basin {group}", group=group) if kept else text("none in Hills basin {group}", group=group)

    criterion.__doc__ = f"""A Powerhouse in the indicated Hills basin ({group}) (follow the Reference Map).

    Keep the powerhouse spaces of group {group}.
    """
    criterion.__name__ = f"hills_basin_{group}"
    return criterion


feeding_owned_dam = _feeding_criterion(True, """\
A Powerhouse feeding an owned Dam (through basins without other Dams) OTHERWISE \
A Powerhouse not directly feeding (through basins) an opponent Dam.

    Water released at a powerhouse flows down the river from its group. Keep
    the spaces whose group's water first meets an owned dam; if none, keep
    those whose water does not first meet an opponent dam.
    """)

not_feeding_opponent_dam = _feeding_criterion(False, """\
A Powerhouse not directly feeding (through rivers) an opponent Dam OTHERWISE \
A Powerhouse directly feeding an owned Dam (through rivers without other Dams).

    The reverse order of feeding_owned_dam's two tests. Keep the spaces whose
    group's water does not first meet an opponent dam; if none, those whose
    water first meets an owned dam (which cannot happen when every space
    first meets an opponent dam, so the OTHERWISE matches nothing then).
    """)


CRITERIA: dict[str, dict[str, Criterion]] = {
    "dam": {
        "most_powerful_conduit": dam_most_powerful_conduit,
        "owned_powerhouse": owned_powerhouse,
        "most_water_drops": most_water_drops,
        "red_outline_space": red_outline_space,
        "upstream_powerhouse": upstream_powerhouse,
        "downstream_owned_dam": downstream_owned_dam,
    },
    "conduit": {
        "most_powerful": most_powerful,
        "second_most_powerful": second_most_powerful,
        "dam_owned_neutral_opponent": dam_owned_neutral_opponent,
        "powerhouse_owned_opponent": powerhouse_owned_opponent,
        "dam_opponent_neutral_owned": dam_opponent_neutral_owned,
        "powerhouse_opponent_owned": powerhouse_opponent_owned,
    },
    "powerhouse": {
        "most_powerful_conduit": powerhouse_most_powerful_conduit,
        "owned_dam": owned_dam,
        "plains": plains,
        **{f"hills_basin_{g}": _hills_basin(g) for g in (5, 6, 7)},
        "feeding_owned_dam": feeding_owned_dam,
        "not_feeding_opponent_dam": not_feeding_opponent_dam,
    },
}


# Each criterion's rulebook wording, as a trace line's words said in the page's language (the first
# line of the criterion's docstring, which a test holds each to).
_TITLES: dict[tuple[str, str], Text] = {
    ("dam", "most_powerful_conduit"): text("A Dam linked to the most powerful Conduit already built (owned or "
                                           "opponent). Tiebreaker: owned Conduit."),
    ("dam", "owned_powerhouse"): text("A Dam linked to an owned Powerhouse."),
    ("dam", "most_water_drops"): text("A Dam able to receive the most Water Drops in the current Map condition. "
                                      "Tiebreaker: Headstream order."),
    ("dam", "red_outline_space"): text("A building space with a red outline Dam among the eligibles."),
    ("dam", "upstream_powerhouse"): text("A Dam linked (through basins without other Dams) to an upstream Powerhouse."),
    ("dam", "downstream_owned_dam"): text("A Dam linked (by a Conduit link) to a downstream basin with an owned Dam "
                                          "OTHERWISE A Dam not linked (by a Conduit link) to a downstream basin with "
                                          "an opponent Dam."),
    ("conduit", "most_powerful"): text("The most powerful Conduit among the eligibles."),
    ("conduit", "second_most_powerful"): text("The second most powerful Conduit among the eligibles, if any "
                                              "OTHERWISE The most powerful one."),
    ("conduit", "dam_owned_neutral_opponent"): text("A Conduit linked to an owned / neutral / opponent Dam. "
                                                    "Tiebreaker: owned, neutral, opponent."),
    ("conduit", "powerhouse_owned_opponent"): text("A Conduit linked to an owned / opponent Powerhouse. "
                                                   "Tiebreaker: owned, opponent."),
    ("conduit", "dam_opponent_neutral_owned"): text("A Conduit linked to an opponent / neutral / owned Dam. "
                                                    "Tiebreaker: opponent, neutral, owned."),
    ("conduit", "powerhouse_opponent_owned"): text("A Conduit linked to an opponent / owned Powerhouse. "
                                                   "Tiebreaker: opponent, owned."),
    ("powerhouse", "most_powerful_conduit"): text("A Powerhouse linked to the most powerful Conduit already built "
                                                  "(owned or opponent). Tiebreaker: owned Conduit."),
    ("powerhouse", "owned_dam"): text("A Powerhouse linked to an owned Dam."),
    ("powerhouse", "plains"): text("A Powerhouse in the Plains."),
    **{("powerhouse", f"hills_basin_{g}"): text("A Powerhouse in the indicated Hills basin ({group}) (follow the "
                                                "Reference Map).", group=g) for g in (5, 6, 7)},
    ("powerhouse", "feeding_owned_dam"): text("A Powerhouse feeding an owned Dam (through basins without other Dams) "
                                              "OTHERWISE A Powerhouse not directly feeding (through basins) an "
                                              "opponent Dam."),
    ("powerhouse", "not_feeding_opponent_dam"): text("A Powerhouse not directly feeding (through rivers) an opponent "
                                                     "Dam OTHERWISE A Powerhouse directly feeding an owned Dam "
                                                     "(through rivers without other Dams)."),
}


def title(column: str, criterion_id: str) -> Text:
    """The rulebook wording of a criterion, as a trace line's words."""
    return _TITLES[column, criterion_id]
