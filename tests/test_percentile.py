"""The counting percentile gives numpy's float, exactly, on any 8-bit values."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from webbot.vision.percentile import percentile

# the boards' own (second_look.py, board.py), the ends, and any other
QUANTILES = st.sampled_from([3, 90, 95, 99.5, 0, 100]) | st.floats(0, 100)
PIXELS = arrays(np.uint8, st.tuples(st.integers(1, 60), st.integers(1, 60)),
                elements=st.integers(0, 255))
# few distinct values, as a patch of paper and ink has: ties at the ranks read
BUNCHED = arrays(np.uint8, st.integers(1, 400), elements=st.sampled_from([0, 17, 200, 255]))


@settings(max_examples=400)
@given(values=PIXELS | BUNCHED, q=QUANTILES)
def test_the_counted_percentile_is_numpys_to_the_last_bit(values, q):
    assert percentile(values, q) == float(np.percentile(values, q))


def test_other_values_than_8_bit_pixels_are_not_counted():
    with pytest.raises(TypeError, match="8-bit"):
        percentile(np.arange(5, dtype=np.float32), 50)
    with pytest.raises(ValueError, match="no values"):
        percentile(np.zeros(0, np.uint8), 50)
