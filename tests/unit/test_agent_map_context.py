from __future__ import annotations

from stacgis_agent.agent.map_context import LayerInfo, MapContext


def test_prompt_is_compact_and_carries_what_the_model_needs():
    ctx = MapContext(extent=(4.7712345, 45.7012345, 4.9, 45.8), crs="EPSG:4326", center_lonlat=(4.835, 45.75),
                     scale=25000.4, active_layer="parcels",
                     selected_features={"type": "FeatureCollection", "features": [
                         {"type": "Feature", "id": 12, "properties": {"crop": "wheat"},
                          "geometry": {"type": "Point", "coordinates": [4.8, 45.7]}}]},
                     layers=(LayerInfo("parcels", "vector", geometry="Polygon", feature_count=120),
                             LayerInfo("S2 visual", "raster", crs="EPSG:32631", visible=False)))
    text = ctx.to_prompt()
    assert text.splitlines() == [
        "[map] extent: [4.77123, 45.70123, 4.90000, 45.80000] (EPSG:4326)",
        "centre lon/lat: 4.83500, 45.75000",
        "scale: 1:25,000",
        "active layer: parcels",
        "layers: parcels (vector, Polygon, 120 features); S2 visual (raster, EPSG:32631, hidden)",
        'selected features: {"type":"FeatureCollection","features":[{"type":"Feature","id":12,'
        '"properties":{"crop":"wheat"},"geometry":{"type":"Point","coordinates":[4.8,45.7]}}]}',
    ]
    assert MapContext.from_dict(ctx.to_dict()) == ctx
    assert MapContext().to_prompt() == ""


def test_large_selection_is_summarised_not_inlined():
    feats = [{"type": "Feature", "id": i, "properties": {"name": "x" * 50}, "geometry": None} for i in range(100)]
    text = MapContext(selected_features={"type": "FeatureCollection", "features": feats}).to_prompt()
    assert "100 features (too large to inline; ids [0, 1, 2" in text
    assert len(text) < 400


def test_session_title_is_what_the_user_typed_not_the_map_context():
    from stacgis_agent.agent.map_context import MapContext
    from stacgis_agent.agent.stores.session_data import title_from_memory

    context = MapContext(crs="EPSG:2154", active_layer="parcels")
    memory = {"messages": [{"role": "user", "content": "Mean NDVI of my parcel?\n\n" + context.to_prompt()}]}
    assert title_from_memory(memory) == "Mean NDVI of my parcel?"


def test_a_long_first_question_makes_a_title_of_whole_words():
    from stacgis_agent.agent.stores.session_data import TITLE_LENGTH, title_from_memory

    asked = "Find the Sentinel-2 scenes over Lyon in June 2025 and compute the mean NDVI of every parcel"
    title = title_from_memory({"messages": [{"role": "user", "content": asked}]})
    assert title == "Find the Sentinel-2 scenes over Lyon in June 2025 and…" and len(title) <= TITLE_LENGTH
    one_word = "x" * 80  # no space to cut at: cut inside it rather than show nothing
    assert title_from_memory({"messages": [{"role": "user", "content": one_word}]}) == "x" * 59 + "…"
