import pytest

from powts.law import well_render


@pytest.fixture
def well_chunks(monkeypatch):
    """Set the well batch's chunk sizes (with explanations, without) and count the frames it writes:
    `sizes = well_chunks(7, 30)`, then `sizes` holds each frame's length."""
    def set_sizes(chunk: int, chunk_reasons: int) -> list[int]:
        monkeypatch.setattr(well_render, "CHUNK", chunk)
        monkeypatch.setattr(well_render, "CHUNK_REASONS", chunk_reasons)
        sizes: list[int] = []
        real = well_render.well_frames

        def counted(*args, **kwargs):
            for f in real(*args, **kwargs):
                sizes.append(len(f))
                yield f
        monkeypatch.setattr(well_render, "well_frames", counted)
        return sizes
    return set_sizes
