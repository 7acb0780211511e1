"""How an Automa pays the machinery of a construction or an External Work.

A cost is a mapping ``{"excavator": n, "mixer": m}``. Who pays how:

- Easy and Medium: each machine from its own supply ("Machineries Available").
- Hard, the tile's special effect (004, "High Voltage" appendix):
  L2 Joker "you can use Excavators instead of Concrete Mixers and vice-versa" read
  with the Automa rule "Automa will use the Machineries usually required for the
  structure they are building before using the other type"; L2 Conduit caps a
  conduit of cost 6+ at 5 excavators; L3 Base needs no excavators; L2 Building:
  "put in your Construction Wheel only one of the two types of Machinery required"
  with the Automa rule "Automa only use the type of Machinery of which they have
  less in their supply. In case of a tie, Automa will use only Excavators".
- Very Hard officers: Jill McDowell builds a conduit with 1 mixer per conduit value
  ("Automa will always prefer to take Concrete Mixers instead of Excavators");
  Leon Audia's Excamixers count as either type, used last ("prefer to use the
  Excavators and Concrete mixers before using the Excamixers"); Solomon P. Jordan
  pays 3 VP instead of one machine ("will only use a maximum of 3 VPs instead of 1
  Machinery"), machinery first; Wilhelm Adler's bases always cost 3 excavators.

Every function is pure: company and cost in, a :class:`Payment` (or None) out.
"""
from __future__ import annotations

from dataclasses import dataclass

from automa.common.trace import Text, text

from .state import Company
from .words import commas

JORDAN_VP = 3            # credits (VP for an Automa) paid instead of one machine


@dataclass(frozen=True)
class Payment:
    excavators: int = 0
    mixers: int = 0
    excamixers: int = 0
    vp: int = 0          # Jordan: VP paid instead of a machine

    def machines(self) -> int:
        return self.excavators + self.mixers + self.excamixers

    def words(self) -> Text:
        """What is paid, in words for a trace line ("2 excavators, 1 mixers")."""
        parts = [said for n, said in ((self.excavators, text("{n} excavators", n=self.excavators)),
                                      (self.mixers, text("{n} mixers", n=self.mixers)),
                                      (self.excamixers, text("{n} excamixers", n=self.excamixers))) if n]
        if self.vp:
            parts.append(text("{vp} VP instead of a machine", vp=self.vp))
        return commas(parts) if parts else text("no machinery")


def adjusted_cost(company: Company, structure: str, cost: dict[str, int], tile: str | None) -> list[dict[str, int]]:
    """The ways ``company`` may be charged ``cost`` for ``structure`` with ``tile`` (the acting tile), preferred first."""
    cost = {k: v for k, v in cost.items() if v}
    hard = company.automa and company.at_least("hard")
    if structure == "dam_base" and company.has_officer("adler"):
        cost = {"excavator": 3}
    if hard and tile == "L3_BASE":
        return [{}]
    if hard and tile == "L2_BUILDING":
        if len(cost) <= 1:
            return [{}]
        scarcer = "mixer" if company.mixers < company.excavators else "excavator"
        return [{scarcer: cost[scarcer]}]
    options = []
    if structure == "conduit" and company.has_officer("mcdowell"):
        options.append({"mixer": cost["excavator"] // 2})      # 1 mixer per conduit value instead of 2 excavators
    if hard and tile == "L2_CONDUIT" and cost.get("excavator", 0) >= 6:
        cost = {"excavator": 5}
    options.append(cost)
    return options


def plan(company: Company, options: list[dict[str, int]], tile: str | None = None,
         construction: bool = True) -> Payment | None:
    """The first of ``options`` the company can pay, as a Payment; None if it can pay none.
    Jordan's VP stand in for a machine only in a construction ("Whenever you build a structure")."""
    for cost in options:
        pay = _pay(company, cost, tile, construction)
        if pay is not None:
            return pay
    return None


def _pay(company: Company, cost: dict[str, int], tile: str | None, construction: bool) -> Payment | None:
    have = {"excavator": company.excavators, "mixer": company.mixers}
    used = {"excavator": 0, "mixer": 0}
    missing = 0
    for kind in ("excavator", "mixer"):
        need = cost.get(kind, 0)
        take = min(need, have[kind])
        used[kind] += take
        have[kind] -= take
        missing_kind = need - take
        if missing_kind and company.automa and company.at_least("hard") and tile == "L2_JOKER":
            other = "mixer" if kind == "excavator" else "excavator"
            swap = min(missing_kind, have[other])
            used[other] += swap
            have[other] -= swap
            missing_kind -= swap
        missing += missing_kind
    excamixers = min(missing, company.excamixers) if company.has_officer("audia") else 0
    missing -= excamixers
    vp = 0
    if missing == 1 and construction and company.has_officer("jordan"):
        missing, vp = 0, JORDAN_VP
    if missing:
        return None
    return Payment(used["excavator"], used["mixer"], excamixers, vp)
