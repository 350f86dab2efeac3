"""Pictures drawn with matplotlib (Agg, no window): the table with its pawns, a study's
boards, heat maps and lines. matplotlib itself is loaded only when a picture is drawn.
"""
