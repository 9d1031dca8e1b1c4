"""Page families: generated pages with random parameters drawn from a seed.

Each family is one module here exporting `FAMILY` (its name) and
`generate(seed, out_dir) -> Path`, which writes `<family>-<seed>.<ext>` and
`<family>-<seed>.truth.json` (the truth format of `Scans/*.truth.json`, read
by `scantext eval --truth`) into `out_dir` and returns the image's path.
The same seed always gives the same bytes. `scans.make_scans` is
`Tools/generate/make-scans.py` loaded as a module, for its layout and rendering.
"""
