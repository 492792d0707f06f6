"""Print the README's table of Clever variants from the results ``scripts/evaluate_variants.py
--json`` wrote (``training/variants-tpc.json`` and ``training/variants-tac.json``): one line
per game, variant and player count, each figure with its 95% interval, the one ``learned``
plays in bold.

Run: ``python scripts/readme_variant_table.py [FILE ...]``, then replace the README's table
(the lines from its head, ``| game | variant | players | heuristic``, to the last row).
"""

from __future__ import annotations

import json
from pathlib import Path

from analyzer.script_args import OneLineParser, fail

ROOT = Path(__file__).resolve().parents[1]
FILES = {"That's Pretty Clever": ROOT / "training" / "variants-tpc.json",
         "Twice As Clever": ROOT / "training" / "variants-tac.json"}
SHORT = {" ".join(f"round_{r}_bonus=False" for r in range(1, 5)): "no round bonus"}
COLUMNS = (("heuristic", "heuristic"), ("learned", "learned (own network)"),
           ("conditioned", "conditioned"), ("specialist", "specialist"))


def cell(result: dict | None) -> str:
    """A figure and its 95% interval, in bold where ``learned`` plays it; empty: none."""
    if result is None:
        return ""
    text = f"{result['value']:.1f} ({result['ci95_low']:.1f}-{result['ci95_high']:.1f})"
    return f"**{text}**" if result["plays"] else text


def rows(title: str, results: list[dict]) -> list[str]:
    """The table's lines of one game."""
    keys = list(dict.fromkeys((r["variant"], r["players"]) for r in results))
    out = []
    for variant, players in keys:
        got = {r["policy"]: r for r in results
               if r["variant"] == variant and r["players"] == players}
        cells = " | ".join(cell(got.get(policy)) for policy, _ in COLUMNS)
        out.append(f"| {title} | {SHORT.get(variant, variant)} | {players} | {cells} |")
    return out


def main() -> None:
    parser = OneLineParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE",
                        help="the results of That's Pretty Clever, then Twice As Clever "
                             "(default: training/variants-tpc.json and -tac.json)")
    opts = parser.parse_args()
    files = dict(zip(FILES, opts.files)) if opts.files else FILES
    lines = []
    for title, path in files.items():
        try:
            lines += rows(title, json.loads(path.read_text()))
        except (OSError, ValueError, KeyError, TypeError) as exc:
            fail(parser.prog, f"results {str(path)!r} cannot be read ({exc}); expected "
                 "the JSON scripts/evaluate_variants.py --json writes")
    print("| game | variant | players | " + " | ".join(h for _, h in COLUMNS) + " |")
    print("|---|---|---|" + "---|" * len(COLUMNS))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
