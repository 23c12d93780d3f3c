"""Pixel tools shared by the games."""
