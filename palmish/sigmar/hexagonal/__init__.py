"""Sigmar's Garden on Opus Magnum's own board: the hexagonal garden (docs/sigmar-rules.md).

rules.py (the board as bitboards), geometry.py (the board as cells and drawing
places: HEXAGON), game.py (HexGame), level.py (the `.hgl` format and the bundled
levels in levels/), record.py, generator.py and solver.py; the square
remake's Game and this HexGame meet in palmish/sigmar/garden.py. Pure: no device.
"""
