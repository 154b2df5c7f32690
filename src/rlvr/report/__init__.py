"""Reports: the run report (``html.write_report``) and the group-advantage calculator page.

Both write self-contained HTML (inline SVG/CSS/JS, no external file or network request).
Import the submodules directly; this package imports nothing heavy.
"""
