"""Martin and Moyce's surge fronts as the sph report reads them: both n^2
= 2 series, fronts that only advance, and the interpolation the surge
table quotes, checked against points of the file by hand."""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from families import sph  # noqa: E402


def test_both_series_are_read_and_only_advance():
    series = sph.martin_moyce()
    assert sorted(series) == [1.125, 2.25]
    assert len(series[1.125]) == 10 and len(series[2.25]) == 15
    for points in series.values():
        ts = [t for t, _ in points]
        zs = [z for _, z in points]
        assert ts == sorted(ts) and zs == sorted(zs)
        assert zs[0] > 1  # the front starts at the column's foot, Z = 1


def test_the_table_interpolates_between_measured_points():
    points = sph.martin_moyce()[2.25]
    # Halfway between (1.997, 2.292) and (2.547, 2.995).
    assert abs(sph.interpolated(points, 2.272) - 2.6435) < 1e-9
    assert sph.interpolated(points, 1.997) == 2.292
    assert sph.interpolated(points, 0.5) is None  # before the first point
