import pytest

from webbot.puzlogic.act import Tempo


@pytest.mark.parametrize("options", [{"drags_per_look": 0}, {"drags_per_look": -2},
                                     {"camera": "webp"}, {"camera": "Pulled"}])
def test_a_tempo_that_means_nothing_is_refused(options):
    with pytest.raises(ValueError):
        Tempo(**options)


@pytest.mark.parametrize("options", [{"drags_per_look": 1}, {"drags_per_look": None},
                                     {"camera": "png"}, {"camera": "pulled"}])
def test_a_tempo_at_the_edge_of_what_it_means_is_accepted(options):
    tempo = Tempo(**options)
    assert all(getattr(tempo, name) == value for name, value in options.items())
