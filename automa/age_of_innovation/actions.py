"""Every Automa action (seed 002, *Akcje Automy*): condition, eligible options, tie-breakers in
order, execution.

"If the condition is not met, the action fails and the Automa goes on to the next action of the
action card. If no option is eligible, skip the action. With several eligible options, apply the
tie-breakers from top to bottom until one is left. For a faction action, use the faction's own
tie-breakers (on its faction card) before the general ones."

Each action runs on a working copy of the state: its ops are applied at once, so the next
action of the card sees what the previous one did (a faction's build, then its points).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from automa.common import hexgrid as hx
from automa.common.trace import Text, Trace, text

from .board import Hex
from .data import (DISCIPLINES, Card, FactionAction, Support, components, factions, final_tiles, round_tiles,
                   terrain_priority)
from .ops import Op, apply_op
from .selection import INF, by_minimum, directional, hexes_in_reading_order, narrow, nearest_to, terrain_order
from .state import GameState
from .trace_words import word, words


@dataclass
class Turn:
    """What one Automa turn works on: the working state, the support card, the trace and the ops."""

    state: GameState
    support: Support
    trace: Trace
    ops: list[Op] = field(default_factory=list)
    said: list[str] = field(default_factory=list)      # one sentence per action carried out
    sentences: list[dict] = field(default_factory=list)  # the same sentences as data, for pages in other languages
    target: str | None = None
    target_hex: Hex | None = None
    done: list[str] = field(default_factory=list)      # the actions carried out, in order (the decision's action)

    def emit(self, op: Op) -> None:
        apply_op(self.state, op)
        self.ops.append(op)

    def say(self, text: str, kind: str, **values) -> None:
        """One sentence of the instruction: its English text, and its kind with the values it
        names (a page composes it in its own language from these)."""
        self.said.append(text)
        self.sentences.append({"kind": kind, **values})

    @property
    def players(self) -> tuple[str, ...]:
        """Who "you" are: in the two players + Automa variant, both players (seed 002)."""
        return self.state.player_names

    def label(self, h: Hex) -> Text:
        """The hex and its terrain, as a trace line names an option (``str``: the English)."""
        return text("{hex} ({terrain})", hex=self.state.board.named(h), terrain=word(self.state.board.terrain[h]))


# -- score points ----------------------------------------------------------------------------
def score_points(t: Turn, points: int | str | None, modifier: int = 0) -> bool:
    """*Zdobywanie punktów*: the icon's points; X = the difficulty card's value this round."""
    with t.trace.section("Score points"):
        if points == "X":
            base = t.state.x_points()
            t.trace.add("X on the difficulty card ({level}) in round {round} = {points}", level=t.state.level,
                        round=t.state.round, points=base)
        else:
            base = int(points or 0)
        total = max(0, base + modifier)
        if modifier:
            signed = f"{modifier:+d}"
            t.trace.add("faction modifier {modifier}: {total} (never below 0)", modifier=signed, total=total)
        if total == 0:
            t.trace.add("0 points: nothing to score")
            return False
        t.emit({"op": "vp", "who": "automa", "points": total, "why": "score points"})
        t.done.append("score_points")
        t.say(f"The Automa scores {total} VP.", "score", points=total)
        return True


# -- gain innovation -------------------------------------------------------------------------
def gain_innovation(t: Turn) -> bool:
    with t.trace.section("Gain an innovation"):
        if t.state.round < 3 or len(t.state.automa.innovations) >= 3:
            t.trace.add("condition fails: round {round}, {n} innovations (needs round 3-6 and fewer than 3)",
                        round=t.state.round, n=len(t.state.automa.innovations))
            return False
        free = [i for i, x in enumerate(t.state.innovations) if x is not None]
        if not free:
            t.trace.add("no innovation left on the display")
            return False
        t.trace.add("eligible: {n} innovations on the display", n=len(free))
        i = directional(free, t.support, t.trace, lambda k: str(t.state.innovations[k]))
        name = t.state.innovations[i]
        t.emit({"op": "innovation", "who": "automa", "index": i})
        t.done.append("gain_innovation")
        t.say(f"The Automa takes innovation {name} (position {i + 1} of the display) and gains nothing for it.",
              "innovation", innovation=name, position=i + 1)
        t.target = t.target or f"innovation {name}"
        return True


# -- block a spell and a book action ---------------------------------------------------------
# the trace's words for a spell and for a book action, each line written out (another language
# says "every spell" and "every book action" each its own way): covered, eligible, one of them
BLOCK_WORDS = {
    "spells": (lambda: text("spell: condition fails, every spell is covered"),
               lambda numbers: text("spell: eligible {numbers} (left to right)", numbers=numbers),
               lambda n: text("spell {n}", n=n)),
    "books": (lambda: text("book action: condition fails, every book action is covered"),
              lambda numbers: text("book action: eligible {numbers} (left to right)", numbers=numbers),
              lambda n: text("book action {n}", n=n)),
}


def block_spell_and_book(t: Turn) -> bool:
    """Blokowanie zaklęć i akcji księgi: an X on a free spell, then the same for a book action."""
    done = False
    with t.trace.section("Block a spell and a book action"):
        for what, name in (("spells", "spell"), ("books", "book action")):
            covered, eligible, one = BLOCK_WORDS[what]
            free = [i for i, x in enumerate(getattr(t.state, what)) if x is None]
            if not free:
                t.trace.add(covered())
                continue
            t.trace.add(eligible([i + 1 for i in free]))
            i = directional(free, t.support, t.trace, lambda k, one=one: one(k + 1))
            t.emit({"op": "cover", "what": what, "index": i, "who": "automa"})
            t.say(f"Put an X token on {name} {i + 1} (counted from the left).", "cover", what=what, number=i + 1)
            t.target = t.target or f"{name} {i + 1}"
            done = True
    if done:
        t.done.append("block_spell_and_book")
    return done


# -- science -----------------------------------------------------------------------------------
def _eligible_disciplines(t: Turn) -> list[str]:
    """Disciplines without a marker on level 12 (nobody's marker: the top is taken)."""
    top = components().top_level
    return [d for d in DISCIPLINES if t.state.automa.science[d] < top
            and all(p.science[d] < top for p in t.state.players)]


def _catch_up(t: Turn, options: list[str]) -> str:
    """*Doganianie*: the discipline where the Automa is on 0; then the one where it is closest
    to your marker (two players: to the highest players' marker); then directional selection."""
    a = t.state.automa.science
    options = narrow(options, [d for d in options if a[d] == 0], t.trace, text("catching up: the Automa's marker on 0"),
                     word)
    if len(options) > 1:
        if t.state.two_players:
            highest = {d: max(p.science[d] for p in t.state.players) for d in options}
            options = by_minimum(options, lambda d: abs(a[d] - highest[d]), t.trace,
                                 text("catching up: closest to the highest placed marker"), word)
        else:
            you = t.state.players[0].science
            options = by_minimum(options, lambda d: abs(a[d] - you[d]), t.trace,
                                 text("catching up: closest to your marker"), word)
    if len(options) > 1:
        return directional(options, t.support, t.trace, word)
    return options[0]


def send_scholar(t: Turn) -> bool:
    with t.trace.section("Send a scholar"):
        options = _eligible_disciplines(t)
        if not options:
            t.trace.add("condition fails: every discipline has a marker on 12")
            return False
        t.trace.add("eligible: {disciplines}", disciplines=words(options))
        choice = None
        if t.support.science == "round_tile":
            disc = current_tile_discipline(t.state)
            if disc in options:
                t.trace.add("round scoring tile: the Automa icon is {discipline}'s colour -> {discipline}",
                            discipline=word(disc))
                choice = disc
            else:
                t.trace.add("round scoring tile: {discipline} is not eligible, catch up instead", discipline=word(disc))
        else:
            t.trace.add("support card: catch up")
        if choice is None:
            choice = options[0] if len(options) == 1 else _catch_up(t, options)
        spaces = t.state.scholar_spaces[choice]
        free = [i for i, who in enumerate(spaces) if who is None]
        values = components().scholar_spaces
        if t.state.automa.scholars > 0 and free:
            space = max(free, key=lambda i: (values[i], -i))
            levels = values[space]
            t.emit({"op": "science", "who": "automa", "discipline": choice, "levels": levels, "space": space})
            t.say(f"Place an Automa scholar on the {choice} scholar space worth {levels} and move its "
                  f"{choice} marker up {levels} (to {t.state.automa.science[choice]}).",
                  "scholar", discipline=choice, levels=levels, to=t.state.automa.science[choice])
        else:
            if t.state.automa.scholars <= 0:
                t.trace.add("no scholar left: 1 level without a scholar")
            else:
                t.trace.add("no free {discipline} scholar space: 1 level without a scholar", discipline=word(choice))
            t.emit({"op": "science", "who": "automa", "discipline": choice, "levels": 1, "space": None})
            t.say(f"Move the Automa's {choice} marker up 1 (to {t.state.automa.science[choice]}), "
                  "no scholar placed.", "advance_no_scholar", discipline=choice, to=t.state.automa.science[choice])
        t.target = t.target or choice
        t.done.append("send_scholar")
        return True


def advance_discipline(t: Turn, levels: int = 1) -> bool:
    title = text("Advance {levels} levels in 1 discipline", levels=levels) if levels > 1 else \
        text("Advance {levels} level in 1 discipline", levels=levels)
    with t.trace.section(title):
        options = _eligible_disciplines(t)
        if not options:
            t.trace.add("condition fails: every discipline has a marker on 12")
            return False
        t.trace.add("eligible: {disciplines}", disciplines=words(options))
        choice = options[0] if len(options) == 1 else _catch_up(t, options)
        t.emit({"op": "science", "who": "automa", "discipline": choice, "levels": levels, "space": None})
        t.say(f"Move the Automa's {choice} marker up {levels} (to {t.state.automa.science[choice]}).",
              "advance", discipline=choice, levels=levels, to=t.state.automa.science[choice])
        t.target = t.target or choice
        t.done.append("advance_discipline")
        return True


def current_tile_discipline(state: GameState) -> str:
    if state.round == 6:
        return final_tiles()[state.final_tile].discipline
    return round_tiles()[state.round_tiles[state.round - 1]].discipline


# -- transform and build ---------------------------------------------------------------------
def _distance_maps(t: Turn) -> tuple[dict[Hex, int], dict[Hex, int], list[Hex], list[Hex]]:
    b = t.state.board
    marked = [h for h in b.owned("automa") if b.buildings[h].marked]
    unmarked = [h for h in b.owned("automa") if not b.buildings[h].marked]
    dm = b.distances_from(marked, t.players) if marked else {}
    du = b.distances_from(unmarked, t.players) if unmarked else {}
    return dm, du, marked, unmarked


def would_be_marked(t: Turn, h: Hex) -> bool:
    """The new workshop is marked when the nearest Automa building is a marked one, ties
    excluded: with a marked and an unmarked building equally near it stays unmarked."""
    dm, du, _, _ = _distance_maps(t)
    return dm.get(h, INF) < du.get(h, INF)


def _bring_together(t: Turn, options: list[Hex]) -> list[Hex]:
    """*Zbliżanie*: if no marked building is within Reach of an unmarked one, keep only the
    hexes that would shorten the shortest distance between marked and unmarked buildings;
    if none would, every hex stays."""
    b, nav = t.state.board, t.state.navigation()
    dm, du, marked, unmarked = _distance_maps(t)
    if not marked or not unmarked:
        t.trace.add("bringing together: the Automa has no two groups (marked and unmarked) to bring together")
        return options
    if any(m in b.reach(u, nav) for u in unmarked for m in marked):
        t.trace.add("bringing together: a marked building is already within Reach of an unmarked one, no narrowing")
        return options
    current = min(dm.get(u, INF) for u in unmarked)
    keep = []
    for h in options:
        other = du if dm.get(h, INF) < du.get(h, INF) else dm
        if min(current, other.get(h, INF)) < current:
            keep.append(h)
    return narrow(options, keep, t.trace,
                  text("bringing together (shortest distance marked-unmarked now {distance})", distance=current), t.label)


def _eligible_build_hexes(t: Turn, ignore_reach: bool) -> list[Hex]:
    b, nav = t.state.board, t.state.navigation()
    empty = set(b.empty_land())
    if ignore_reach:
        t.trace.add("eligible: every empty terrain hex, range ignored (faction): {n}", n=len(empty))
        return hexes_in_reading_order(list(empty))
    marked = t.support.buildings == "marked"
    sources = [h for h in b.owned("automa") if b.buildings[h].marked == marked]
    reach: set[Hex] = set()
    for s in sources:
        reach |= b.reach(s, nav)
    options = hexes_in_reading_order(list(reach & empty))     # listed in the trace as a player reads the board
    if marked:
        t.trace.add("eligible: empty terrain hexes within Reach (navigation {nav}) of the Automa's marked buildings: {n}",
                    nav=nav, n=len(options))
    else:
        t.trace.add("eligible: empty terrain hexes within Reach (navigation {nav}) of the Automa's unmarked buildings: "
                    "{n}", nav=nav, n=len(options))
    return options


def transform_and_build(t: Turn, faction_tiebreakers: tuple[str, ...] = (), ignore_reach: bool = False) -> bool:
    with t.trace.section("Transform and Build"):
        if t.state.automa_supply("workshop") <= 0:
            t.trace.add("condition fails: no workshop left in the Automa's area -> Upgrade instead")
            return upgrade(t)
        if not t.state.board.owned("automa"):
            return _by_hand(t, "transform and build", build_parameters(t, faction_tiebreakers, ignore_reach),
                            ignore_reach=ignore_reach, navigation=t.state.navigation(), buildings=t.support.buildings,
                            bring_together=t.support.bring_together, tiebreakers=list(faction_tiebreakers),
                            row=t.support.terrain_row,
                            order=list(terrain_priority()[t.support.terrain_row][t.state.terrain]),
                            terrain=t.state.terrain, direction=t.support.direction, count=t.support.count)
        options = _eligible_build_hexes(t, ignore_reach)
        if options and t.support.bring_together:
            options = _bring_together(t, options)
        if not options:
            t.trace.add("no eligible hex -> Upgrade instead")
            return upgrade(t)
        b = t.state.board
        for tb in faction_tiebreakers:
            if len(options) == 1:
                break
            if tb == "nearest_to_you":
                options = nearest_to(options, b, t.players, t.trace)
            elif tb == "your_terrain_priority":
                yours = t.state.players[0].terrain
                if yours is None:
                    t.trace.add("your terrain priority: your preferred terrain is not known, skipped")
                else:
                    options = terrain_order(options, b, t.support.terrain_row, yours, t.trace,
                                            text("your terrain priority"))
            elif tb == "most_power_for_you":
                options = by_minimum(options, lambda h: b.power_for_players(h, t.players), t.trace,
                                     text("giving you the most power"), t.label, largest=True)
        if len(options) > 1:
            options = terrain_order(options, b, t.support.terrain_row, t.state.terrain, t.trace)
        if len(options) > 1:
            options = nearest_to(options, b, t.players, t.trace)
        h = options[0] if len(options) == 1 else directional(hexes_in_reading_order(options), t.support, t.trace, t.label)
        marked = would_be_marked(t, h)
        transform = b.terrain[h] != t.state.terrain
        if marked:
            t.trace.add("build on {hex}; the nearest Automa building is marked: power token placed", hex=t.label(h))
        else:
            t.trace.add("build on {hex}; the nearest Automa building is unmarked (or a tie): no power token",
                        hex=t.label(h))
        said, was = [], b.terrain[h]
        if transform:
            said.append(f"Transform {t.label(h)} to {t.state.terrain} (place a {t.state.terrain} terrain tile)")
            t.emit({"op": "terrain", "hex": list(h), "terrain": t.state.terrain})
        t.emit({"op": "build", "hex": list(h), "owner": "automa", "kind": "workshop", "marked": marked})
        said.append(f"{'and build' if transform else 'Build'} an Automa workshop on {t.state.board.label(h)}"
                     + (" with a power token (marked)" if marked else " (unmarked, no power token)"))
        t.say(" ".join(said) + ".", "build", hex=list(h), was=was, terrain=t.state.terrain, transform=transform,
              marked=marked)
        t.target, t.target_hex = t.target or t.state.board.label(h), t.target_hex or h
        t.done.append("transform_and_build")
        _powermongers(t, h)
        return True


TIEBREAKER_WORDS = {"nearest_to_you": "nearest to your buildings", "your_terrain_priority": "your terrain priority",
                    "most_power_for_you": "giving you the most power"}


def build_parameters(t: Turn, faction_tiebreakers: tuple[str, ...] = (), ignore_reach: bool = False) -> str:
    """Transform and Build as the cards say it, every parameter resolved that needs no map."""
    sup = t.support
    order = ", ".join(terrain_priority()[sup.terrain_row][t.state.terrain])
    where = ("any empty terrain hex (range ignored)" if ignore_reach else
             f"an empty terrain hex within Reach (navigation {t.state.navigation()}) of the Automa's "
             f"{sup.buildings} buildings" + (", bringing marked and unmarked together" if sup.bring_together else ""))
    own = (f"first the faction's tie-breakers ({', '.join(TIEBREAKER_WORDS[tb] for tb in faction_tiebreakers)}), then "
           if faction_tiebreakers else "")
    return (f"{where}; {own}terrain priority row {sup.terrain_row} ({order}), then nearest to your buildings, then "
            f"directional selection {'left to right' if sup.direction == 'reading' else 'right to left'} "
            f"{sup.count}; transform it to {t.state.terrain} and build a workshop, with a power token if the "
            "nearest Automa building is marked")


def upgrade_parameters(t: Turn) -> str:
    sup = t.support
    return ("a workshop next to your buildings if a guild is available, else any building it can upgrade; "
            "giving you the least power, then directional selection "
            f"{'left to right' if sup.direction == 'reading' else 'right to left'} {sup.count}; "
            "to the highest building allowed (a guild becomes the palace before a school)")


def _by_hand(t: Turn, action: str, parameters: str, **values) -> bool:
    """The map does not show the Automa's buildings: the players carry the action out by the
    parameters the cards give (``values``: those parameters as data)."""
    t.trace.add("the map shows no Automa building: the players choose the hex by the card's parameters")
    t.say(f"The Automa does {action}: {parameters}.", f"by_hand_{action.replace(' ', '_')}", **values)
    t.done.append(action.replace(" ", "_"))
    return True


# -- upgrade -----------------------------------------------------------------------------------
def _best_upgrade(t: Turn, kind: str) -> str | None:
    """The highest-power building ``kind`` may become with a piece left (a guild becomes the
    palace before a school)."""
    comp = components()
    allowed = [k for k in comp.upgrades[kind] if t.state.automa_supply(k) > 0]
    return max(allowed, key=lambda k: comp.power[k]) if allowed else None


def upgrade(t: Turn) -> bool:
    with t.trace.section("Upgrade"):
        b = t.state.board
        if not b.owned("automa"):
            return _by_hand(t, "upgrade", upgrade_parameters(t), direction=t.support.direction,
                            count=t.support.count)
        options = hexes_in_reading_order([h for h in b.owned("automa") if _best_upgrade(t, b.buildings[h].kind)])
        if not options:
            t.trace.add("condition fails: the Automa cannot upgrade any building")
            return False
        t.trace.add("eligible: {n} buildings", n=len(options))
        if t.state.automa_supply("guild") > 0:
            near_you = [h for h in options if b.buildings[h].kind == "workshop"
                        and any((n in b.buildings and b.buildings[n].owner in t.players) for n in hx.neighbours(h))]
            options = narrow(options, near_you, t.trace, text("a guild is available: workshops next to your buildings"),
                             t.label)
        else:
            t.trace.add("no guild available: any building the Automa can upgrade")
        if len(options) > 1:
            options = by_minimum(options, lambda h: b.power_for_players(h, t.players), t.trace,
                                 text("giving you the least power"), t.label)
        h = options[0] if len(options) == 1 else directional(hexes_in_reading_order(options), t.support, t.trace, t.label)
        old = b.buildings[h].kind
        new = _best_upgrade(t, old)
        t.emit({"op": "upgrade", "hex": list(h), "kind": new})
        t.say(f"Upgrade the Automa's {old} on {t.state.board.label(h)} to a {new}"
              + (" (it takes no competency tile)." if new in ("school", "university") else "."),
              "upgrade", hex=list(h), old=old, new=new)
        t.target, t.target_hex = t.target or t.state.board.label(h), t.target_hex or h
        t.done.append("upgrade")
        _powermongers(t, h)
        return True


def _powermongers(t: Turn, h: Hex) -> None:
    """Powermongers' ongoing ability: whenever you gain 2 or more power from the Automa's
    building, the Automa advances 1 level in a discipline (catching up)."""
    faction = factions()[t.state.faction]
    if "advance_when_you_gain_two_power" not in faction.rules:
        return
    power = t.state.board.power_for_players(h, t.players)
    if power >= 2:
        t.trace.add("Powermongers: you may gain {power} power from it -> the Automa advances 1 level", power=power)
        advance_discipline(t, 1)


# -- faction actions ---------------------------------------------------------------------------
def place_tool(t: Turn) -> bool:
    """Symbionts' faction action: place a Tool.

    Eligible: every terrain space directly adjacent to any of your buildings (empty: no
    building and no tool yet, ruling A24). Tie-breakers: terrain priority, the support card's
    row, on the terrain priority card of the Symbiont *youth* (their second terrain, set up
    with the faction); then directional selection. Execution: a Tool on the chosen space.
    """
    with t.trace.section("Symbionts: place a tool"):
        b = t.state.board
        options = hexes_in_reading_order(list({n for h in b.owned(t.players) for n in hx.neighbours(h)
                                               if b.is_land(n) and n not in b.buildings and n not in b.tools}))
        if not options:
            t.trace.add("no eligible space: no empty terrain space directly next to your buildings")
            return False
        t.trace.add("eligible: {n} empty terrain spaces directly next to your buildings", n=len(options))
        if len(options) > 1:
            options = terrain_order(options, b, t.support.terrain_row, t.state.youth_terrain, t.trace,
                                    text("terrain priority of the Symbiont youth"))
        h = options[0] if len(options) == 1 else directional(hexes_in_reading_order(options), t.support, t.trace, t.label)
        t.emit({"op": "tool", "hex": list(h)})
        t.done.append("place_tool")
        t.say(f"Place a tool on {t.state.board.label(h)}.", "tool", hex=list(h))
        t.target, t.target_hex = t.target or t.state.board.label(h), t.target_hex or h
        return True


def blight_fallow_land(t: Turn, count: int) -> bool:
    """The Blight's faction action: transform ``count`` fallow land into blighted land.

    Fallow land is what the players mark on the map (the faction card's set-up says which; its
    text is not in the seed). Each time: eligible, every fallow land hex; chosen by directional
    selection (the tie-breaker every list of the seed ends with; ruling A25); the next one
    counted again among those left. Where the map shows neither fallow nor blighted land the
    players carry it out by the card.
    """
    with t.trace.section("The Blight: transform {count} fallow land into blighted land", count=count):
        b = t.state.board
        if not b.fallow and not b.blighted:
            t.trace.add("the map shows no fallow land: the players follow the faction card")
            t.say(f"Transform {count} fallow land into blighted land (see the Blight's faction card; "
                  "mark fallow land on the map and the page chooses it).", "blight_by_hand", count=count)
            t.done.append("blight_fallow_land")
            return True
        done = []
        for i in range(count):
            options = hexes_in_reading_order(sorted(b.fallow))
            if not options:
                t.trace.add("transformation {n}: no fallow land left on the map", n=i + 1)
                break
            t.trace.add("transformation {n}: eligible, {hexes} fallow land hexes", n=i + 1, hexes=len(options))
            h = options[0] if len(options) == 1 else directional(options, t.support, t.trace, t.label)
            t.emit({"op": "land", "hex": list(h), "land": "blighted"})
            done.append(h)
        if not done:
            return False
        t.done.append("blight_fallow_land")
        t.say("Transform the fallow land on " + " and ".join(b.label(h) for h in done) + " into blighted land.",
              "blight", hexes=[list(h) for h in done])
        t.target, t.target_hex = t.target or b.label(done[0]), t.target_hex or done[0]
        return True


def faction_action(t: Turn) -> bool:
    """*Akcja frakcji*: every action on the faction card, in reading order."""
    faction = factions()[t.state.faction]
    done = False
    with t.trace.section("Faction action ({faction})", faction=faction.name):
        for fa in faction.actions:
            done |= _faction_step(t, faction.tiebreakers, "ignore_reach" in faction.rules, fa)
    return done


def _faction_step(t: Turn, tiebreakers: tuple[str, ...], ignore_reach: bool, fa: FactionAction) -> bool:
    if fa.action == "transform_and_build":
        return transform_and_build(t, tiebreakers, ignore_reach)
    if fa.action == "score_points":
        return score_points(t, fa.points, fa.modifier)
    if fa.action == "advance_discipline":
        return advance_discipline(t, fa.levels)
    if fa.action == "place_tool":
        return place_tool(t)
    return blight_fallow_land(t, fa.count)


def perform(t: Turn, card: Card) -> bool:
    """The action card's Action column, top to bottom; True if any action was carried out."""
    done = False
    for action in card.actions:
        if action == "score_points":
            done |= score_points(t, card.points)
        elif action == "transform_and_build":
            done |= transform_and_build(t)
        elif action == "upgrade":
            done |= upgrade(t)
        elif action == "block_spell_and_book":
            done |= block_spell_and_book(t)
        elif action == "send_scholar":
            done |= send_scholar(t)
        elif action == "advance_discipline":
            done |= advance_discipline(t)
        elif action == "gain_innovation":
            done |= gain_innovation(t)
        else:
            before = len(t.done)
            done |= faction_action(t)
            if len(t.done) > before:   # the faction card's actions, named as one faction action
                t.done[before:] = ["faction_action(" + ",".join(t.done[before:]) + ")"]
    return done


ACTION_WORDS = {"transform_and_build": "transform and build", "block_spell_and_book": "block a spell and a book action"}


def carried_out(t: Turn) -> str:
    """The decision's action: what the Automa did, in order ("transform and build" that became an
    Upgrade reads "upgrade"; an action that failed is left out); "nothing" when no action was
    eligible (seed 002: "Automa nie wykonuje żadnej akcji w tej turze")."""
    def words(name: str) -> str:
        if name.startswith("faction_action("):
            return "faction action (" + " + ".join(words(n) for n in name[15:-1].split(",")) + ")"
        return ACTION_WORDS.get(name, name.replace("_", " "))
    return " + ".join(words(n) for n in t.done) or "nothing"

