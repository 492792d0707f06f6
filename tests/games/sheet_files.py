"""Sheet files for the Clever games' tests."""

import json


def sheet_file(game, folder, **fields):
    """A sheet file of ``game`` in ``folder``: a blank sheet with ``fields`` set."""
    doc = game.sheetfile.blank()
    doc.update(fields)
    path = folder / "sheet.json"
    path.write_text(json.dumps(doc))
    return path
