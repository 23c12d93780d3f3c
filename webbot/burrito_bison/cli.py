"""`webbot burrito-bison` (play rounds) and `webbot burrito-bison classify` (screenshots)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import click

from webbot.burrito_bison.screens import TemplatePack, classify, read_image


def classify_command(paths: Sequence[str], templates: Path | None, as_json: bool) -> None:
    pack = TemplatePack(templates)
    for path in paths:
        sighting = classify(pack, read_image(path))
        if as_json:
            click.echo(json.dumps({"file": path, "screen": sighting.screen}))
            continue
        evidence = sighting.evidence
        why = f" ({evidence.name} {evidence.score:.2f})" if evidence else ""
        targets = "; ".join(f"{role} at ({x:.0f}, {y:.0f})"
                            for role, (x, y) in sighting.targets.items())
        click.echo(f"{path}: {sighting.screen}{why}" + (f"; {targets}" if targets else ""))
