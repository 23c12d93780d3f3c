"""SET cards read from pictures: a board of the Daily SET puzzle, a photo of the card game on a
table (picture.read_picture), or one card (single.read_single).

A picture is read in four stages, each a function with a typed result: find the cards
(find.py, photo.py), cut each (cut.py), read each (read.py), check the board (check.py).
Drawing what was read (draw.py) is apart from reading it.
"""
