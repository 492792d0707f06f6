"""That's Pretty Clever exact bookkeeping: the score of a sheet."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analyzer.output import Result
from kernels.thats_pretty_clever import layout as L
from kernels.thats_pretty_clever.rules import area_scores, total_score


def score_result(sheet: np.ndarray) -> Result:
    """Per-area scores, foxes and the total of a sheet (rules page section 12)."""
    scores = np.zeros(L.N_AREAS, np.int64)
    area_scores(sheet, scores)
    total = int(total_score(sheet))
    rows = [{"area": name, "score": int(scores[a])} for a, name in enumerate(L.AREA_NAMES)]
    fox_value = int(scores.min())
    rows.append({"area": f"foxes ({int(sheet[L.S_FOXES])} x {fox_value})",
                 "score": int(sheet[L.S_FOXES]) * fox_value})
    return Result("That's Pretty Clever sheet score",
                  headline={"total": total, "foxes": int(sheet[L.S_FOXES]),
                            "areas": {n: int(scores[a]) for a, n in enumerate(L.AREA_NAMES)}},
                  tables={"score": pd.DataFrame(rows)},
                  notes=["each fox is worth the lowest area score; nothing if any area is 0"])
