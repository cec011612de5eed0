"""benchmarks/batch_scaling.py draws its legend clear of both panels, and --replot redraws a saved run."""

import json

from benchmarks import batch_scaling

RUN = {"threads_available": 2, "sizes": [1, 4, 16],
       **{kind: {"1_thread": [1.0, 2.0, 3.0], "1_thread_packed": [2.0, 3.0, 4.0], "2_thread": [1.5, 3.5, 5.5],
                 "2_thread_packed": [2.5, 4.5, 6.5], "single_loop": 2.0} for kind in ("ordinary", "break")}}


def test_the_legend_covers_no_panel():
    import matplotlib.pyplot as plt  # the test extra

    fig = batch_scaling.figure(RUN)
    fig.canvas.draw()
    (legend,) = fig.legends
    box = legend.get_window_extent()
    assert len(legend.get_texts()) == 5
    for ax in fig.axes:
        assert not box.overlaps(ax.get_window_extent())
    plt.close(fig)


def test_replot_redraws_a_saved_run(tmp_path):
    saved = tmp_path / "run.json"
    saved.write_text(json.dumps(RUN))
    png = tmp_path / "plot.png"
    assert batch_scaling.main(["--replot", str(saved), "--plot", str(png)]) == RUN
    assert png.read_bytes()[:4] == b"\x89PNG"
