"""MCP prompts: analysis_prompt and query_prompt, for outside clients starting a task."""

from __future__ import annotations

from ..declare import prompt


@prompt(description="Plan and run a raster analysis over an area with STAC data")
def analysis_prompt(question: str, area: str = "the current map extent") -> str:
    return (f"Analyse {area}: {question}\n"
            "Steps: find a fitting collection (search_collections, get_collection_info), search items over "
            "the area and dates (search_items), read the asset in place (get_raster_statistics, "
            "compute_zonal_stats, detect_change), and report numbers with their units, dates, resolution "
            "and whether statistics were exact or from an overview.")


@prompt(description="Answer a question about the project's vector data")
def query_prompt(question: str, layer: str = "") -> str:
    target = f"the layer '{layer}'" if layer else "the project's vector layers (list_vector_layers)"
    return (f"Using {target}, answer: {question}\n"
            "Validate attribute expressions with search_vector_features, look at the selection with "
            "get_selected_features, and cite feature ids in the answer.")
