"""What the players enter after the Autômato's move, turned into ops (seed 001, "Peças de
Exploração", "Combate", "Dominação de construções e pós-movimento").

- A revealed tile. A flag: the Autômato plays no combat card against it; it wins the flag only
  with the FC it has there (units and frames) at least the flag's. A quilombo goes back to the
  box (the Autômato takes no new mission card). Any other tile is resolved by the base rules and
  leaves the map.
- A combat. The Autômato uses 2 combat cards whenever it can, revealed after the player chose
  theirs; its strength is its units' FC, its frames', palaces III and IV for its constructions
  (every palace already counts for it) and the cards' power; it gains nothing from the Camp and
  Surrender cards ("Acampamento e Rendição"). The higher total wins; on a tie the
  defender holds (ruling B8). The used combat cards are discarded; defeated units go to the stock.
  The Autômato winning on a player's construction dominates it (its resources and elements go
  back to the reserve). Defeated, its compass goes to its last unit lying on the map, or to its
  capital.
"""
from __future__ import annotations

from dataclasses import dataclass

from automa.common.errors import StateError

from .movement import strength
from .state import AUTOMA, GameState, hex_key, parse_hex

FC_PALACES = (2, 3)          # indexes of palaces III and IV in the board's order I-VI


def reveal(s: GameState, kind: str, fc: int = 0) -> tuple[list[dict], str]:
    if s.pending is None or s.pending.get("kind") != "explore":
        raise StateError("no exploration tile is waiting to be entered")
    h = parse_hex(s.pending["hex"], "pending.hex")
    ops: list[dict] = [{"op": "reveal", "kind": kind, "fc": fc}]
    if kind == "flag":
        mine = strength(s, [u for u in s.board.ids("units")
                            if s.automa.units[u].at == h and s.automa.units[u].lying is None])
        if mine >= fc:
            ops.append({"op": "flag", "hex": hex_key(h)})
            return ops, f"Flag needing FC {fc}: the Autômato has FC {mine} there and wins it (with its useful bonuses)."
        return ops, f"Flag needing FC {fc}: the Autômato has only FC {mine}; the flag stays face up."
    ops.append({"op": "discard_tile", "hex": hex_key(h)})
    if kind == "quilombo":
        return ops, "Quilombo: put it back in the box; the Autômato takes no new mission card."
    return ops, "Resolve the tile by the base rules for the Autômato (it never pays or collects resources)."


@dataclass(frozen=True)
class CombatOutcome:
    automa_total: int
    player_total: int
    winner: str            # "automa" or the player's side ("player")
    ops: list[dict]
    text: str


def automa_strength(s: GameState) -> int:
    """The Autômato's FC in the pending combat before its cards are revealed."""
    p = s.pending
    h = parse_hex(p["hex"], "pending.hex")
    units = [u for u in s.board.ids("units") if s.automa.units[u].at == h]
    b = s.cells[h].building
    mine = b is not None and b.owner == AUTOMA and b.kind == "construction"
    palaces = sum(x.fc for x in fighting_palaces(s) if s.board.palace_strengthens(x.id, b.ref)) if mine else 0
    return strength(s, units) + palaces


def fighting_palaces(s: GameState) -> list:
    """Palaces III and IV, the third and fourth of the board's I-VI: "os Palácios III e IV ...
    também geram mais Força de Combate ... Entretanto, o Palácio II não gera nenhum bônus ao
    Autômato", so an FC entered on any other palace is not the Autômato's; each strengthens the
    constructions the table file names for it (all, when it names none; ruling B19)."""
    return [p for i, p in enumerate(s.board.palaces) if i in FC_PALACES]


def combat(s: GameState, cards_power: int, player_total: int, winner: str | None = None) -> CombatOutcome:
    """The pending combat's ops from the revealed cards' power and the player's total; ``winner``
    ("automa" or "player"): the players' own reading of the base rules, overriding the sums."""
    if s.pending is None or s.pending.get("kind") != "combat":
        raise StateError("no combat is waiting for its result")
    p = s.pending
    h = parse_hex(p["hex"], "pending.hex")
    mine = automa_strength(s) + (cards_power if p["cards"] else 0)
    attacker_is_automa = p.get("attacker", AUTOMA) == AUTOMA
    if winner in ("automa", "player"):
        automa_wins = winner == "automa"
    elif mine != player_total:
        automa_wins = mine > player_total
    else:
        automa_wins = not attacker_is_automa          # ruling B8: the defender holds on a tie
    ops: list[dict] = [{"op": "discard_combat"}]
    cell = s.cells[h]
    if automa_wins:
        ops.append({"op": "foes_defeated"})
        text = f"The Autômato wins ({mine} against {player_total}): your units there go to your stock."
        if attacker_is_automa and cell.building and cell.building.owner != AUTOMA and cell.building.kind == "construction":
            ops.append({"op": "dominate"})
            text += (f" It dominates your construction at {hex_key(h)}: discard its resources and elements to "
                     "the reserve.")
    else:
        ops.append({"op": "defeated"})
        text = f"You win ({player_total} against {mine}): the Autômato's units there go to its stock."
        lying = [(u.lying, uid) for uid, u in s.automa.units.items() if u.lying is not None and u.at != h]
        standing_elsewhere = [uid for uid, u in s.automa.units.items() if u.at not in (None, h) and u.lying is None]
        if lying and not standing_elsewhere:
            _, last = max(lying)
            at = s.automa.units[last].at
            ops.append({"op": "compass", "heading": s.heading, "at": hex_key(at)})
            text += f" Its compass goes to its last unit lying on the map, at {hex_key(at)}."
        elif not standing_elsewhere:
            text += " Its compass goes back to its capital."
    ops.append({"op": "combat_done"})
    return CombatOutcome(mine, player_total, "automa" if automa_wins else "player", ops,
                         text + f" Discard the {p['cards']} combat card(s) it used.")
