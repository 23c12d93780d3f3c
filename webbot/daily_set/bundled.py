"""The bundled replica's three pages of the puzzle, by layout (under fixtures/)."""

BUNDLED_PAGES = {"old": "daily-set/puzzle/set.htm",
                 "2022": "daily-set/set/puzzle/2022.html",
                 "current": "daily-set/set/puzzle/index.html"}
