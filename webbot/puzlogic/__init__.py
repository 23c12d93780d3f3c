"""Puzlogic: place numbered pieces on a grid so no row or column repeats and sums hit targets."""
