"""SET cards read from pictures: a card picture, a board of the Daily SET puzzle, or a table of
the card game photographed."""
