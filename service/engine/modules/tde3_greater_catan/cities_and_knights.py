"""Greater Catan (TDE3) with Cities & Knights: the scenario text's section "Combining with Cities &
Knights" (seed 003) sets its own target, which wins over C&K's "+2" (CK-SEA-1); the rest is the C&K
combination rules, stacked by the Cities & Knights module above the scenario's."""
from __future__ import annotations

VP = 20                                                  # TDE3-016


class GreaterCatanCitiesAndKnights:
    module_name = "TDE3 with cities_and_knights"

    def ck_vp_target(self) -> int:
        return VP                                        # TDE3-016: 20 VP on own turn


__all__ = ["GreaterCatanCitiesAndKnights", "VP"]
